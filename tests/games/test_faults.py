"""Faults against real processes (issue 20): every committed move reaches every open table,
whatever fails. Two daphne processes on PostgreSQL and Redis, as tests/games/test_two_processes.py
serves them; skipped without both (CI's second pass has them).

- A process SIGKILLed between a move's commit and its doorbell (``GAMES_FAULT=move``, a fault
  point refused when DEBUG is off): the opponent's socket on the other process shows the
  committed state by the convergence check (the test waits up to 30 s and prints how long it
  took; the target is 5 s), and the mover, reconnected to the other process, finds its move
  applied once.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from tests.games.test_two_processes import SKIP_REASON, Site, choose, open_socket, people
from tests.live_server import postgres_and_redis, postgres_database, redis_site_env, serve

CONVERGE_DEADLINE = 30.0  # seconds a table may take to show the committed state in a test


@pytest.fixture(scope="module")
def crashing_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """Server one kills itself after its first committed change; server two is sound."""
    if (urls := postgres_and_redis()) is None:
        pytest.skip(SKIP_REASON)
    database_url, redis_url = urls
    workdir = tmp_path_factory.mktemp("faults")
    with (
        redis_site_env(redis_url, "spitefault") as env,
        postgres_database(database_url, prefix="spite_fault") as db,
        ExitStack() as stack,
    ):
        (workdir / "one").mkdir()
        (workdir / "two").mkdir()
        one = stack.enter_context(
            serve(workdir / "one", env={**env, "GAMES_FAULT": "move"}, database_url=db)
        )
        two = stack.enter_context(serve(workdir / "two", env=env, database_url=db, migrate=False))
        yield Site(one, two)


def test_a_process_killed_between_commit_and_doorbell_strands_nobody(crashing_site: Site) -> None:
    site = crashing_site
    made = people(site.two, match=True)
    path = f"/ws/games/{made['game']}/"
    keys = {0: made["a_key"], 1: made["b_key"]}
    with ExitStack() as stack:
        first = open_socket(stack, "first look", site.two, path, keys[0]).next_type("state")
        mover_seat = first["view"]["to_move"]
        mover = open_socket(stack, "the mover on server one", site.one, path, keys[mover_seat])
        other = open_socket(
            stack, "the opponent on server two", site.two, path, keys[1 - mover_seat]
        )
        state = mover.next_type("state")
        other.next_type("state")
        version = state["version"]
        move = choose(state["view"]["legal_moves"])

        sent = time.monotonic()
        mover.send({"type": "move", "move": move, "version": version, "id": "crash-1"})
        caught_up = other.next(
            lambda f: f.get("type") == "state" and f["version"] > version,
            "the committed state",
            CONVERGE_DEADLINE,
        )
        took = time.monotonic() - sent
        assert caught_up["version"] == version + 1
        assert caught_up["last_moves"][-1]["move"] == move
        site.one.process.wait(timeout=10)  # it did die at the fault point
        assert site.one.process.returncode == -9

        again = open_socket(
            stack, "the mover back, on server two", site.two, path, keys[mover_seat]
        )
        back = again.next_type("state")
        assert back["version"] == version + 1  # applied, once
        again.send({"type": "move", "move": move, "version": version, "id": "crash-1"})
        assert again.next_type("state")["version"] == version + 1  # a resend applies nothing
    print(f"converged {took:.2f} s after the move")
