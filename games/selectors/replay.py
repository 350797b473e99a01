"""Replays: a game rebuilt from its seed and its Move log, and the replay page's frames.

``game_replay`` deals the game again and applies its rows in ply order (an undo row takes back
the moves it names); for every game it equals the stored state. ``game_replay_frames`` walks
the same rows for the replay page, both hands face up since the game is over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import engine
from games.models import SEATS, Game, Move


@dataclass(frozen=True, slots=True)
class LogRow:
    """One row of a game's Move log, as the replay reads it."""

    ply: int
    seat: int
    kind: str
    text: str
    undoes: int


def game_log(game: Game) -> list[LogRow]:
    """Every Move row of ``game`` in ply order: moves and undo rows."""
    rows = Move.objects.filter(game_id=game.pk).order_by("ply")
    return [LogRow(*r) for r in rows.values_list("ply", "seat", "kind", "text", "undoes")]


def deal(game: Game) -> engine.Game:
    """``game``'s deal: the engine game before its first move."""
    rules = engine.Rules.from_dict(game.match.rules)
    return engine.Game.new(seed=game.seed, rules=rules, first_player=game.first_player)


def _in_force_after(in_force: list[LogRow], row: LogRow) -> list[LogRow]:
    """The moves in force once ``row`` is applied to ``in_force``: an undo row drops the last
    ``undoes`` of them, a move row adds itself."""
    if row.kind != Move.Kind.UNDO:
        return [*in_force, row]
    if not 0 < row.undoes <= len(in_force):
        raise ValueError(f"undo row {row.ply} takes back {row.undoes} of {len(in_force)} moves")
    return in_force[: len(in_force) - row.undoes]


def _replay_rows(
    game: Game, rows: list[LogRow], on_row: Callable[[LogRow, engine.Game], None] | None = None
) -> tuple[engine.Game, list[LogRow]]:
    """Deal ``game`` and apply ``rows``; return the engine game and the moves in force.

    A move row is played; an undo row restores the position before the moves it takes back by
    dealing again and replaying the moves still in force (undo is rare, replay is cheap), so
    the restored position is exact, shuffler included. ``on_row`` sees each row and the game
    after it.
    """
    replayed = deal(game)
    in_force: list[LogRow] = []
    for row in rows:
        in_force = _in_force_after(in_force, row)
        if row.kind == Move.Kind.UNDO:
            replayed = deal(game)
            for kept in in_force:
                replayed.play(kept.text)
        else:
            replayed.play(row.text)
        if on_row is not None:
            on_row(row, replayed)
    return replayed, in_force


def in_force_rows(game: Game) -> list[LogRow]:
    """The log rows of ``game``'s moves still in force (those an undo took back left out), in
    order: played from ``deal(game)`` they give the stored state."""
    return _replay_rows(game, game_log(game))[1]


def moves_in_force(game: Game) -> list[str]:
    """The texts of ``in_force_rows``."""
    return [row.text for row in in_force_rows(game)]


def game_replay(game: Game) -> engine.Game:
    """The game rebuilt from its seed, rules, first player and Move rows, in ply order (an
    undo row takes back the moves it names).

    For every game this equals the stored state (a test checks it after every test that uses
    the database); the replay page steps through the same rows (``game_replay_frames``).
    """
    return _replay_rows(game, game_log(game))[0]


def _board(replayed: engine.Game) -> dict[str, Any]:
    """The whole table after the game: both hands (it is over), pay-off piles as top and count,
    the stock only as a count."""
    board = replayed.view(None)
    for seat in SEATS:
        board["players"][seat]["hand"] = replayed.view(seat)["players"][seat]["hand"]
    for key in ("seat", "legal_moves", "rules"):
        board.pop(key, None)
    return board


def game_replay_frames(game: Game) -> list[dict[str, Any]]:
    """One frame per row of the log, after the deal's: ``len(rows) + 1`` frames. Each holds
    the board after that row and the row itself (``ply``, ``seat``, ``kind``, ``move``, and
    ``undoes`` for an undo row); the first frame is the deal (``kind`` "deal"). Only for games
    that are over: the boards show both hands."""
    frames: list[dict[str, Any]] = []
    dealt = deal(game)
    frames.append(
        {"index": 0, "ply": None, "seat": None, "kind": "deal", "move": "", "board": _board(dealt)}
    )

    def record(row: LogRow, replayed: engine.Game) -> None:
        frame: dict[str, Any] = {
            "index": len(frames),
            "ply": row.ply,
            "seat": row.seat,
            "kind": row.kind,
            "move": row.text,
            "board": _board(replayed),
        }
        if row.kind == Move.Kind.UNDO:
            frame["undoes"] = row.undoes
        frames.append(frame)

    _replay_rows(game, game_log(game), record)
    return frames
