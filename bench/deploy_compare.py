"""How fast several server processes play live games, per ASGI server (docs/deploy.md).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/deploy_compare.py --server daphne --processes 2

It makes a fresh PostgreSQL database beside ``DATABASE_URL``'s (migrated, dropped at the end)
and uses ``REDIS_URL`` under key prefixes of its own (deleted at the end), starts the site with
production settings (``DEBUG=false``) as

- ``daphne``: N daphne processes on N ports;
- ``uvicorn``: N uvicorn processes on N ports;
- ``uvicorn-workers``: one ``uvicorn --workers N`` on one port (the kernel spreads connections);

then plays ``--games`` casual games between people (pay-off piles of 5), ``--concurrency`` at a
time, over the game socket with API tokens: each game's two players sit on different ports
(where there are several), so every move crosses processes through Redis. Each move is chosen
from the mover's view and sent at once. The socket's per-connection throttle (3 messages a
second after a burst of 30, far above a person's pace) is lifted through a settings module
that imports ``spite.settings``, so the figures measure the servers, not that limit. It
prints moves per second over the whole run, the round trip of a move (sent -> the mover's
socket has the new version's ``state``) and its delivery to the opponent (sent -> the
opponent's socket has it), p50/p95/max.

A figure, not a test: the client shares the machine with the servers, PostgreSQL and Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.live import servers as srv  # the processes, database and Redis prefixes

MAKE_GAMES = """
import json, secrets
import engine
from accounts.models import User
from api.services import api_token_create
from games.services import match_create_between
rules = engine.Rules(payoff_size=5, match_target=5)
out = []
for _ in range({games}):
    a, b = (User.objects.create_user(username='b' + secrets.token_hex(5), password='x')
            for _ in range(2))
    match = match_create_between(user0=a, user1=b, rules=rules)
    out.append({{'game': match.games.get().pk,
                'keys': [api_token_create(user=u, name='bench')[1] for u in (a, b)]}})
print(json.dumps(out))
"""


def choose(moves: list[str]) -> str:
    """Pay-off cards first, then cards onto the center (Kings kept), else the first discard:
    short games, like the two-process test's players."""
    for fits in (
        lambda m: m.startswith("p-"),
        lambda m: m.startswith("h:") and "-c" in m and not m.startswith("h:K"),
        lambda m: m.startswith("s") and "-c" in m,
    ):
        chosen = [m for m in moves if fits(m)]
        if chosen:
            return chosen[0]
    return moves[0]


@dataclass
class Figures:
    rtt: list[float] = field(default_factory=list)
    delivery: list[float] = field(default_factory=list)
    throttled: int = 0
    lost: int = 0  # the opponent's state did not come within LATE seconds
    games: int = 0


LATE = 3.0  # seconds after which a missing state counts as lost and is asked for (sync)


async def next_state(conn: Any, version: int, timeout: float = 10.0) -> dict[str, Any]:
    """The first state at ``version`` or later; a refusal is returned as it is."""
    while True:
        frame = json.loads(await asyncio.wait_for(conn.recv(), timeout))
        if frame["type"] == "error" or (frame["type"] == "state" and frame["version"] >= version):
            return frame


async def play(game: dict[str, Any], urls: list[str], offset: int, figures: Figures) -> None:
    conns = []
    for seat, key in enumerate(game["keys"]):
        url = urls[(offset + seat) % len(urls)]
        conns.append(
            await websockets.connect(
                url.replace("http://", "ws://") + f"/ws/games/{game['game']}/",
                origin=url,
                additional_headers={"Authorization": f"Bearer {key}"},
                open_timeout=10,
            )
        )
    try:
        states = [json.loads(await conn.recv()) for conn in conns]
        while states[0]["game"]["status"] == "active":
            mover = states[0]["view"]["to_move"]
            version = states[mover]["version"]
            move = choose(states[mover]["view"]["legal_moves"])
            message = json.dumps(
                {"type": "move", "move": move, "version": version, "id": f"m{version}"}
            )
            sent = time.perf_counter()
            await conns[mover].send(message)
            other = asyncio.ensure_future(next_state(conns[1 - mover], version + 1, LATE))
            while True:
                mine = await next_state(conns[mover], version + 1)
                if mine["type"] == "state":
                    break
                if mine.get("code") != "throttled":
                    raise RuntimeError(f"refused: {mine}")
                figures.throttled += 1
                await asyncio.sleep(max(0.1, mine["params"]["retry_after"]))
                sent = time.perf_counter()
                await conns[mover].send(message)
            figures.rtt.append(time.perf_counter() - sent)
            try:
                theirs = await other
            except TimeoutError:  # the doorbell was lost: ask, as a client would
                figures.lost += 1
                await conns[1 - mover].send(json.dumps({"type": "sync"}))
                theirs = await next_state(conns[1 - mover], version + 1)
            figures.delivery.append(time.perf_counter() - sent)
            states[mover], states[1 - mover] = mine, theirs
        figures.games += 1
    finally:
        for conn in conns:
            await conn.close()


async def run_games(games: list[dict[str, Any]], urls: list[str], concurrency: int) -> Figures:
    figures = Figures()
    gate = asyncio.Semaphore(concurrency)

    async def one(index: int, game: dict[str, Any]) -> None:
        async with gate:
            await play(game, urls, index, figures)

    await asyncio.gather(*(one(i, g) for i, g in enumerate(games)))
    return figures


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", choices=["daphne", "uvicorn", "uvicorn-workers"])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument(
        "--layer",
        choices=["pubsub", "core"],
        default="pubsub",
        help="the channels_redis layer: pubsub (the settings' RedisPubSubChannelLayer) or core "
        "(RedisChannelLayer, for comparison)",
    )
    args = parser.parse_args()
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not redis_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL) and REDIS_URL")

    extra = ""
    if args.layer == "core":
        extra = "CHANNEL_LAYERS['default']['BACKEND'] = 'channels_redis.core.RedisChannelLayer'\n"
    with srv.fresh_database(database_url) as db, srv.redis_prefix(redis_url) as prefix:
        logdir = srv.new_logdir(prefix)
        env = srv.site_env(
            database_url=db,
            redis_url=redis_url,
            prefix=prefix,
            logdir=logdir,
            lift_throttle=True,
            extra_settings=extra,
        )
        srv.manage(env, "migrate", "--noinput")
        games = json.loads(srv.shell(env, MAKE_GAMES.format(games=args.games)))
        with srv.servers(args.server, args.processes, env, logdir) as running:
            started = time.perf_counter()
            figures = asyncio.run(run_games(games, running.urls, args.concurrency))
            elapsed = time.perf_counter() - started

    moves = len(figures.rtt)
    ms = [1000 * v for v in figures.rtt]
    delivered = [1000 * v for v in figures.delivery]
    print(
        f"{args.server} x{args.processes} ({args.layer}): {figures.games} games, {moves} moves in "
        f"{elapsed:.1f} s = {moves / elapsed:.0f} moves/s (concurrency {args.concurrency}); "
        f"round trip p50 {statistics.median(ms):.1f} ms, p95 {percentile(ms, 0.95):.1f} ms, "
        f"max {max(ms):.0f} ms; to the opponent p50 {statistics.median(delivered):.1f} ms, "
        f"p95 {percentile(delivered, 0.95):.1f} ms; lost {figures.lost}; "
        f"throttled {figures.throttled}; "
        f"logs in {logdir}"
    )


if __name__ == "__main__":
    main()
