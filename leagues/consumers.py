"""The ranked queue's socket, ``/ws/leagues/<slug>/queue/`` (docs/protocol.md, "The ranked
queue socket"). Connecting is joining the league's queue; closing is leaving it. While it
waits, the socket keeps its place fresh, re-reads the count and tries to pair every
``LEAGUES_QUEUE_TICK`` seconds, so a lost doorbell, a dead process or the channel layer away
costs one tick (a tick also joins the queue's group again once the layer is back).

Thin: the services decide (``queue_join``, ``queue_pair``, ``queue_refresh``, ``queue_leave``);
it only carries their frames. The plumbing is the site's socket base (``core.sockets.
JsonSocket``): error frames, close codes, the groups it leaves on closing, and the throttle and
decoding of what a client sends. The socket takes no messages from the client: anything sent
is answered with ``bad_message`` (or ``throttled``, past the site's rate).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.errors import NOT_FOUND, UNAUTHENTICATED, GameError
from core.sockets import (
    CLOSE_NOT_FOUND,
    CLOSE_UNAUTHENTICATED,
    JsonSocket,
    SignedOut,
    bad_message,
)
from leagues import services
from leagues.broadcast import queue_group
from leagues.models import League

logger = logging.getLogger(__name__)

#: Close code after a ``forbidden`` refusal (not an active member, or waiting elsewhere).
CLOSE_FORBIDDEN = 4403


class QueueConsumer(JsonSocket):
    league: League
    since: datetime

    async def connect(self) -> None:
        self.waiter: asyncio.Task[None] | None = None
        self.joined = False
        self.paired = False
        self.sent: tuple[int, int] | None = None
        await self.accept()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self._refuse(
                GameError(UNAUTHENTICATED, _("Log in to play ranked matches.")),
                CLOSE_UNAUTHENTICATED,
            )
            return
        self.user = user
        slug = str(self.scope["url_route"]["kwargs"]["slug"])
        try:
            self.league = await database_sync_to_async(services.league_get)(slug=slug)
        except GameError as exc:
            await self._refuse(exc, CLOSE_NOT_FOUND)
            return
        await self.join(queue_group(self.league.pk))  # before joining the queue
        await self.join_credentials()  # signed out while waiting: out of the queue
        try:
            entry = await database_sync_to_async(services.queue_join)(
                league=self.league, user=user, channel=self.channel_name
            )
        except GameError as exc:
            await self._refuse(exc, CLOSE_NOT_FOUND if exc.code == NOT_FOUND else CLOSE_FORBIDDEN)
            return
        self.joined = True
        self.since = entry.joined_at
        waiting = await database_sync_to_async(services.queue_waiting)(league_id=self.league.pk)
        await self.send_json(
            {
                "type": "queued",
                "league": self.league.slug,
                "rating": round(entry.rating_at_join),
                "joined_at": entry.joined_at.isoformat(),
                **self._counts(waiting),
            }
        )
        self.waiter = asyncio.get_running_loop().create_task(self._wait())

    async def _refuse(self, exc: GameError, code: int) -> None:
        await self.send_error(exc)
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.waiter is not None:
            self.waiter.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.waiter
            self.waiter = None
        try:
            if self.joined:  # paired: the entry is gone already, and this changes nothing
                await database_sync_to_async(services.queue_leave)(
                    league_id=self.league.pk, user=self.user, channel=self.channel_name
                )
        finally:
            self.joined = False
            await super().disconnect(code)  # leaves the queue's group

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        """A message that passed the base's throttle and decoding: there are none to take."""
        await self.send_error(
            bad_message(_("The queue socket takes no messages: close it to leave the queue."))
        )

    # --- waiting

    def _window(self) -> int:
        waited = (timezone.now() - self.since).total_seconds()
        return round(services.queue_window().at(waited))

    def _counts(self, waiting: int) -> dict[str, int]:
        window = self._window()
        self.sent = (waiting, window)
        return {"waiting": waiting, "window": window}

    async def _send_counts(self, waiting: int) -> None:
        if self.paired or self.sent == (waiting, self._window()):
            return
        await self.send_json({"type": "queue", **self._counts(waiting)})

    async def _wait(self) -> None:
        """Until paired: try to pair, keep the place fresh, send the count when it changed;
        join the queue's group again if the channel layer was away when the socket joined."""
        while not self.paired:
            await self.rejoin()
            try:  # pairing starts matches: only while this player is still signed in
                await self.act(services.queue_pair, league=self.league)
                status = await database_sync_to_async(services.queue_refresh)(
                    league=self.league, user=self.user, channel=self.channel_name, since=self.since
                )
            except SignedOut as exc:  # its disconnect leaves the queue
                await self.signed_out(exc)
                return
            except GameError as exc:  # e.g. banned while waiting: out of the queue
                self.joined = False
                await self._refuse(exc, CLOSE_FORBIDDEN)
                return
            except Exception:
                logger.exception("queue tick failed in league %s", self.league.slug)
            else:
                if status.paired is not None:
                    await self._paired(status.paired)
                    return
                await self._send_counts(status.waiting)
            await asyncio.sleep(float(settings.LEAGUES_QUEUE_TICK))

    async def _paired(self, frame: dict[str, Any]) -> None:
        if self.paired:
            return
        self.paired = True
        await self.send_json(frame)

    # --- server -> client (channel layer)

    async def queue_changed(self, event: dict[str, Any]) -> None:
        await self._send_counts(int(event["waiting"]))

    async def queue_paired(self, event: dict[str, Any]) -> None:
        frame = event["frames"].get(str(self.user.pk))
        if frame is not None:
            await self._paired(frame)
