"""Who of a match's players is at the table, and how long an absent one is waited for.

A seat is **connected** while one of its sockets (on any game of the match) has a
``SeatPresence`` row that is open and was seen within ``GAMES_PRESENCE_TTL`` seconds. An absent
seat is **away since** the last time one of its sockets was seen (closed or gone stale), or the
match's start if none was ever open. In a ranked match of a league with ``disconnect_grace > 0``
an away person (not a bot account: programs may play through the REST API without a socket)
forfeits the match once the grace has run out (``grace_ends_at``) — if the opponent was there
when it ran out (connected, an engine bot or a bot account, or gone only later). See
docs/games.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings

from games.clocks import turn as clock
from games.models import SEATS, Match, SeatPresence


def presence_ttl() -> float:
    """Seconds after which an open socket's row not refreshed stops counting."""
    return float(settings.GAMES_PRESENCE_TTL)


def presence_refresh() -> float:
    """Seconds between an open player socket's refreshes of its row."""
    return float(settings.GAMES_PRESENCE_REFRESH)


@dataclass(frozen=True, slots=True)
class SeatState:
    """One seat's presence: ``away_since`` when not connected; ``grace_ends_at`` when the
    disconnect grace applies to it now (a ranked, active match; a person away)."""

    seat: int
    connected: bool
    away_since: datetime | None
    grace_ends_at: datetime | None
    stays: bool  # an engine bot or a bot account: never forfeits for being away

    def to_dict(self) -> dict[str, Any]:
        return {"connected": self.connected, "grace_ends_at": clock.iso(self.grace_ends_at)}


def _stays(match: Match, seat: int) -> bool:
    return match.is_bot(seat) or bool(getattr(match.user_at(seat), "is_bot", False))


def match_presence(
    match: Match, *, now: datetime | None = None, rows: Iterable[Any] | None = None
) -> list[SeatState]:
    """Each seat's presence in ``match`` at ``now`` (``rows``: its SeatPresence rows, when
    already read)."""
    now = now or clock.now()
    if rows is None:
        rows = SeatPresence.objects.filter(match_id=match.pk)
    rows = list(rows)
    oldest = now - timedelta(seconds=presence_ttl())
    grace = clock.disconnect_grace(match) if match.status == Match.Status.ACTIVE else 0
    states = []
    for seat in SEATS:
        stays = _stays(match, seat)
        if match.is_bot(seat):
            states.append(SeatState(seat, True, None, None, True))
            continue
        mine = [r for r in rows if r.seat == seat]
        if any(r.open and r.seen_at > oldest for r in mine):
            states.append(SeatState(seat, True, None, None, stays))
            continue
        since = max([r.seen_at for r in mine] + [match.created_at])
        ends = since + timedelta(seconds=grace) if grace > 0 and not stays else None
        states.append(SeatState(seat, False, since, ends, stays))
    return states


def abandoned_seat(states: list[SeatState], now: datetime) -> int | None:
    """The seat that forfeits for being away: its grace ran out while its opponent was there
    (connected now, a bot that stays, or gone only after that grace ended — so the outcome does
    not depend on when the check runs). None if no seat did: both left within each other's
    grace, and the first to come back (or the turn clock) decides."""
    for state in states:
        other = states[1 - state.seat]
        ends = state.grace_ends_at
        if ends is None or now < ends:
            continue
        if other.connected or other.stays or (other.away_since or now) > ends:
            return state.seat
    return None


def presence_frame(state: SeatState, now: datetime | None = None) -> dict[str, Any]:
    """The ``presence`` frame of docs/protocol.md for one seat."""
    return {
        "type": "presence",
        "seat": state.seat,
        **state.to_dict(),
        "now": clock.iso(now or clock.now()),
    }
