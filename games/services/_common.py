"""What every game service shares: the locked read of a game, who acts, the result of a move."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from core.errors import FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, GameError
from games.models import SEATS, Match
from games.services.store import GameRow, row_lock

RESIGN_SCOPES = ("game", "match")


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What a played move produced. ``replayed`` is True when the client move id had been
    seen before: nothing was applied, and this is the earlier move's result."""

    game_id: int
    version: int
    ply: int
    seat: int
    move: str
    replayed: bool
    #: The mover's own frames of this version (the same its group event carries), for the
    #: socket that sent the move to answer at once instead of through the channel layer.
    frames: tuple[dict[str, Any], ...] = ()


def game_lock(game_id: int) -> GameRow:
    """The game, its match and the log's tail, locked until the transaction ends
    (``games.services.store.row_lock``); GameError not_found if there is no such game."""
    row = row_lock(game_id)
    if row is None:
        raise GameError(NOT_FOUND, _("There is no such game."))
    return row


def acting_seat(match: Match, *, user: Any, bot: bool = False, seat: int | None = None) -> int:
    """The seat that acts: a bot's given seat, or the seat the user holds."""
    if bot:
        if seat not in SEATS or not match.is_bot(seat):
            raise GameError(FORBIDDEN, _("No bot sits in that seat."))
        return seat
    if user is None or not getattr(user, "is_authenticated", False):
        raise GameError(UNAUTHENTICATED, _("Log in to play; anyone may watch."))
    held = match.seat_of(user)
    if held is None:
        raise GameError(FORBIDDEN, _("You are watching this game: only its players may act."))
    return held


def opponent_phrase(match: Match, seat: int) -> str:
    name = match.seat_name(seat)
    return f"the {name}" if match.is_bot(seat) else name
