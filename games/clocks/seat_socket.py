"""What a player's socket on a ranked table does for the clock and the disconnect grace
(docs/games.md, "Clocks and abandonment"); mixed into ``games.consumers.GameConsumer``.

On connect the socket counts its seat as at the table (``presence_join``: the other sockets
hear ``presence`` if the seat was away), then runs a timer while open: it refreshes the
socket's presence row every ``GAMES_PRESENCE_REFRESH`` seconds and wakes when the turn's
deadline or an absent opponent's grace falls due, to enforce it at once
(``match_clock_enforce``) rather than at the sweeper's next pass. Every player socket of the
match does this; the checks under the game's row lock let only one act. On disconnect the
timer stops and the seat is counted as gone unless another of its sockets is open.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from channels.db import database_sync_to_async

from games.clocks import turn as clock
from games.clocks.attendance import presence_join, presence_leave, presence_touch
from games.clocks.presence import presence_refresh
from games.clocks.timeouts import match_clock_enforce

logger = logging.getLogger(__name__)

#: The shortest nap of the timer (seconds), so a deadline the lock check finds not yet due is
#: not asked about in a busy loop.
MIN_WAIT = 0.5
#: How long after a deadline the timer wakes, so the server's clock has surely passed it.
SLACK = 0.25


class SeatClockMixin:
    """Presence and clock of a player socket; needs ``game_id``, ``match_id``, ``seat`` and
    ``channel_name`` set by the consumer."""

    game_id: int
    match_id: int | None
    seat: int | None
    channel_name: str

    async def seat_present(self) -> None:
        """Count this socket at the table and start its timer (a player of a ranked match)."""
        if self.seat is None or self.match_id is None:
            return
        await database_sync_to_async(presence_join)(
            game_id=self.game_id, match_id=self.match_id, seat=self.seat, channel=self.channel_name
        )
        self._seat_present = True
        self._seat_timer = asyncio.get_running_loop().create_task(self._seat_clock_loop())

    async def seat_absent(self) -> None:
        """Stop the timer and count this socket gone (on disconnect)."""
        timer = getattr(self, "_seat_timer", None)
        if timer is not None:
            timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timer
            self._seat_timer = None
        if getattr(self, "_seat_present", False):
            self._seat_present = False
            await database_sync_to_async(presence_leave)(
                game_id=self.game_id, channel=self.channel_name
            )

    async def _seat_clock_loop(self) -> None:
        refresh = presence_refresh()
        while True:
            wait = refresh
            try:
                done = await database_sync_to_async(match_clock_enforce)(game_id=self.game_id)
                if done.next_due is not None:
                    until = (done.next_due - clock.now()).total_seconds() + SLACK
                    wait = min(refresh, max(MIN_WAIT, until))
            except Exception:  # the timer must outlive a failed check; the sweeper backs it up
                logger.exception("clock check of game %s failed", self.game_id)
            await asyncio.sleep(wait)
            if self.seat is None or self.match_id is None:
                return
            try:
                await database_sync_to_async(presence_touch)(
                    game_id=self.game_id,
                    match_id=self.match_id,
                    seat=self.seat,
                    channel=self.channel_name,
                )
            except Exception:
                logger.exception("presence refresh of game %s failed", self.game_id)
