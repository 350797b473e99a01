"""Where a move's time goes, in one process: per-move wall time and DB queries per move.

    .venv/bin/python bench/profile_move.py                      # SQLite file, both modes
    .venv/bin/python bench/profile_move.py --mode service -k 300
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> .venv/bin/python bench/profile_move.py
    .venv/bin/pyinstrument bench/profile_move.py --mode service  # the call tree of a move
    .venv/bin/py-spy record -o move.svg -- .venv/bin/python bench/profile_move.py --mode socket

Two modes, each on a fresh casual match between two people (default rules, a target no game
reaches, so every move is an ordinary one):

- ``service``: calls ``games.services.game_play_move`` directly, on this thread, for the seat
  to move, with a move chosen from that seat's legal moves; its commit hooks run as on the
  server (frames built, group_send on the in-memory layer with nobody listening). Reports the
  service's wall time and queries per move, and the part of both spent building the frames
  (``game_event_frames``) and the ``your_turn`` doorbell. Runs on one thread, so pyinstrument
  sees all of it.
- ``socket``: both players and one spectator connected to ``spite.asgi.application`` through
  channels' ``WebsocketCommunicator`` (in-memory channel layer); the mover sends each move
  chosen from its own view's ``legal_moves``; reports the round trip (sent -> the mover's
  socket has the new version's state), the time until the opponent and the spectator have it,
  and every query any thread ran per move.

With no ``DATABASE_URL`` it uses a fresh SQLite file in a temporary directory; with one, it
migrates that database (give it one of its own) and leaves the rows there. A figure, never a
test: the machine is shared; repeat runs and compare medians.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup(args: argparse.Namespace) -> None:
    if not os.environ.get("DATABASE_URL"):
        tmp = tempfile.mkdtemp(prefix="profile-move-")
        os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/db.sqlite3"
    os.environ.pop("REDIS_URL", None)  # in-memory channel layer and cache: one process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spite.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.GAMES_WS_THROTTLE = (1_000_000, 1.0)  # measure the path, not the limit
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.GAMES_SWEEP_INTERVAL = 0
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


# --- counting queries on every thread ------------------------------------------------------


class _Queries:
    """Counts every query any connection runs, by thread-independent total and by label."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.total = 0
        self.sql: Counter[str] = Counter()

    def install(self) -> None:
        from django.db.backends import utils

        original = utils.CursorWrapper._execute_with_wrappers
        queries = self

        def counted(self_: Any, sql: str, params: Any, many: bool, executor: Any) -> Any:
            with queries.lock:
                queries.total += 1
                queries.sql[" ".join(str(sql).split())[:120]] += 1
            return original(self_, sql, params, many, executor)

        utils.CursorWrapper._execute_with_wrappers = counted


QUERIES = _Queries()


class _Span:
    """Wall time and queries of one function, summed over the calls of one move."""

    def __init__(self) -> None:
        self.ms = 0.0
        self.queries = 0

    def reset(self) -> None:
        self.ms, self.queries = 0.0, 0


@contextmanager
def _spanned(span: _Span):
    before, start = QUERIES.total, time.perf_counter()
    try:
        yield
    finally:
        span.ms += (time.perf_counter() - start) * 1000
        span.queries += QUERIES.total - before


def _wrap(module: Any, name: str, span: _Span) -> None:
    original = getattr(module, name)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with _spanned(span):
            return original(*args, **kwargs)

    setattr(module, name, wrapped)


# --- the match ------------------------------------------------------------------------------


def _players() -> tuple[Any, Any, Any]:
    from accounts.models import User

    tag = os.urandom(3).hex()
    made = []
    for name in ("alice", "bob", "carol"):
        made.append(
            User.objects.create_user(
                username=f"{name}-{tag}", password="x", display_name=f"{name}-{tag}"
            )
        )
    return made[0], made[1], made[2]


def _new_game(user0: Any, user1: Any) -> Any:
    import engine
    from games import services
    from games.models import Game

    rules = engine.Rules(match_target=10_000)
    match = services.match_create_between(user0=user0, user1=user1, rules=rules)
    return Game.objects.get(match=match, number=1)


def _summary(name: str, values: list[float], unit: str = "ms") -> str:
    if not values:
        return f"{name}: -"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (
        f"{name:<34} mean {statistics.fmean(values):7.2f}  median {statistics.median(values):7.2f}"
        f"  p95 {p95:7.2f}  max {ordered[-1]:7.2f} {unit}"
    )


def run_service(k: int) -> dict[str, Any]:
    import engine
    from games import services
    from games.models import Game
    from games.sending import changes
    from games.sending import players as notify

    frames_span, turn_span = _Span(), _Span()
    _wrap(changes, "game_event_frames", frames_span)
    _wrap(notify, "turn_passed_frames", turn_span)
    alice, bob, _ = _players()
    game = _new_game(alice, bob)
    users = {0: alice, 1: bob}
    wall, queries, frame_ms, frame_q, turn_ms, turn_q = [], [], [], [], [], []
    played = 0
    while played < k:
        game = Game.objects.get(pk=game.pk)
        if not game.is_active:  # the game ended: play on in the match's next one
            game = Game.objects.get(match_id=game.match_id, number=game.number + 1)
        seat = game.to_move
        legal = engine.Game.from_dict(game.state).view(seat)["legal_moves"]
        move = legal[played * 7919 % len(legal)]
        frames_span.reset()
        turn_span.reset()
        before, start = QUERIES.total, time.perf_counter()
        services.game_play_move(
            game_id=game.pk, user=users[seat], move=move, version=game.version,
            move_id=f"m{played}",
        )  # fmt: skip
        wall.append((time.perf_counter() - start) * 1000)
        queries.append(QUERIES.total - before)
        frame_ms.append(frames_span.ms)
        frame_q.append(frames_span.queries)
        turn_ms.append(turn_span.ms)
        turn_q.append(turn_span.queries)
        played += 1
    return {
        "moves": played,
        "service_ms": wall,
        "service_queries": queries,
        "frames_ms": frame_ms,
        "frames_queries": frame_q,
        "your_turn_ms": turn_ms,
        "your_turn_queries": turn_q,
    }


async def run_socket(k: int) -> dict[str, Any]:
    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.test import Client

    from spite.asgi import application

    def prepare() -> tuple[Any, list[str]]:
        alice, bob, carol = _players()
        game = _new_game(alice, bob)
        cookies = []
        for user in (alice, bob, carol):
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies[settings.SESSION_COOKIE_NAME].value)
        return game, cookies

    game, cookies = await sync_to_async(prepare)()
    site = [(b"host", b"localhost"), (b"origin", b"http://localhost")]  # the Origin check's
    sockets = []
    for cookie in cookies:
        headers = [*site, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
        communicator = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers)
        connected, _ = await communicator.connect()
        assert connected, "socket refused"
        sockets.append(communicator)
    latest: list[dict[str, Any]] = []
    for communicator in sockets:
        latest.append(await _state(communicator, -1))

    async def until(communicator: WebsocketCommunicator, version: int) -> dict[str, Any]:
        return await _state(communicator, version - 1)

    rtt, opponent, spectator, queries = [], [], [], []
    played = 0
    try:
        while played < k:
            view = latest[0]["view"]
            if latest[0]["game"]["status"] != "active" or view["outcome"] is not None:
                break
            seat = view["to_move"]
            legal = latest[seat]["view"]["legal_moves"]
            move = legal[played * 7919 % len(legal)]
            version = latest[seat]["version"]
            before, start = QUERIES.total, time.perf_counter()
            await sockets[seat].send_json_to(
                {"type": "move", "id": f"m{played}", "move": move, "version": version}
            )
            mine = await until(sockets[seat], version + 1)
            rtt.append((time.perf_counter() - start) * 1000)
            theirs = await until(sockets[1 - seat], version + 1)
            opponent.append((time.perf_counter() - start) * 1000)
            watched = await until(sockets[2], version + 1)
            spectator.append((time.perf_counter() - start) * 1000)
            queries.append(QUERIES.total - before)
            latest[seat], latest[1 - seat], latest[2] = mine, theirs, watched
            played += 1
    finally:
        for communicator in sockets:
            await communicator.disconnect()
    return {
        "moves": played,
        "rtt_ms": rtt,
        "opponent_ms": opponent,
        "spectator_ms": spectator,
        "queries": queries,
    }


async def _state(communicator: Any, after: int) -> dict[str, Any]:
    """The next ``state`` frame newer than version ``after`` (other frames skipped)."""
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        if frame.get("type") == "error":
            raise RuntimeError(f"refused: {frame}")
        if frame.get("type") == "state" and frame["version"] > after:
            return frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("service", "socket", "both"), default="both")
    parser.add_argument("-k", "--moves", type=int, default=150, help="moves per mode")
    parser.add_argument("--json", type=Path, help="write the raw figures here")
    parser.add_argument("--top-sql", type=int, default=0, help="print the N commonest queries")
    args = parser.parse_args()
    _setup(args)
    QUERIES.install()
    out: dict[str, Any] = {"database": os.environ["DATABASE_URL"].split(":")[0]}
    print(f"database: {out['database']}, {args.moves} moves per mode")
    if args.mode in ("service", "both"):
        r = run_service(args.moves)
        out["service"] = r
        print(f"service mode: {r['moves']} moves (game_play_move called directly)")
        print(_summary("  game_play_move wall", r["service_ms"]))
        print(_summary("    of which frames built", r["frames_ms"]))
        print(_summary("    of which your_turn frames", r["your_turn_ms"]))
        print(_summary("  queries per move", r["service_queries"], "queries"))
        print(_summary("    of which frames built", r["frames_queries"], "queries"))
        print(_summary("    of which your_turn frames", r["your_turn_queries"], "queries"))
    if args.mode in ("socket", "both"):
        r = asyncio.run(run_socket(args.moves))
        out["socket"] = r
        print(f"socket mode: {r['moves']} moves (2 players + 1 spectator, in-memory layer)")
        print(_summary("  move RTT (mover has state)", r["rtt_ms"]))
        print(_summary("  opponent has state", r["opponent_ms"]))
        print(_summary("  spectator has state", r["spectator_ms"]))
        print(_summary("  queries per move (all threads)", r["queries"], "queries"))
    if args.top_sql:
        print(f"commonest queries (all modes, setup included), top {args.top_sql}:")
        for sql, n in QUERIES.sql.most_common(args.top_sql):
            print(f"  {n:6d}  {sql}")
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
