"""Helpers for the games tests."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import pytest
from django.db import connections

import engine
from core.errors import GameError
from games.models import Game, Match

#: Small knobs, so whole matches take a few hundred moves (ARCHITECTURE.md).
SMALL = engine.Rules(payoff_size=5, match_target=10)


def seed_where(first_player: int, rules: engine.Rules = SMALL, start: int = 1) -> int:
    """The smallest seed from ``start`` whose deal lets ``first_player`` start (RULES.md)
    with at least two plays to a center stack open."""
    for seed in itertools.count(start):
        game = engine.Game.new(seed=seed, rules=rules)
        center = [m for m in game.legal_moves() if "-c" in m.text]
        if game.to_move == first_player and len(center) >= 2:
            return seed
    raise AssertionError("unreachable")


def seed_where_the_bot_hands_over(
    bot_seat: int, rules: engine.Rules = SMALL, level: str = "greedy", bot_seed: int = 4242
) -> int:
    """The smallest seed whose deal, with ``bot_seat`` to start, leaves the game on after the
    bot's first turn (with small knobs a bot may empty its pay-off pile in that turn)."""
    from games.bots import bot_choose

    for seed in itertools.count(1):
        game = engine.Game.new(seed=seed, rules=rules, first_player=bot_seat)
        while not game.is_over and game.to_move == bot_seat:
            game.play(bot_choose(level, bot_seed, game.to_dict(), bot_seat))
        if not game.is_over:
            return seed
    raise AssertionError("unreachable")


def current_game(match: Match) -> Game:
    return Game.objects.select_related("match").filter(match=match).order_by("-number").first()


def legal(game: Game, seat: int) -> list[str]:
    return engine.Game.from_dict(game.state).view(seat)["legal_moves"]


def a_center_move(game: Game, seat: int = 0) -> str | None:
    return next((m for m in legal(game, seat) if "-c" in m), None)


def a_side_move(game: Game, seat: int = 0) -> str:
    """A legal move that ends the turn (a hand card onto a side stack)."""
    return next(m for m in legal(game, seat) if m.startswith("h:") and "-s" in m)


def _reveals(before: engine.Game, after: engine.Game, seat: int) -> bool:
    from games.selectors.actions import _reveals as reveals

    return reveals(before.view(seat), after.view(seat), seat)


def center_line(
    pattern: list[bool], rules: engine.Rules = SMALL, first_player: int = 0
) -> tuple[int, list[str]]:
    """A seed whose deal lets ``first_player`` start, and center plays for its first turn
    whose "shows a new card" flags (a refill, a new pay-off top) are exactly ``pattern``."""

    def search(game: engine.Game, todo: list[bool]) -> list[str] | None:
        if not todo:
            return []
        for move in game.legal_moves():
            if "-c" not in move.text:
                continue
            after = game.copy()
            after.play(move)
            if after.is_over or _reveals(game, after, first_player) != todo[0]:
                continue
            rest = search(after, todo[1:])
            if rest is not None:
                return [move.text, *rest]
        return None

    for seed in itertools.count(1):
        game = engine.Game.new(seed=seed, rules=rules)
        if game.to_move != first_player:
            continue
        line = search(game, pattern)
        if line is not None:
            return seed, line
    raise AssertionError("unreachable")


def at_once(
    game_id: int,
    user: Any,
    moves: list[tuple[str, str]],
    *,
    version: int = 0,
    door: tuple[Any, str] | None = None,
) -> list[Any]:
    """Play each ``(move, move id)`` at ``version`` for ``user``, each in its own thread (its
    own database connection), released together; each MoveResult or GameError.

    Every thread waits at ``door`` — ``(owner, name)`` of a function on the move's path,
    default the service's row lock, inside its transaction — until all are there."""
    from games import services

    owner, name = door or (services.play, "game_lock")
    start = threading.Barrier(len(moves))
    results: list[Any] = [None] * len(moves)
    real = getattr(owner, name)

    def run(index: int, move: str, move_id: str) -> None:
        try:
            results[index] = services.game_play_move(
                game_id=game_id, user=user, move=move, version=version, move_id=move_id
            )
        except GameError as exc:
            results[index] = exc
        finally:
            connections.close_all()  # this thread's connection

    def together(*args: Any, **kwargs: Any) -> Any:
        start.wait(timeout=10)
        return real(*args, **kwargs)

    patch = pytest.MonkeyPatch()
    patch.setattr(owner, name, together)
    try:
        threads = [
            threading.Thread(target=run, args=(index, *pair)) for index, pair in enumerate(moves)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        patch.undo()
    return results


def bot_turn_play(game: Game) -> int:
    """Play the bot's moves in ``game`` now, in this thread, while a bot is to move (what its
    jobs do once a test's transaction commits; in tests where nothing commits). How many."""
    from games.bots import bot_move

    played = 0
    while bot_move(game.pk, Game.objects.get(pk=game.pk).version):
        played += 1
    return played
