"""How long an open table takes to show the committed state after each fault (issue 20's 5 s
target; docs/performance.md): two daphne processes and a job worker on PostgreSQL and Redis, as
tests/games/test_faults.py serves them, each fault repeated ``--runs`` times.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python -m bench.faults --runs 10

- ``crash``: the mover's process SIGKILLs itself between the commit and the doorbell
  (``GAMES_FAULT=move``); timed from the move sent to the opponent's socket, on the other process,
  showing it (then the dead process is started again).
- ``redis-refusing``, ``redis-silent``: Redis cut through a proxy; a move, timed to the other
  process's table showing it; Redis restored after each run.
- ``database-refusing``, ``database-silent``: PostgreSQL cut through a proxy for 3 s; timed from
  its return to the moment a move (sent again by the mover, as the table does after its backoff)
  shows at the other process's table.

Prints the median and the maximum of each and writes bench/results/faults-<UTC time>.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.games.test_two_processes import (
    Site,
    choose,
    cut_site,
    open_socket,
    people,
    two_servers,
)
from tests.live_server import postgres_and_redis, until

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 30.0


def _table(site: Site, stack: ExitStack) -> tuple[dict[int, Any], dict[str, Any], dict[int, Any]]:
    """A new game between two people: each seat's socket on a process of its own, their
    states, and the keys."""
    made = people(site.two, match=True)
    path = f"/ws/games/{made['game']}/"
    keys = {0: made["a_key"], 1: made["b_key"]}
    servers = {0: site.one, 1: site.two}
    sockets = {s: open_socket(stack, f"seat {s}", servers[s], path, keys[s]) for s in (0, 1)}
    states = {s: sockets[s].next_type("state") for s in (0, 1)}
    return sockets, {"path": path, "keys": keys, "servers": servers}, states


def _move(sockets: dict[int, Any], states: dict[int, Any], tag: str) -> tuple[int, int, float]:
    """The seat to move sends a move; (its seat, the version it moved at, when it was sent)."""
    seat = states[0]["view"]["to_move"]
    version = states[seat]["version"]
    move = choose(states[seat]["view"]["legal_moves"])
    sockets[seat].send({"type": "move", "move": move, "version": version, "id": tag})
    return seat, version, time.monotonic()


def _shown(socket: Any, version: int) -> float:
    socket.next(lambda f: f.get("type") == "state" and f["version"] > version, "the move", DEADLINE)
    return time.monotonic()


def crash(workdir: Path, runs: int) -> list[float]:
    took = []
    with two_servers(workdir, "benchcrash", env_one={"GAMES_FAULT": "move"}) as site:
        for run in range(runs):
            with ExitStack() as stack:
                made = people(site.two, match=True)
                path = f"/ws/games/{made['game']}/"
                keys = {0: made["a_key"], 1: made["b_key"]}
                look = open_socket(stack, "look", site.two, path, keys[0]).next_type("state")
                mover = look["view"]["to_move"]
                one = open_socket(stack, "mover", site.one, path, keys[mover])
                other = open_socket(stack, "other", site.two, path, keys[1 - mover])
                state = one.next_type("state")
                other.next_type("state")
                move = choose(state["view"]["legal_moves"])
                version = state["version"]
                one.send({"type": "move", "move": move, "version": version, "id": f"k{run}"})
                sent = time.monotonic()
                took.append(_shown(other, version) - sent)
            site.one.process.wait(timeout=10)
            site.one.start()
    return took


def redis_cut(workdir: Path, runs: int, mode: str) -> list[float]:
    took = []
    with cut_site(workdir, f"benchredis{mode[:3]}", "redis") as (site, proxy):
        for run in range(runs):
            with ExitStack() as stack:
                sockets, _, states = _table(site, stack)
                proxy.refuse() if mode == "refusing" else proxy.silence()
                seat, version, sent = _move(sockets, states, f"r{run}")
                took.append(_shown(sockets[1 - seat], version) - sent)
                proxy.restore()
                until(site.healthy, "both servers healthy")
    return took


def database_cut(workdir: Path, runs: int, mode: str) -> list[float]:
    took = []
    with cut_site(workdir, f"benchdb{mode[:3]}", "database") as (site, proxy):
        for run in range(runs):
            with ExitStack() as stack:
                sockets, table, states = _table(site, stack)
                proxy.refuse() if mode == "refusing" else proxy.silence()
                time.sleep(3)  # the outage: the bench's own, not a wait for a condition
                proxy.restore()
                back = time.monotonic()
                seat = states[0]["view"]["to_move"]
                # The mover's table reconnects and sends its move again (as table.js does).
                until(site.healthy, "both servers healthy")
                again = open_socket(
                    stack, "again", table["servers"][seat], table["path"], table["keys"][seat]
                )
                states[seat] = again.next_type("state")
                sockets[seat] = again
                seat, version, _ = _move(sockets, states, f"d{run}")
                took.append(_shown(sockets[1 - seat], version) - back)
    return took


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.faults", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument(
        "--faults", default="crash,redis-refusing,redis-silent,database-refusing,database-silent"
    )
    args = parser.parse_args()
    if postgres_and_redis() is None:
        raise SystemExit("needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    kinds = {
        "crash": lambda w: crash(w, args.runs),
        "redis-refusing": lambda w: redis_cut(w, args.runs, "refusing"),
        "redis-silent": lambda w: redis_cut(w, args.runs, "silent"),
        "database-refusing": lambda w: database_cut(w, args.runs, "refusing"),
        "database-silent": lambda w: database_cut(w, args.runs, "silent"),
    }
    results: dict[str, Any] = {"started_at": datetime.now(UTC).isoformat(timespec="seconds")}
    print(f"{'fault':<20} {'runs':>5} {'median s':>9} {'max s':>7}")
    for name in args.faults.split(","):
        with tempfile.TemporaryDirectory(prefix=f"bench_{name}_") as workdir:
            took = kinds[name](Path(workdir))
        results[name] = {
            "runs": len(took),
            "median_s": round(statistics.median(took), 2),
            "max_s": round(max(took), 2),
            "each_s": [round(t, 2) for t in took],
        }
        print(
            f"{name:<20} {len(took):>5} {results[name]['median_s']:>9} {results[name]['max_s']:>7}"
        )
    out = ROOT / "bench" / "results" / f"faults-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    print(f"JSON: {out}")


if __name__ == "__main__":
    main()
