"""Real tables in Chromium through the faults of tests/games/test_faults.py (issue 20): two
daphne processes on PostgreSQL and Redis (skipped without both, as CI's first pass is).

- A process SIGKILLed between a move's commit and its doorbell: both players' tables, open in
  Chromium on the process that lives, show the committed move (the mover's program made it on the
  process that died).
- Redis silenced (through a proxy the test holds): each player's table, on a process of its own,
  shows the moves made meanwhile, and the move after Redis is back.

Each waits up to 30 s for the table; the seconds it took are printed (bench/faults.py measures
the 5 s target).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from tests.games.test_faults import CONVERGE_DEADLINE, crashing_site, redis_behind_a_proxy
from tests.games.test_two_processes import Site, choose, open_socket, people
from tests.live_server import LiveServer
from tests.proxy import TcpProxy

__all__ = ["crashing_site", "redis_behind_a_proxy"]  # the module-scoped sites, shared

SESSION = """
import json
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
user = User.objects.get(username={username!r})
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print(json.dumps({{"name": settings.SESSION_COOKIE_NAME, "value": session.session_key}}))
"""


def table(browser: Any, stack: ExitStack, server: LiveServer, username: str, game: int) -> Any:
    """``username``'s table of ``game`` in a new Chromium context, logged in, on ``server``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    stack.callback(context.close)
    cookie = server.shell(SESSION.format(username=username))
    context.add_cookies([{**cookie, "url": server.url}])
    page = context.new_page()
    page.goto(f"{server.url}/play/games/{game}/")
    page.wait_for_function("() => window.spiteTable && window.spiteTable.state")
    return page


def shown(page: Any) -> int:
    return int(page.evaluate("() => window.spiteTable.state.version"))


def until_shown(pages: dict[int, Any], version: int) -> float:
    """Seconds until every page shows ``version`` (fails after CONVERGE_DEADLINE)."""
    start = time.monotonic()
    for page in pages.values():
        left = max(0.1, CONVERGE_DEADLINE - (time.monotonic() - start))
        page.wait_for_function(
            f"() => window.spiteTable.state.version >= {version}", timeout=left * 1000
        )
    return time.monotonic() - start


@pytest.fixture
def both(browser: Any) -> Iterator[tuple[Any, ExitStack]]:
    with ExitStack() as stack:
        yield browser, stack


def test_after_a_crash_between_commit_and_doorbell_both_tables_show_the_move(
    crashing_site: Site, both: tuple[Any, ExitStack]
) -> None:
    browser, stack = both
    site = crashing_site
    made = people(site.two, match=True)
    game, path = made["game"], f"/ws/games/{made['game']}/"
    names, keys = {0: made["a"], 1: made["b"]}, {0: made["a_key"], 1: made["b_key"]}
    pages = {seat: table(browser, stack, site.two, names[seat], game) for seat in (0, 1)}
    state = open_socket(stack, "a look", site.two, path, keys[0]).next_type("state")
    mover = state["view"]["to_move"]
    program = open_socket(stack, "the mover's program", site.one, path, keys[mover])
    state = program.next_type("state")
    version = state["version"]
    assert shown(pages[0]) == shown(pages[1]) == version

    move = choose(state["view"]["legal_moves"])
    program.send({"type": "move", "move": move, "version": version, "id": "crash-b"})
    took = until_shown(pages, version + 1)
    site.one.process.wait(timeout=10)
    assert site.one.process.returncode == -9  # it died at the fault point
    assert shown(pages[0]) == shown(pages[1]) == version + 1
    print(f"both tables showed the move {took:.2f} s after it was sent")


def test_with_redis_silent_each_table_shows_every_move(
    redis_behind_a_proxy: tuple[Site, TcpProxy], both: tuple[Any, ExitStack]
) -> None:
    browser, stack = both
    site, proxy = redis_behind_a_proxy
    made = people(site.two, match=True)
    game, path = made["game"], f"/ws/games/{made['game']}/"
    names, keys = {0: made["a"], 1: made["b"]}, {0: made["a_key"], 1: made["b_key"]}
    servers = {0: site.one, 1: site.two}  # each player's table on a process of its own
    pages = {seat: table(browser, stack, servers[seat], names[seat], game) for seat in (0, 1)}
    programs = {
        seat: open_socket(stack, f"seat {seat}'s program", servers[seat], path, keys[seat])
        for seat in (0, 1)
    }
    state = {seat: programs[seat].next_type("state") for seat in (0, 1)}

    def play() -> int:
        """The player to move plays through their program; the version it reaches."""
        seat = state[0]["view"]["to_move"]
        version = state[seat]["version"]
        move = choose(state[seat]["view"]["legal_moves"])
        programs[seat].send({"type": "move", "move": move, "version": version, "id": f"b{version}"})
        for each in (0, 1):
            state[each] = programs[each].next(
                lambda f: f.get("type") == "state" and f["version"] > version,
                f"version {version + 1}",
                CONVERGE_DEADLINE,
            )
        return version + 1

    proxy.silence()
    try:
        during = [until_shown(pages, play()) for _ in range(2)]
    finally:
        proxy.restore()
    after = until_shown(pages, play())
    print(
        f"with Redis silent the tables showed each move in {during[0]:.2f} and {during[1]:.2f} s;"
        f" after its return in {after:.2f} s"
    )
