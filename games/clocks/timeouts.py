"""The turn clock and abandonment: a turn whose time ran out, a match forfeited (docs/games.md,
"Clocks and abandonment").

- ``turn_timeout``: the seat to move let its turn's deadline pass. The server ends the turn
  for it with the least harmful discard (the greedy bot's discard: never a King when another
  card will do, onto a stack it does not bury) — a move like any other, through
  ``game_play_move`` — and counts a timeout. The ``GAMES_CLOCK_MAX_TIMEOUTS``-th (3) in a row
  forfeits the match instead (end reason ``timeout``).
- ``disconnect_forfeit``: a person away from the match's tables longer than the league's grace,
  while the opponent is there, forfeits it (end reason ``abandoned``).
- ``match_clock_enforce`` does both for one match; ``deadlines_enforce`` for every match that
  is due (the sweeper's job, and ``manage.py sweep``).

A forfeit ends the game in play (0 points, the forfeiter's opponent its winner) and the match
(the opponent wins it) through ``_match_finish``: a ranked match is rated and a tournament's
pairing takes the result, as for any finished match. Every check is made again under the
game's row lock, so sweepers in several processes and the sockets' own timers may race: one
acts, the others find nothing due.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

import engine
from core.errors import GameError
from engine.bots.greedy import best_discard
from games.clocks import turn as clock
from games.clocks.presence import abandoned_seat, match_presence
from games.models import Game, Match, SeatPresence
from games.services._common import game_lock
from games.services.play import _game_finish, game_end_write, game_play_move
from games.services.store import GameRow

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TimeoutResult:
    """A turn ended by the clock: the seat, its timeouts in a row now, the discard played for
    it (None when this timeout forfeited the match instead)."""

    game_id: int
    seat: int
    timeouts: int
    move: str | None
    forfeited: bool


def timeout_move(state: dict[str, object]) -> str:
    """The discard the server plays for a seat out of time: the greedy bot's discard for the
    player to move (a discard is always legal: the player to move holds a card)."""
    return best_discard(engine.Game.from_dict(state)).text


def _match_forfeit(row: GameRow, *, seat: int, reason: str) -> None:
    """``seat`` forfeits the match of ``row``'s game (locked): the game ends with 0 points for the
    opponent, the match for the opponent; rated and reported like any finished match."""
    game = row.game
    game.version += 1
    _game_finish(game, winner=1 - seat, points=0, reason=reason, match_reason=reason)
    game.turn_deadline = None
    game_end_write(row, match_ended=True)


def turn_timeout(*, game_id: int, now: datetime | None = None) -> TimeoutResult | None:
    """End the turn in ``game_id`` if its deadline has passed at ``now``; None if nothing was
    due (no deadline, not yet, the game or match over)."""
    now = now or clock.now()
    with transaction.atomic():
        row = game_lock(game_id)
        game, match = row.game, row.match
        deadline = game.turn_deadline
        if deadline is None or deadline > now:
            return None
        if not game.is_active or match.status != Match.Status.ACTIVE:
            return None
        seat = game.to_move
        if not clock.has_clock(match, seat):  # the league dropped its limit meanwhile
            game.turn_deadline = None
            game.save(update_fields=["turn_deadline"])
            return None
        count = clock.timeouts_of(match, seat) + 1
        if count >= clock.max_timeouts():
            clock.timeouts_set(match, seat, count)
            _match_forfeit(row, seat=seat, reason=Match.EndReason.TIMEOUT)
            return TimeoutResult(game.pk, seat, count, None, True)
        move = timeout_move(game.state)
        # No move id: a player's own ids could otherwise shadow the server's (the deadline,
        # checked again under the lock, is what keeps a timeout from being played twice).
        game_play_move(
            game_id=game.pk,
            move=move,
            version=game.version,
            user=match.user_at(seat),
            timed_out=True,
        )
    return TimeoutResult(game_id, seat, count, move, False)


def disconnect_forfeit(*, match_id: int, now: datetime | None = None) -> int | None:
    """Forfeit ``match_id`` for the seat away longer than the grace (docs/games.md); returns
    that seat, or None when no seat is due."""
    now = now or clock.now()
    game_id = (
        Game.objects.filter(match_id=match_id).order_by("-number").values_list("pk", flat=True)
    ).first()
    if game_id is None:
        return None
    with transaction.atomic():
        row = game_lock(game_id)
        game, match = row.game, row.match
        if not game.is_active or match.status != Match.Status.ACTIVE:
            return None
        seat = abandoned_seat(match_presence(match, now=now), now)
        if seat is None:
            return None
        _match_forfeit(row, seat=seat, reason=Match.EndReason.ABANDONED)
    return seat


@dataclass
class Enforced:
    """What one enforcement did, and when something may next fall due in the match."""

    timeouts: list[TimeoutResult]
    forfeits: list[int]  # match ids forfeited for a player's absence
    next_due: datetime | None = None


def _current_game(match_id: int) -> Game | None:
    return (
        Game.objects.select_related("match__league", "match__user0", "match__user1")
        .filter(match_id=match_id)
        .order_by("-number")
        .first()
    )


def match_clock_enforce(*, game_id: int, now: datetime | None = None) -> Enforced:
    """The clock and the grace of game ``game_id``'s match (whichever of its games is in
    play) at ``now``: end an overdue turn, forfeit for an absence; and say when the next turn
    deadline or grace falls due (a player socket's timer sleeps until then)."""
    now = now or clock.now()
    done = Enforced([], [])
    match_id = Game.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return done
    game = _current_game(match_id)
    if game is not None and game.turn_deadline is not None and game.turn_deadline <= now:
        result = turn_timeout(game_id=game.pk, now=now)
        if result is not None:
            done.timeouts.append(result)
    game = _current_game(match_id)
    # Read without a lock first: the row is locked only when something is due.
    if game is not None and abandoned_seat(match_presence(game.match, now=now), now) is not None:
        if disconnect_forfeit(match_id=match_id, now=now) is not None:
            done.forfeits.append(match_id)
        game = _current_game(match_id)
    if game is not None and game.is_active and game.match.status == Match.Status.ACTIVE:
        due = [s.grace_ends_at for s in match_presence(game.match, now=now) if s.grace_ends_at]
        if game.turn_deadline is not None:
            due.append(game.turn_deadline)
        due = [moment for moment in due if moment > now]  # past and not acted on: not ours
        done.next_due = min(due) if due else None
    return done


def deadlines_enforce(*, now: datetime | None = None) -> dict[str, list[int]]:
    """Every overdue turn ends (``turn_timeout``) and every ranked match whose absent player's
    grace ran out is forfeited (``disconnect_forfeit``). Returns the ids of the games whose
    turn timed out and of the matches forfeited for an absence. One failure is logged and the
    rest go on."""
    now = now or clock.now()
    timed_out: list[int] = []
    forfeited: list[int] = []
    overdue = (
        Game.objects.filter(
            status=Game.Status.ACTIVE, match__status=Match.Status.ACTIVE, turn_deadline__lte=now
        )
        .order_by("turn_deadline", "pk")
        .values_list("pk", flat=True)
    )
    for game_id in list(overdue):
        try:
            if turn_timeout(game_id=game_id, now=now) is not None:
                timed_out.append(game_id)
        except GameError as exc:  # e.g. a game deleted meanwhile
            logger.warning("timeout of game %s refused: %s", game_id, exc)
        except Exception:
            logger.exception("timeout of game %s failed", game_id)
    graced = list(
        Match.objects.filter(
            status=Match.Status.ACTIVE, ranked=True, league__disconnect_grace__gt=0
        ).select_related("league", "user0", "user1")
    )
    rows: dict[int, list[SeatPresence]] = {m.pk: [] for m in graced}
    for row in SeatPresence.objects.filter(match_id__in=list(rows)):
        rows[row.match_id].append(row)
    for match in graced:
        if abandoned_seat(match_presence(match, now=now, rows=rows[match.pk]), now) is None:
            continue
        try:
            if disconnect_forfeit(match_id=match.pk, now=now) is not None:
                forfeited.append(match.pk)
        except Exception:
            logger.exception("abandonment check of match %s failed", match.pk)
    return {"timeouts": timed_out, "forfeits": forfeited}
