"""The expert as a teacher, measured (docs/performance.md, "Hints and reviews").

    python -m bench.coach                      # the figures of the note (a few minutes)
    python -m bench.coach --hints 10 --games 1 --payoff-size 5   # a quick look

Three parts, each with the budgets the site uses (spite/settings.py: GAMES_HINT_WORLDS,
GAMES_HINT_STATES, GAMES_REVIEW_PLAYOUTS; given here as options):

- **hints**: ``engine.coach.hint`` from the view of the player to move, at positions of games
  between two greedy bots, a few plies into a turn or at its start: wall and CPU time, median
  and p95 (the target: a median of at most 300 ms).
- **reviews**: a whole game of the greedy bot (standing in for a person) against the expert,
  reviewed for the greedy seat as the site does (``engine.coach.review``): wall and CPU time per
  game (the target: a typical game within a minute of CPU on one core), decisions, accuracy.
- **estimates**: whether the estimate tells a good play from a bad one. On the fixed positions
  of ``engine.testing`` (the winning play against a discard; holding a card back against
  feeding the opponent's last pay-off card), each rollout policy's winning chances; and over
  positions where the expert and the greedy bot choose differently, how often the expert's move
  comes out ahead, and by how much on average.

Writes bench/results/coach-<UTC time>.json and prints a summary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine import Game, Move, Rules, bot, coach
from engine.testing import feeding_the_last_card, missed_win

ROOT = Path(__file__).resolve().parents[1]


def _quantiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {
        "n": len(ordered),
        "p50": round(1000 * statistics.median(ordered), 1),
        "p95": round(1000 * p95, 1),
        "max": round(1000 * ordered[-1], 1),
    }


def _positions(count: int, rules: Rules, seed: int) -> list[Game]:
    """Positions of greedy-against-greedy games: the player to move at the start of a turn or
    a few plays into it, spread over the games' length."""
    found: list[Game] = []
    n = 0
    while len(found) < count:
        game = Game.new(seed=seed + n, rules=rules)
        players = (bot("greedy", seed + n), bot("greedy", seed + n + 1))
        stop = 4 + (n * 7) % 120
        for _ in range(stop):
            if game.is_over:
                break
            game.play(players[game.to_move].choose(game, game.to_move))
        if not game.is_over and len(game.legal_moves()) > 1:
            found.append(game)
        n += 1
    return found


def bench_hints(count: int, rules: Rules, expert: dict[str, int]) -> dict[str, Any]:
    walls: list[float] = []
    cpus: list[float] = []
    for game in _positions(count, rules, 1000):
        view = game.view(game.to_move)
        wall, cpu = time.perf_counter(), time.process_time()
        coach.hint(view, **expert)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {"wall_ms": _quantiles(walls), "cpu_ms": _quantiles(cpus)}


def bench_reviews(
    games: int, rules: Rules, expert: dict[str, int], playouts: int
) -> dict[str, Any]:
    rows = []
    for n in range(games):
        game = Game.new(seed=2000 + n, rules=rules)
        start = game.copy()
        players = (bot("greedy", n), bot("expert", n))
        moves: list[Move] = []
        while not game.is_over:
            move = players[game.to_move].choose(game, game.to_move)
            moves.append(move)
            game.play(move)
        wall, cpu = time.perf_counter(), time.process_time()
        review = coach.review(start, moves, seats=(0,), playouts_per_turn=playouts, expert=expert)
        decisions = [d for t in review.turns for d in t.decisions]
        rows.append(
            {
                "plies": len(moves),
                "turns": len(review.turns),
                "decisions": len(decisions),
                "estimated": sum(1 for d in decisions if d.chances is not None),
                "marked": sum(1 for t in review.turns if t.mark),
                "accuracy": round(review.accuracy(0) or 0.0, 3),
                "wall_s": round(time.perf_counter() - wall, 2),
                "cpu_s": round(time.process_time() - cpu, 2),
            }
        )
    return {
        "games": rows,
        "cpu_s_median": statistics.median(r["cpu_s"] for r in rows),
        "cpu_s_max": max(r["cpu_s"] for r in rows),
    }


def bench_estimates(playouts: int, positions: int, expert: dict[str, int]) -> dict[str, Any]:
    fixed = {}
    for name, game, good, bad in (
        ("missed_win", missed_win(), "p-c1", "h:9S-s1"),
        ("feeding_the_last_card", feeding_the_last_card(), "h:9D-s1", "h:6S-c1"),
    ):
        view = game.view(0)
        lines = [[Move.parse(good)], [Move.parse(bad)]]
        fixed[name] = {
            policy: [
                round(c, 3) for c in coach.chances(view, lines, playouts=playouts, policy=policy)
            ]
            for policy in ("careful", "greedy", "random")
        }
    differ = []
    for game in _positions(positions * 4, Rules(payoff_size=10), 3000):
        seat = game.to_move
        view = game.view(seat)
        best = bot("expert", 0, **expert).choose(game, seat)
        greedy = bot("greedy", 0).choose(game, seat)
        if coach.same_effect(view, best, greedy):
            continue
        found = coach.compare(view, best, greedy, playouts=playouts)
        differ.append({"difference": found.difference, "error": found.error})
        if len(differ) >= positions:
            break
    ahead = sum(1 for d in differ if d["difference"] > 0)
    behind = sum(1 for d in differ if d["difference"] < 0)
    return {
        "fixed": fixed,
        "expert_vs_greedy": {
            "positions": len(differ),
            "expert_ahead": ahead,
            "greedy_ahead": behind,
            "mean_difference": round(statistics.mean(d["difference"] for d in differ), 3)
            if differ
            else None,
            "clear": sum(1 for d in differ if abs(d["difference"]) >= 2 * d["error"] > 0),
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.coach", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--hints", type=int, default=60, help="positions to hint at")
    parser.add_argument("--games", type=int, default=3, help="whole games to review")
    parser.add_argument("--payoff-size", type=int, default=10, help="the Standard preset's 10")
    parser.add_argument("--worlds", type=int, default=10, help="GAMES_HINT_WORLDS")
    parser.add_argument("--states", type=int, default=6000, help="GAMES_HINT_STATES")
    parser.add_argument("--playouts", type=int, default=128, help="GAMES_REVIEW_PLAYOUTS (a turn)")
    parser.add_argument("--estimates", type=int, default=30, help="expert/greedy positions")
    parser.add_argument("--json", type=Path, help="default bench/results/coach-<UTC time>.json")
    args = parser.parse_args(argv)
    rules = Rules(payoff_size=args.payoff_size)
    expert = {"samples": args.worlds, "budget": args.states}
    result: dict[str, Any] = {
        "settings": {
            "GAMES_HINT_WORLDS": args.worlds,
            "GAMES_HINT_STATES": args.states,
            "GAMES_REVIEW_PLAYOUTS": args.playouts,
            "payoff_size": args.payoff_size,
        },
        "hints": bench_hints(args.hints, rules, expert),
        "reviews": bench_reviews(args.games, rules, expert, args.playouts),
        "estimates": bench_estimates(min(64, args.playouts), args.estimates, expert),
    }
    out = args.json or ROOT / "bench" / "results" / f"coach-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    hints, reviews, estimates = result["hints"], result["reviews"], result["estimates"]
    print(f"settings: {result['settings']}")
    print(
        f"hint: wall p50 {hints['wall_ms']['p50']} ms, p95 {hints['wall_ms']['p95']} ms; "
        f"CPU p50 {hints['cpu_ms']['p50']} ms, p95 {hints['cpu_ms']['p95']} ms "
        f"({hints['wall_ms']['n']} positions)"
    )
    for row in reviews["games"]:
        print(
            f"review: {row['plies']} plies, {row['decisions']} decisions "
            f"({row['estimated']} estimated, {row['marked']} turns marked), accuracy "
            f"{row['accuracy']}: {row['cpu_s']} s CPU, {row['wall_s']} s wall"
        )
    print(f"estimates on fixed positions (good, bad) by rollout policy: {estimates['fixed']}")
    print(f"expert against greedy where they differ: {estimates['expert_vs_greedy']}")
    print(f"written to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
