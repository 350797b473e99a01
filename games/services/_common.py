"""What every game service shares: the row lock, who acts, the log's next row, broadcasts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

import engine
from core.errors import FORBIDDEN, NOT_FOUND, UNAUTHENTICATED, GameError
from games import services
from games.models import SEATS, Game, Match, Move
from games.selectors import game_event_frames, log_tail
from games.sending import players as notify
from games.services._rows import RowWrites, game_row_lock, move_row_insert, prefetched_log_tail

RESIGN_SCOPES = ("game", "match")
MAX_MOVE_ID = 64
#: Where ``game_lock`` notes the seat to move when the row was locked (``broadcast_on_commit``
#: compares it with the seat to move after the change, to tell whether the turn passed).
_TO_MOVE_AT_LOCK = "_to_move_at_lock"


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


def game_lock(game_id: int, *, log_tail: bool = False) -> Game:
    """The game row and its match row, locked until the transaction ends (seated users are
    read along, not locked: PostgreSQL locks no nullable side of an outer join). The query is
    written out once (``games.services._rows``): compiling it was most of its cost. With
    ``log_tail``, the log's latest rows come in the same round trip, for ``log_append``."""
    game = game_row_lock(game_id, log_tail=log_tail)
    if game is None:
        raise GameError(NOT_FOUND, _("There is no such game."))
    note_turn(game)
    return game


def note_turn(game: Game) -> None:
    """Note the seat to move before a change, for ``broadcast_on_commit`` to tell whether the
    change passed the turn."""
    setattr(game, _TO_MOVE_AT_LOCK, game.to_move)


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


def log_append(
    game: Game,
    *,
    seat: int,
    text: str,
    kind: str = Move.Kind.MOVE,
    undoes: int = 0,
    client_move_id: str = "",
    writes: RowWrites | None = None,
) -> list[dict[str, Any]]:
    """Add a row to the game's log, produced at ``game.version`` (bump it first), at the next
    ply: rows are numbered 0, 1, … whatever they are, so after an undo the ply runs ahead of the
    engine's (which counts moves in force). Returns the log's latest rows (``log_tail``) ending
    with the new one: one read numbers the row and feeds the frames, the one ``game_lock`` made
    if asked to (else a query now). The row is queued on ``writes`` if given, else written now.
    """
    tail = prefetched_log_tail(game)
    if tail is None:
        tail = log_tail(game.pk)
    ply = tail[-1]["ply"] + 1 if tail else 0
    move_row_insert(
        writes=writes,
        game_id=game.pk,
        ply=ply,
        seat=seat,
        kind=kind,
        text=text,
        undoes=undoes,
        client_move_id=client_move_id,
        version=game.version,
    )
    tail.append({"ply": ply, "seat": seat, "kind": kind, "text": text, "undoes": undoes})
    return tail


def broadcast_on_commit(
    game: Game,
    *,
    game_ended: bool = False,
    match_ended: bool = False,
    engine_game: engine.Game | None = None,
    log: list[dict[str, Any]] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Build every viewer's frames now (inside the transaction: they show exactly this
    version) and send them once the transaction commits; and when the change handed the turn
    to a person, their ``your_turn`` on the per-user socket
    (``games.sending.players``). A service passes
    the engine's game and the log rows it holds (``log_append``) to spare a parse and a query.
    Returns the frames by viewer key (``games.sending.groups.viewer_key``)."""
    frames = game_event_frames(
        game, game_ended=game_ended, match_ended=match_ended, engine_game=engine_game, log=log
    )
    transaction.on_commit(
        partial(_send_event, game_id=game.pk, version=game.version, frames=frames)
    )
    turn = notify.turn_passed_frames(game, to_move_before=getattr(game, _TO_MOVE_AT_LOCK, None))
    if turn:
        user_frames_on_commit(turn)
    return frames


def user_frames_on_commit(frames: dict[int, list[dict[str, Any]]]) -> None:
    """Send each user (by id) their frames on the per-user socket once the transaction
    commits."""
    transaction.on_commit(partial(_send_user_frames, frames))


def _send_user_frames(frames: dict[int, list[dict[str, Any]]]) -> None:
    notify.user_frames_send(frames)  # looked up now: tests patch it


def _send_event(**kwargs: Any) -> None:
    services.game_event_send(**kwargs)  # looked up now: the package's patch point


def notice_on_commit(game_id: int, frame: dict[str, Any]) -> None:
    """Send ``frame`` to every socket on ``game_id`` once the transaction commits."""
    transaction.on_commit(partial(_send_notice, game_id=game_id, frame=frame))


def _send_notice(**kwargs: Any) -> None:
    services.game_notice_send(**kwargs)
