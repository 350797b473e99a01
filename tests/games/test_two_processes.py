"""Two daphne processes serve one site on PostgreSQL and Redis (docs/deploy.md).

Player A's socket is on server one; player B's and an anonymous spectator's are on server
two. A whole game is played move by move, each move chosen from the mover's own view; after
every move all three sockets get the new version's ``state`` (in order, no gap, the spectator
never sees a hand), and at the end every socket gets ``game_end``. A lobby challenge sent
through server one reaches the challenged player's ``/ws/me/`` on server two, and its
acceptance there reaches the challenger's socket on server one.

The servers get a fresh PostgreSQL database beside ``DATABASE_URL``'s (migrated, dropped at the
end) and ``REDIS_URL`` under key prefixes of their own (deleted at the end), so nothing meets
another run's data. Skipped when either variable is missing (CI's second pass sets both).
"""

from __future__ import annotations

import json
import secrets
import time
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.live_server import (
    LiveServer,
    healthz_status,
    migrated,
    postgres_and_redis,
    postgres_database,
    redis_site_env,
    serve,
)
from tests.proxy import TcpProxy

SKIP_REASON = (
    "needs PostgreSQL and Redis (set DATABASE_URL and REDIS_URL); CI's second pass has both"
)
DEADLINE = 5.0  # seconds a frame may take to arrive


@dataclass
class Site:
    one: LiveServer
    two: LiveServer

    def healthy(self) -> bool:
        """Whether both servers' /healthz answer 200."""
        return healthz_status(self.one) == healthz_status(self.two) == 200


@contextmanager
def two_servers(
    workdir: Path,
    name: str,
    *,
    redis_url: str | None = None,
    database_port: int | None = None,
    env_one: Mapping[str, str] | None = None,
) -> Iterator[Site]:
    """Two daphne servers of one site: a fresh PostgreSQL database beside ``DATABASE_URL``'s
    and Redis (``REDIS_URL``, or ``redis_url``, e.g. a proxy's) under prefixes named after
    ``name``; ``database_port`` reaches PostgreSQL on that port of 127.0.0.1 instead (a
    proxy's); ``env_one`` is added to server one's environment. Skips without both
    services."""
    if (urls := postgres_and_redis()) is None:
        pytest.skip(SKIP_REASON)
    database_url, run_redis_url = urls
    with (
        redis_site_env(redis_url or run_redis_url, name) as env,
        postgres_database(database_url, prefix=f"spite_{name}") as db,
        ExitStack() as stack,
    ):
        (workdir / "one").mkdir()
        (workdir / "two").mkdir()
        served = db
        if database_port is not None:
            migrated(db)  # directly: the template it copies must not depend on the proxy
            parts = urllib.parse.urlsplit(db)
            auth = f"{parts.username}@" if parts.username else ""
            served = parts._replace(netloc=f"{auth}127.0.0.1:{database_port}").geturl()
        one_env = {**env, **(env_one or {})}
        one = stack.enter_context(
            serve(
                workdir / "one",
                env=one_env,
                database_url=served,
                migrate=database_port is None,
                job_workers=1,
            )
        )
        two = stack.enter_context(
            serve(workdir / "two", env=env, database_url=served, migrate=False)
        )
        yield Site(one, two)


@contextmanager
def cut_site(workdir: Path, name: str, service: str) -> Iterator[tuple[Site, TcpProxy]]:
    """A two-server site (``two_servers``) whose ``service``, "redis" or "database", it reaches
    through a ``TcpProxy`` the caller cuts; yields (site, proxy). The proxy is restored before
    the site goes: its clean-up (Redis keys, the database) may go through it."""
    if (urls := postgres_and_redis()) is None:
        pytest.skip(SKIP_REASON)
    database_url, redis_url = urls
    parts = urllib.parse.urlsplit(redis_url if service == "redis" else database_url)
    default_port = 6379 if service == "redis" else 5432
    with TcpProxy(parts.hostname or "127.0.0.1", parts.port or default_port) as proxy:
        if service == "redis":
            through = {"redis_url": parts._replace(netloc=f"127.0.0.1:{proxy.port}").geturl()}
        else:
            through = {"database_port": proxy.port}
        with two_servers(workdir, name, **through) as site:  # type: ignore[arg-type]
            try:
                yield site, proxy
            finally:
                proxy.restore()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with two_servers(tmp_path_factory.mktemp("two_processes"), "spite2p") as both:
        yield both


def people(server: LiveServer, *, match: bool) -> dict[str, Any]:
    """Two new people with an API token each (and, with ``match``, a casual match between
    them: pay-off piles of 5, first to 5 points), made through the server's manage.py."""
    a, b = (f"{who}{secrets.token_hex(3)}" for who in ("ann", "bob"))
    code = (
        "import json\n"
        "import engine\n"
        "from accounts.models import User\n"
        "from api.services import api_token_create\n"
        "from games.services import match_create_between\n"
        f"a = User.objects.create_user(username={a!r}, password='x')\n"
        f"b = User.objects.create_user(username={b!r}, password='x')\n"
        "out = {'a': a.username, 'b': b.username,\n"
        "       'a_key': api_token_create(user=a, name='2p')[1],\n"
        "       'b_key': api_token_create(user=b, name='2p')[1]}\n"
    )
    if match:
        code += (
            "rules = engine.Rules(payoff_size=5, match_target=5)\n"
            "m = match_create_between(user0=a, user1=b, rules=rules)\n"
            "out['game'] = m.games.get().pk\n"
        )
    code += "print(json.dumps(out))\n"
    output = server.manage("shell", "--no-imports", "-c", code).stdout
    return json.loads(output.strip().splitlines()[-1])


@dataclass
class Socket:
    """One client socket and every frame it received."""

    name: str
    conn: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)
    read: int = 0  # frames[:read] have been looked at

    def send(self, frame: dict[str, Any]) -> None:
        self.conn.send(json.dumps(frame))

    def next(
        self, wanted: Callable[[dict[str, Any]], bool], what: str, within: float = DEADLINE
    ) -> dict[str, Any]:
        """The next frame (after those looked at) that is ``wanted``, within ``within`` s."""
        deadline = time.monotonic() + within
        while True:
            while self.read < len(self.frames):
                frame = self.frames[self.read]
                self.read += 1
                if wanted(frame):
                    return frame
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(
                    f"{self.name}: no {what} within {within} s; last frames: {self.frames[-3:]}"
                )
            try:
                self.frames.append(json.loads(self.conn.recv(timeout=left)))
            except TimeoutError:
                continue

    def next_type(self, *types: str, within: float = DEADLINE) -> dict[str, Any]:
        return self.next(lambda f: f.get("type") in types, "/".join(types), within)


def open_socket(
    stack: ExitStack, name: str, server: LiveServer, path: str, key: str | None = None
) -> Socket:
    """A socket to ``server`` (with an API token, or anonymous), closed with ``stack``."""
    headers = {"Authorization": f"Bearer {key}"} if key else None
    conn = connect(
        server.url.replace("http://", "ws://") + path,
        origin=server.url,
        additional_headers=headers,
        open_timeout=DEADLINE,
    )
    return Socket(name, stack.enter_context(conn))


def choose(moves: list[str]) -> str:
    """A move that ends the game soon: pay-off cards first, then cards onto the center
    (hand, then side stacks; Kings kept), else the first discard."""
    for fits in (
        lambda m: m.startswith("p-"),
        lambda m: m.startswith("h:") and "-c" in m and not m.startswith("h:K"),
        lambda m: m.startswith("s") and "-c" in m,
    ):
        chosen = [m for m in moves if fits(m)]
        if chosen:
            return chosen[0]
    return moves[0]


def assert_no_hidden_hand(frame: dict[str, Any]) -> None:
    """A state shows a hand only to the seat it belongs to (a spectator sees none)."""
    seat = frame["view"]["seat"]
    for index, player in enumerate(frame["view"]["players"]):
        if index != seat:
            assert player["hand"] is None, f"seat {seat} sees seat {index}'s hand"


def test_two_processes_serve_one_game_to_players_and_a_spectator(site: Site) -> None:
    made = people(site.one, match=True)
    game = made["game"]
    path = f"/ws/games/{game}/"
    with ExitStack() as stack:
        a = open_socket(stack, "A on server one", site.one, path, made["a_key"])
        b = open_socket(stack, "B on server two", site.two, path, made["b_key"])
        watcher = open_socket(stack, "spectator on server two", site.two, path)
        sockets = (a, b, watcher)
        latest = {s.name: s.next_type("state") for s in sockets}
        assert latest[a.name]["you"] == 0 and latest[b.name]["you"] == 1
        assert latest[watcher.name]["you"] is None
        version = latest[a.name]["version"]
        assert {frame["version"] for frame in latest.values()} == {version}
        seated = {0: a, 1: b}

        moves = 0
        while latest[a.name]["game"]["status"] == "active":
            mover = seated[latest[a.name]["view"]["to_move"]]
            move = choose(latest[mover.name]["view"]["legal_moves"])
            move_id = f"m{version}"
            mover.send({"type": "move", "move": move, "version": version, "id": move_id})
            while True:  # the mover's own socket: the new state, or a refusal to act on
                frame = mover.next_type("state", "error")
                if frame["type"] == "state":
                    break
                assert frame["code"] == "throttled", frame  # resend the same move id
                time.sleep(frame["params"]["retry_after"])
                mover.send({"type": "move", "move": move, "version": version, "id": move_id})
            latest[mover.name] = frame
            for socket in sockets:
                if socket is not mover:
                    latest[socket.name] = socket.next_type("state")
            for socket in sockets:
                state = latest[socket.name]
                assert state["version"] == version + 1, (socket.name, state["version"], version)
                assert state["last_moves"][-1]["move"] == move
                assert_no_hidden_hand(state)
            version += 1
            moves += 1
            assert moves < 1000, "the game does not end"

        ends = [s.next_type("game_end") for s in sockets]
        assert all(end == ends[0] for end in ends), ends
        assert ends[0]["game"] == game
        for socket in sockets:  # every state each socket saw, in order and without a gap
            versions = [f["version"] for f in socket.frames if f["type"] == "state"]
            assert versions == list(range(versions[0], version + 1)), socket.name
        spectator_states = [f for f in watcher.frames if f["type"] == "state"]
        assert all(p["hand"] is None for f in spectator_states for p in f["view"]["players"])
        assert all(f["view"]["legal_moves"] == [] for f in spectator_states)


def test_a_challenge_sent_through_one_process_reaches_a_socket_on_the_other(site: Site) -> None:
    made = people(site.one, match=False)
    with ExitStack() as stack:
        ann = open_socket(stack, "A's /ws/me/ on server one", site.one, "/ws/me/", made["a_key"])
        bob = open_socket(stack, "B's /ws/me/ on server two", site.two, "/ws/me/", made["b_key"])
        for socket in (ann, bob):
            socket.next_type("games")  # connected: challenges, then games
        api = stack.enter_context(
            httpx.Client(
                base_url=site.one.url, headers={"Authorization": f"Bearer {made['a_key']}"}
            )
        )
        sent = api.post(
            "/api/v1/challenges/",
            json={"opponent": made["b"], "rules": {"payoff_size": 5, "match_target": 5}},
        )
        assert sent.status_code == 201, sent.text
        challenge = sent.json()["id"]

        received = bob.next_type("challenge")
        assert (received["id"], received["state"]) == (challenge, "received")
        assert received["from"]["username"] == made["a"]

        bob.send({"type": "challenge_answer", "id": challenge, "accept": True})
        accepted = ann.next_type("challenge_accepted")
        assert accepted["challenge"] == challenge
        assert bob.next_type("challenge_accepted")["game"] == accepted["game"]
