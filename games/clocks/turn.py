"""Time for the turn clock and the disconnect grace (docs/games.md, "Clocks and abandonment"),
and the Watch list's "now" (``games.selectors.live``).

``now()`` is the one time source of all three: every deadline is set and checked with it, so a
test replaces it (``monkeypatch.setattr(games.clocks.turn, "now", ...)``) and moves time on without
sleeping. Call it as ``clock.now()``, never import the name.

Only ranked matches of a league with ``turn_time_limit > 0`` have a turn clock, and only a seat
held by a person (a bot account counts as a person; an engine bot has no clock). The helpers
here read and write model instances inside the caller's transaction; they import no service.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils import timezone


def now() -> datetime:
    """The current time (aware). Tests replace this function."""
    return timezone.now()


def max_timeouts() -> int:
    """Timeouts in a row that forfeit the match."""
    return int(settings.GAMES_CLOCK_MAX_TIMEOUTS)


def turn_limit(match: Any) -> int:
    """Seconds a turn of ``match`` may take, or 0 when it has no clock (casual, no league,
    or a league whose limit is 0)."""
    if not match.ranked or match.league_id is None:
        return 0
    return int(match.league.turn_time_limit or 0)


def disconnect_grace(match: Any) -> int:
    """Seconds a disconnected person of ``match`` is waited for, or 0 (casual, or none)."""
    if not match.ranked or match.league_id is None:
        return 0
    return int(match.league.disconnect_grace or 0)


def has_clock(match: Any, seat: int) -> bool:
    """Whether ``seat`` of ``match`` plays against the clock: a ranked match with a limit, and
    a person (or a bot account) in the seat."""
    return turn_limit(match) > 0 and not match.is_bot(seat)


def turn_deadline_for(match: Any, seat: int, at: datetime | None = None) -> datetime | None:
    """When a turn of ``seat`` starting ``at`` (default: now) must be over, or None."""
    if not has_clock(match, seat):
        return None
    return (at or now()) + timedelta(seconds=turn_limit(match))


def timeouts_of(match: Any, seat: int) -> int:
    return int(match.timeouts0 if seat == 0 else match.timeouts1)


def timeouts_set(match: Any, seat: int, value: int) -> None:
    setattr(match, f"timeouts{seat}", value)
    match.save(update_fields=[f"timeouts{seat}", "updated_at"])


def after_move(game: Any, *, acting: int, timed_out: bool = False) -> None:
    """Keep ``game``'s clock right after ``acting`` played a move (the caller saves ``game``).

    A turn that passes to the other seat starts its clock; a game that is over has none. The
    acting seat's timeouts in a row grow by one when the server played for it
    (``timed_out``) and go back to 0 when the seat ended a turn (or the game) itself.
    """
    match = game.match
    turn_over = not game.is_active or game.to_move != acting
    if timed_out:
        timeouts_set(match, acting, timeouts_of(match, acting) + 1)
    elif turn_over and timeouts_of(match, acting):
        timeouts_set(match, acting, 0)
    if not game.is_active:
        game.turn_deadline = None
    elif turn_over:
        game.turn_deadline = turn_deadline_for(match, game.to_move)


def iso(moment: datetime | None) -> str | None:
    """A time as the frames carry it: ISO 8601 with its offset, or None."""
    return moment.isoformat() if moment is not None else None
