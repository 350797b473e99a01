"""Writes about who of a match's players is at the table (``SeatPresence``, one row per open
player socket; the reads are ``games.clocks.presence``).

A player socket joins on connect, refreshes its row every ``GAMES_PRESENCE_REFRESH`` seconds
while open and leaves on disconnect; the sweeper closes rows a dead process left open
(``presence_expire``). Whenever a seat goes from absent to connected or back, every socket on the
match's game hears a ``presence`` frame (sent on commit). Join and leave lock the match row, so
two sockets of one seat coming and going at once agree on whether the seat is still there.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta

from django.db import transaction

from games.clocks import turn as clock
from games.clocks.presence import SeatState, match_presence, presence_frame, presence_ttl
from games.models import Game, Match, SeatPresence
from games.sending.changes import notice_on_commit


def _match_locked(match_id: int) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("user0", "user1", "league")
        .get(pk=match_id)
    )


def _announce(match: Match, state: SeatState, now: datetime, *, also: int | None = None) -> None:
    """Send the seat's ``presence`` frame to the match's current game (and to game ``also``,
    the socket's own, when that is an earlier game of the match) once committed."""
    frame = presence_frame(state, now)
    games = list(Game.objects.filter(match_id=match.pk).order_by("-number").values_list("pk")[:1])
    targets = {pk for (pk,) in games}
    if also is not None:
        targets.add(also)
    for game_id in sorted(targets):
        notice_on_commit(game_id, frame)


def presence_join(
    *, game_id: int, match_id: int, seat: int, channel: str, now: datetime | None = None
) -> bool:
    """The socket ``channel`` of ``seat`` opened on game ``game_id``. Returns whether the seat
    was absent until now (then a ``presence`` frame goes out)."""
    now = now or clock.now()
    with transaction.atomic():
        match = _match_locked(match_id)
        if match.status != Match.Status.ACTIVE:  # over: nobody keeps track any more
            return False
        was = match_presence(match, now=now)[seat].connected
        SeatPresence.objects.filter(match_id=match_id, seat=seat, open=False).delete()
        SeatPresence.objects.update_or_create(
            channel=channel,
            defaults={"match_id": match_id, "seat": seat, "open": True, "seen_at": now},
        )
        if not was:
            _announce(match, match_presence(match, now=now)[seat], now, also=game_id)
    return not was


def presence_touch(
    *, game_id: int, match_id: int, seat: int, channel: str, now: datetime | None = None
) -> None:
    """Refresh the open socket's row (joining again if the sweeper closed it meanwhile)."""
    now = now or clock.now()
    if not SeatPresence.objects.filter(channel=channel, open=True).update(seen_at=now):
        presence_join(game_id=game_id, match_id=match_id, seat=seat, channel=channel, now=now)


def presence_leave(*, game_id: int, channel: str, now: datetime | None = None) -> bool:
    """The socket ``channel`` closed. Returns whether its seat is now absent (then a
    ``presence`` frame goes out, with the grace's end when one applies)."""
    now = now or clock.now()
    with transaction.atomic():
        row = SeatPresence.objects.filter(channel=channel).first()
        if row is None:
            return False
        match = _match_locked(row.match_id)
        SeatPresence.objects.filter(match_id=match.pk, seat=row.seat, open=False).exclude(
            pk=row.pk
        ).delete()
        SeatPresence.objects.filter(pk=row.pk).update(open=False, seen_at=now)
        state = match_presence(match, now=now)[row.seat]
        if not state.connected and match.status == Match.Status.ACTIVE:
            _announce(match, state, now, also=game_id)
    return not state.connected


def presence_expire(*, now: datetime | None = None) -> list[tuple[int, int]]:
    """Close the rows of sockets not refreshed within ``GAMES_PRESENCE_TTL`` (their server
    process died), keeping each seat's latest; forget the rows of matches no longer active.
    Returns the (match, seat) pairs that became absent (each announced)."""
    now = now or clock.now()
    oldest = now - timedelta(seconds=presence_ttl())
    SeatPresence.objects.exclude(match__status=Match.Status.ACTIVE).delete()
    stale: dict[int, set[int]] = defaultdict(set)
    for match_id, seat in SeatPresence.objects.filter(open=True, seen_at__lte=oldest).values_list(
        "match_id", "seat"
    ):
        stale[match_id].add(seat)
    gone = []
    for match_id, seats in sorted(stale.items()):
        with transaction.atomic():
            match = _match_locked(match_id)
            for seat in sorted(seats):
                rows = SeatPresence.objects.filter(match_id=match_id, seat=seat)
                rows.filter(open=True, seen_at__lte=oldest).update(open=False)
                closed = list(rows.filter(open=False).order_by("-seen_at", "-pk"))
                SeatPresence.objects.filter(pk__in=[r.pk for r in closed[1:]]).delete()
                state = match_presence(match, now=now)[seat]
                if not state.connected:
                    _announce(match, state, now)
                    gone.append((match_id, seat))
    return gone
