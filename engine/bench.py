"""``python -m engine bench``: how fast the engine and its bots are (``make bench``).

Figures, all from fixed seeds so runs compare:

- random playouts per second: whole games of uniformly random legal moves
  on the fast path (``legal_moves`` + ``push_unchecked``), and the moves per
  second they make;
- greedy games per second: greedy against greedy through ``choose``;
- expert decision times: a fresh expert (empty plan cache) choosing in each
  of a fixed set of positions taken from seeded greedy-against-greedy
  games; median, 95th percentile and maximum.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any, TextIO

from engine.bots import bot
from engine.game import Game
from engine.rng import Rng


def random_playouts(games: int, seed: int = 0) -> tuple[float, float, int]:
    """(games per second, moves per second, moves) of random playouts."""
    plies = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(seed=seed + i)
        rng = Rng(seed + i)
        while game.outcome is None:
            moves = game.legal_moves()
            game.push_unchecked(moves[rng.below(len(moves))])
        plies += game.ply
    elapsed = time.perf_counter() - start
    return games / elapsed, plies / elapsed, plies


def greedy_games(games: int, seed: int = 0) -> tuple[float, float]:
    """(games per second, moves per second) of greedy against greedy."""
    plies = 0
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(seed=seed + i)
        players = [bot("greedy", 2 * i), bot("greedy", 2 * i + 1)]
        while game.outcome is None:
            p = game.to_move
            game.play(players[p].choose(game, p))
        plies += game.ply
    elapsed = time.perf_counter() - start
    return games / elapsed, plies / elapsed


def positions(count: int, seed: int = 1000, every: int = 7) -> list[Game]:
    """``count`` positions from seeded greedy-against-greedy games (every ``every``-th ply)."""
    out: list[Game] = []
    i = 0
    while len(out) < count:
        game = Game.new(seed=seed + i)
        players = [bot("greedy", 2 * i), bot("greedy", 2 * i + 1)]
        while game.outcome is None and len(out) < count:
            if game.ply % every == every - 1:
                out.append(game.copy())
            p = game.to_move
            game.play(players[p].choose(game, p))
        i += 1
    return out


def decision_times(games: list[Game], name: str = "expert", **options: Any) -> list[float]:
    """Seconds a fresh bot takes to choose in each position."""
    times = []
    for game in games:
        player = bot(name, 0, **options)
        start = time.perf_counter()
        player.choose(game, game.to_move)
        times.append(time.perf_counter() - start)
    return times


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * len(ordered) + 0.5) - 1))
    return ordered[k]


def run(out: TextIO, playouts: int = 200, greedy: int = 50, count: int = 200) -> None:
    """Print the figures."""
    out.write("engine bench (python -m engine bench)\n")
    g_s, m_s, plies = random_playouts(playouts)
    out.write(
        f"random playouts: {g_s:8.1f} games/s  {m_s:10.0f} moves/s "
        f"({playouts} games, {plies / playouts:.0f} moves each)\n"
    )
    gg_s, gm_s = greedy_games(greedy)
    out.write(f"greedy games:    {gg_s:8.1f} games/s  {gm_s:10.0f} moves/s ({greedy} games)\n")
    times = decision_times(positions(count))
    ms = [1000 * t for t in times]
    out.write(
        f"expert decision: median {statistics.median(ms):.1f} ms, "
        f"p95 {percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms "
        f"({count} positions from greedy games, seeds 1000+)\n"
    )


def add_bench(sub: Any) -> None:
    parser = sub.add_parser("bench", help="speed of the engine and the bots")
    parser.add_argument("--playouts", type=int, default=200, help="random playouts")
    parser.add_argument("--greedy", type=int, default=50, help="greedy games")
    parser.add_argument("--positions", type=int, default=200, help="expert positions")
    parser.set_defaults(run=_run_bench)


def _run_bench(args: argparse.Namespace, stdin: TextIO, out: TextIO) -> int:
    if min(args.playouts, args.greedy, args.positions) < 1:
        out.write("error: every count must be positive\n")
        return 2
    run(out, args.playouts, args.greedy, args.positions)
    return 0
