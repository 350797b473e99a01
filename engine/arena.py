"""Bots against bots: seeded games with seats swapped, in parallel processes.

Game ``i`` of a series uses the deal seed ``seed + i // 2``; the even game
puts the first bot in seat 0, the odd game puts it in seat 1 on the same
deal, so neither bot profits from a lucky deal. Each game runs in a worker
process (``concurrent.futures.ProcessPoolExecutor``) when ``jobs > 1``;
results do not depend on ``jobs``.

>>> r = play_game(GameSpec(0, ("greedy", "random"), 5, {"payoff_size": 3}))
>>> r.winner in (None, "greedy", "random"), r.plies > 0
(True, True)
>>> wilson(45, 50)[0] > 0.78
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TextIO

from engine.bots import bot
from engine.game import Game
from engine.moves import HAND_TO_SIDE
from engine.rules import Rules


@dataclass(frozen=True)
class GameSpec:
    """One game to play: its index in the series, the two bot names (first, second),
    the base deal seed, the rule knobs and the bots' options."""

    index: int
    bots: tuple[str, str]
    seed: int
    rules: dict[str, Any] = field(default_factory=dict)
    options: tuple[dict[str, Any], dict[str, Any]] = ({}, {})


@dataclass(frozen=True)
class GameResult:
    """How one game went, by bot name (``winner`` None for a tie)."""

    index: int
    seats: tuple[str, str]
    winner: str | None
    winner_index: int | None  # 0: the first bot of the spec, 1: the second
    points: int
    plies: int
    turns: int
    seconds: float


def play_game(spec: GameSpec) -> GameResult:
    """Play one game of the series to its end."""
    first_seat = spec.index % 2  # the seat of the spec's first bot
    deal = spec.seed + spec.index // 2
    rules = Rules(**spec.rules)
    game = Game.new(seed=deal, rules=rules)
    players: list[Any] = [None, None]
    for k in (0, 1):
        seat = first_seat if k == 0 else 1 - first_seat
        players[seat] = bot(spec.bots[k], spec.index * 2 + k, **spec.options[k])
    seats = (
        spec.bots[0] if first_seat == 0 else spec.bots[1],
        spec.bots[1] if first_seat == 0 else spec.bots[0],
    )
    start = time.perf_counter()
    turns = 1
    while game.outcome is None:
        p = game.to_move
        move = players[p].choose(game, p)
        game.play(move)
        if move.kind == HAND_TO_SIDE:
            turns += 1
    outcome = game.outcome
    winner_index = None
    if outcome.winner is not None:
        winner_index = 0 if outcome.winner == first_seat else 1
    return GameResult(
        index=spec.index,
        seats=seats,
        winner=None if winner_index is None else spec.bots[winner_index],
        winner_index=winner_index,
        points=outcome.points,
        plies=game.ply,
        turns=turns,
        seconds=time.perf_counter() - start,
    )


def run_games(specs: Sequence[GameSpec], jobs: int = 1) -> Iterator[GameResult]:
    """Play the games, yielding results as they finish (in parallel when ``jobs > 1``)."""
    if jobs <= 1:
        for spec in specs:
            yield play_game(spec)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_game, specs, chunksize=1)


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Tally:
    """Totals over a series, from the first bot's side."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    plies: int = 0
    turns: int = 0
    points: list[int] = field(default_factory=lambda: [0, 0])
    seconds: float = 0.0

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.plies += r.plies
        self.turns += r.turns
        self.seconds += r.seconds
        if r.winner_index is None:
            self.ties += 1
        else:
            self.points[r.winner_index] += r.points
            if r.winner_index == 0:
                self.wins += 1
            else:
                self.losses += 1

    @property
    def decided(self) -> int:
        return self.wins + self.losses


def progress(out: TextIO, done: int, total: int, started: float) -> None:
    """A plain-text progress bar, redrawn in place."""
    width = 30
    filled = width * done // max(total, 1)
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    out.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games"
        f"  {elapsed:6.1f}s elapsed, ~{eta:.0f}s left"
    )
    if done == total:
        out.write("\n")
    out.flush()


def series(
    bots: tuple[str, str],
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    rules: dict[str, Any] | None = None,
    options: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
    on_result: Callable[[int, GameResult], None] | None = None,
) -> Tally:
    """Play ``games`` games between two bots (seats swapped in pairs) and tally them."""
    specs = [GameSpec(i, bots, seed, dict(rules or {}), options) for i in range(games)]
    tally = Tally()
    for done, result in enumerate(run_games(specs, jobs), 1):
        tally.add(result)
        if on_result is not None:
            on_result(done, result)
    return tally
