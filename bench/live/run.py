"""bench/live: live tables under load, beside the floors of the same server (docs/performance.md).

    .venv/bin/python -m bench.live --config embedded --players 8 --duration 20
    .venv/bin/python -m bench.live --config pg1 --players 400 --rate 0.5 --duration 60
    .venv/bin/python -m bench.live --config pg2 --players 100 --capacity
    .venv/bin/python -m bench.live --config pg2 --players 200 --bot-tables 50

It starts the site on a fresh database of its own (embedded: a SQLite file and the in-memory
layer, one process; pg1/pg2: a new PostgreSQL database beside DATABASE_URL's and Redis at
REDIS_URL under key prefixes of its own, 1 or 2 processes) and a job worker beside the servers
(``manage.py qcluster``: the bots' moves), creates the players with API tokens through a Django
script, opens ``--players``/2 tables between people (each on its own two sockets, on different
processes where there are two) and ``--bot-tables`` against the expert bot, and plays moves
chosen from the mover's ``legal_moves`` at ``--rate`` moves per second per table (timing, at
bot tables, the bot's first move after the person's turn ends). Meanwhile two sockets ping the
echo floor and two the echo + commit floor every 0.5 s. It prints a table and writes a JSON
file; everything it started is stopped and deleted after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as bench/live/run.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.live import servers as srv
from bench.live.load import Figures, Load, Pool

TARGET_P99_MS = 50.0
# The socket's throttle: 30 messages per 10 s after a burst. A table's mover sends at most
# `rate` moves a second (plus a rare sync), so rates up to this need no lifting.
THROTTLE_SAFE_RATE = 2.5

MAKE_PLAYERS = """
import json, secrets
import engine
from accounts.models import User
from api.services import api_token_create
from games.services import match_create, match_create_between
rules = engine.Rules()
def person():
    user = User.objects.create_user(username='b' + secrets.token_hex(5), password=None)
    return user, api_token_create(user=user, name='bench')[1]
def human():
    (a, ka), (b, kb) = person(), person()
    match = match_create_between(user0=a, user1=b, rules=rules)
    return {{'game': match.games.get().pk, 'keys': [ka, kb]}}
def bot():
    a, ka = person()
    match = match_create(user=a, bot='expert', rules=rules)
    return {{'game': match.games.get().pk, 'key': ka}}
def finished():
    # a whole game of the greedy bot (a person's stand-in) against the expert: its end leaves
    # the expert's review of it waiting on the background queue (games/reviews.py)
    from games.bots import bot_move
    from games.services import game_play_move
    a, _ = person()
    game = match_create(user=a, bot='expert', rules=rules).games.get()
    me = engine.bot('greedy', game.pk % 1000)
    while True:
        game.refresh_from_db()
        if not game.is_active:
            return game.pk
        if game.to_move == 0:
            move = me.choose(engine.Game.from_dict(game.state), 0).text
            game_play_move(game_id=game.pk, user=a, move=move, version=game.version)
        else:
            bot_move(game.pk, game.version)
reviewed = [finished() for _ in range({reviews})]
print(json.dumps({{
    'reviewed': reviewed,
    'tables': [human() for _ in range({tables})],
    'bot_tables': [bot() for _ in range({bots})],
    'spare': [human() for _ in range({spare})],
    'spare_bot': [bot() for _ in range({spare_bots})],
}}))
"""


REVIEWS_DONE = """
import json
from games.models import Review
rows = Review.objects.filter(game_id__in={games})
print(json.dumps({{
    'games': len({games}),
    'done': rows.filter(status='done').count(),
    'turns_stored': sum(len(r.data.get('turns', [])) for r in rows),
    'cpu_seconds': round(sum(r.cpu_seconds for r in rows), 1),
}}))
"""


def percentiles(values: list[float]) -> dict[str, float | int]:
    if not values:
        return {"n": 0, "p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0}
    ms = sorted(1000 * v for v in values)

    def at(share: float) -> float:
        return round(ms[min(len(ms) - 1, round(share * (len(ms) - 1)))], 2)

    return {
        "n": len(ms),
        "p50": round(statistics.median(ms), 2),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ms[-1], 2),
    }


class Sampler:
    """Samples each server process's CPU and RSS every ``every`` seconds on a thread."""

    def __init__(self, pids: list[int], every: float) -> None:
        self.processes = [srv.ProcessSamples(pid) for pid in pids]
        self.every = every
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self.stop.is_set():
            for p in self.processes:
                p.sample()
            self.stop.wait(self.every)

    def mark(self) -> list[int]:
        for p in self.processes:
            p.sample()
        return [len(p.times) - 1 for p in self.processes]

    def report(self, since: list[int]) -> list[dict[str, Any]]:
        out = []
        for p, start in zip(self.processes, since, strict=True):
            p.sample()
            rss = p.rss[start:] or [0]
            out.append(
                {
                    "pid": p.pid,
                    "cpu_percent": round(p.cpu_percent(start), 1),
                    "rss_mb_max": round(max(rss) / 2**20, 1),
                    "rss_mb_last": round(rss[-1] / 2**20, 1),
                }
            )
        return out


def step_result(
    rate: float,
    duration: float,
    figures: Figures,
    moves: int,
    server: list[dict[str, Any]],
    client_cpu: float = 0.0,
    job_worker: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    rtt, echo, commit = (percentiles(v) for v in (figures.rtt, figures.echo, figures.commit))
    return {
        "rate": rate,
        "duration_s": round(duration, 1),
        "moves": moves,
        "moves_per_s": round(moves / duration, 1) if duration else 0.0,
        "rtt_ms": rtt,
        "opponent_ms": percentiles(figures.opponent),
        "first_move_rtt_ms": percentiles(figures.first_rtt),
        "bot_table_rtt_ms": percentiles(figures.bot_rtt),
        "bot_reply_ms": percentiles(figures.bot_reply),
        "floor_echo_ms": echo,
        "floor_commit_ms": commit,
        "rtt_p50_over_echo": round(rtt["p50"] / echo["p50"], 2) if echo["p50"] else None,
        "rtt_p50_over_commit": round(rtt["p50"] / commit["p50"], 2) if commit["p50"] else None,
        "errors": {
            "error_frames": dict(figures.error_frames),
            "closed": figures.closed,
            "failed_tables": figures.failed_tables,
            "timeouts": figures.timeouts,
        },
        "client_loop_lag_ms": percentiles(figures.loop_lag),
        "client_cpu_percent": client_cpu,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "games_finished": figures.games_finished,
        "tables_out_of_games": figures.out_of_games,
        "reconnects": figures.reconnects,
        "server": server,
        "job_worker": job_worker or [],
    }


def step_within_target(step: dict[str, Any]) -> bool:
    """p99 within target, no errors, moves played, and every table played to the end (a table
    out of spare games plays nothing more, which would flatter the step)."""
    return (
        step["rtt_ms"]["n"] > 0
        and step["rtt_ms"]["p99"] <= TARGET_P99_MS
        and not errors_total(step)
        and not step["tables_out_of_games"]
    )


def spare_games(args: argparse.Namespace, tables: int) -> int:
    """Games made ahead for tables whose game ends, for every step a run may play (or a whole
    soak): twice what the average game needs (about 60 people's moves with these random moves;
    300 games in the fifth round's soak took 18 180 moves)."""
    if args.soak:
        moves_per_table = args.rate * args.soak * 60
    else:
        steps = args.max_steps if args.capacity else 1
        moves_per_table = sum(args.rate * 2**i * args.duration for i in range(steps))
    return max(2, tables // 2, math.ceil(tables * moves_per_table / 30))


def errors_total(step: dict[str, Any]) -> int:
    e = step["errors"]
    return sum(e["error_frames"].values()) + e["closed"] + e["timeouts"] + e["failed_tables"]


def print_step(step: dict[str, Any]) -> None:
    def row(name: str, p: dict[str, Any]) -> None:
        print(
            f"  {name:<22} {p['n']:>7} {p['p50']:>8.1f} {p['p95']:>8.1f} {p['p99']:>8.1f}"
            f" {p['max']:>8.1f}"
        )

    print(
        f"rate {step['rate']} move/s per table: {step['moves']} moves in {step['duration_s']} s"
        f" = {step['moves_per_s']} moves/s"
    )
    print(f"  {'ms':<22} {'n':>7} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}")
    row("move round trip", step["rtt_ms"])
    row("to the opponent", step["opponent_ms"])
    row("a socket's first move", step["first_move_rtt_ms"])
    if step["bot_table_rtt_ms"]["n"]:
        row("move at a bot table", step["bot_table_rtt_ms"])
        row("bot's first move", step["bot_reply_ms"])
    row("floor: echo", step["floor_echo_ms"])
    row("floor: echo + commit", step["floor_commit_ms"])
    print(
        f"  move p50 = {step['rtt_p50_over_echo']}x echo, {step['rtt_p50_over_commit']}x"
        f" echo+commit; move p99 {step['rtt_ms']['p99']} ms, the echo+commit floor's"
        f" {step['floor_commit_ms']['p99']} ms; errors {step['errors']}; games finished"
        f" {step['games_finished']}"
        + (
            f"; {step['tables_out_of_games']} tables stopped, out of spare games (not a valid step)"
            if step["tables_out_of_games"]
            else ""
        )
    )
    lag = step["client_loop_lag_ms"]
    print(
        f"  client: CPU {step['client_cpu_percent']}%, own loop late p50 {lag['p50']} ms, p99"
        f" {lag['p99']} ms (late = the client is the bottleneck); load average"
        f" {step['load_average']}"
    )
    processes = [("server", s) for s in step["server"]]
    processes += [("job worker", s) for s in step.get("job_worker", [])]
    for role, s in processes:
        print(
            f"  {role} pid {s['pid']}: CPU {s['cpu_percent']}%, RSS max {s['rss_mb_max']} MB,"
            f" last {s['rss_mb_last']} MB"
        )


@contextlib.contextmanager
def backing(config: str, logdir: Path, prefix: str) -> Any:
    """Yields (database_url, redis_url) fresh for this run; removed after."""
    if config == "embedded":
        try:
            yield f"sqlite:///{logdir / 'bench.sqlite3'}", ""
        finally:
            for path in logdir.glob("bench.sqlite3*"):
                path.unlink()
        return
    database_url = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    if not database_url.startswith(("postgres://", "postgresql://")):
        raise SystemExit(f"--config {config} needs DATABASE_URL=postgres://…")
    with srv.fresh_database(database_url) as db, srv.redis_prefix_named(redis_url, prefix):
        yield db, redis_url


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.live", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--config", choices=["embedded", "pg1", "pg2"], default="embedded")
    parser.add_argument("--server", choices=["daphne", "uvicorn"], default="daphne")
    parser.add_argument(
        "--processes",
        type=int,
        help="server processes (pg configurations; default 1 for pg1, 2 for pg2)",
    )
    parser.add_argument("--players", type=int, default=8, help="people at human tables (2 a table)")
    parser.add_argument("--bot-tables", type=int, default=0, help="tables against the expert bot")
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        help="finished games whose reviews a background job worker runs during the load",
    )
    parser.add_argument("--rate", type=float, default=0.5, help="moves per second per table")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds (per capacity step)")
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="double the rate step by step until p99 > 50 ms (or errors), or halve it until "
        "within if the first step is not; report the highest rate within target",
    )
    parser.add_argument("--max-steps", type=int, default=8, help="at most this many capacity steps")
    parser.add_argument(
        "--soak",
        type=float,
        metavar="MINUTES",
        help="play MINUTES, each table closing and reopening its sockets every 5 moves; sample "
        "RSS every 5 s and say whether it levels off",
    )
    parser.add_argument("--json", type=Path, help="default bench/results/<UTC time>.json")
    args = parser.parse_args(argv)
    return args


def _stop(signum: int, frame: Any) -> None:
    raise SystemExit(f"stopped by signal {signum}")  # the finally blocks clean up


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse(argv)
    signal.signal(signal.SIGTERM, _stop)  # servers stopped, database and Redis keys deleted
    tables = max(1, args.players // 2)
    duration = args.soak * 60 if args.soak else args.duration
    top_rate = args.rate * 2 ** (args.max_steps - 1) if args.capacity else args.rate
    lift = top_rate > THROTTLE_SAFE_RATE
    processes = 2 if args.config == "pg2" else 1
    if args.processes and args.config != "embedded":
        processes = args.processes
    prefix = f"bench{secrets.token_hex(4)}"
    logdir = srv.new_logdir(prefix)
    out = args.json or srv.ROOT / "bench" / "results" / f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=srv.ROOT, capture_output=True, text=True
    ).stdout.strip()
    result: dict[str, Any] = {
        "started_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": commit,
        "config": args.config,
        "server": args.server,
        "processes": processes,
        "players": tables * 2,
        "tables": tables,
        "bot_tables": args.bot_tables,
        "rate": args.rate,
        "duration_s": duration,
        "throttle_lifted": lift,
        "cpus": os.cpu_count(),
        "target_p99_ms": TARGET_P99_MS,
    }
    print(
        f"bench/live: {args.config}, {args.server} x{processes}, {tables} tables + "
        f"{args.bot_tables} bot tables"
        + f", {args.rate} move/s per table, {duration:.0f} s"
        + (" (socket throttle lifted: the rate needs it)" if lift else "")
        + f"; logs in {logdir}"
    )
    with backing(args.config, logdir, prefix) as (database_url, redis_url):
        env = srv.site_env(
            database_url=database_url,
            redis_url=redis_url,
            prefix=prefix,
            logdir=logdir,
            lift_throttle=lift,
        )
        srv.manage(env, "migrate", "--noinput")
        spare = spare_games(args, tables)
        made = json.loads(
            srv.shell(
                env,
                MAKE_PLAYERS.format(
                    tables=tables,
                    bots=args.bot_tables,
                    spare=spare,
                    spare_bots=max(1, args.bot_tables // 2) if args.bot_tables else 0,
                    reviews=args.reviews,
                ),
            )
        )
        pool = Pool(made["spare"], made["spare_bot"])
        background = 1 if args.reviews else 0
        with srv.servers(
            args.server, processes, env, logdir, background_workers=background
        ) as running:
            sampler = Sampler(running.pids + running.job_worker_pids, 5.0 if args.soak else 1.0)
            servers = len(running.pids)
            sampler.thread.start()
            try:
                steps = []
                rate = args.rate
                going_down: bool | None = None
                for _ in range(args.max_steps if args.capacity else 1):
                    mark = sampler.mark()
                    load = Load(
                        urls=running.urls,
                        tables=made["tables"],
                        bot_tables=made["bot_tables"],
                        pool=pool,
                        rate=rate,
                        reconnect_every=5 if args.soak else 0,
                    )
                    started, cpu = time.perf_counter(), time.process_time()
                    figures = asyncio.run(load.run(duration))
                    elapsed = time.perf_counter() - started
                    client_cpu = round(100 * (time.process_time() - cpu) / elapsed, 1)
                    sampled = sampler.report(mark)
                    step = step_result(
                        rate,
                        min(elapsed, duration),
                        figures,
                        load.moves,
                        sampled[:servers],
                        client_cpu,
                        job_worker=sampled[servers:],
                    )
                    print_step(step)
                    steps.append(step)
                    within = step_within_target(step)
                    if args.capacity and step["tables_out_of_games"]:
                        print("  capacity: the tables ran out of spare games; stopping here")
                        break
                    # Capacity: double the rate while within target; if the first step is not,
                    # halve it until one is.
                    if going_down is None:
                        going_down = not within
                    if within == going_down:
                        break
                    rate = rate / 2 if going_down else rate * 2
                result["steps"] = steps
                if args.capacity:
                    good = [s for s in steps if step_within_target(s)]
                    best = max(good, key=lambda s: s["rate"]) if good else None
                    result["capacity"] = {
                        "highest_rate_within_target": best["rate"] if best else None,
                        "moves_per_s": best["moves_per_s"] if best else None,
                        "most_moves_per_s_seen": max(s["moves_per_s"] for s in steps),
                    }
                    print(f"capacity: {result['capacity']}")
                if args.soak:
                    result["soak"] = soak_report(sampler)
                    print(f"soak: {result['soak']}")
            finally:
                sampler.stop.set()
            if args.reviews:
                result["reviews"] = json.loads(
                    srv.shell(env, REVIEWS_DONE.format(games=made["reviewed"]))
                )
                print(f"reviews during the load: {result['reviews']}")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"JSON: {out}")
    return result


def soak_report(sampler: Sampler) -> dict[str, Any]:
    """RSS over the run per process, and whether it levelled off: the last third's peak at
    most 5 % above the middle third's."""
    out = []
    for p in sampler.processes:
        mb = [r / 2**20 for r in p.rss]
        third = max(1, len(mb) // 3)
        middle, last = max(mb[third : 2 * third] or mb), max(mb[2 * third :] or mb)
        out.append(
            {
                "pid": p.pid,
                "rss_mb_first": round(mb[0], 1),
                "rss_mb_middle_peak": round(middle, 1),
                "rss_mb_last_peak": round(last, 1),
                "levelled_off": last <= middle * 1.05,
                "samples_mb": [round(m, 1) for m in mb],
            }
        )
    return {"processes": out}


if __name__ == "__main__":
    main()
