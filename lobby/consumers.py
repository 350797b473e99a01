"""The per-user socket, ``/ws/me/`` (docs/protocol.md, "The per-user socket"): a logged-in
player's notices on whatever page they are — challenges received and answered, a match that
starts — and, for a page that asks, the open seeks as they change.

Thin: it checks the shape of what arrives, calls one service or selector, and forwards
frames. Every socket of a user joins ``user-<id>``; a page that lists seeks also joins the
lobby's group after sending ``watch_seeks``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from games.errors import BAD_MESSAGE, THROTTLED, UNAUTHENTICATED, GameError
from lobby import selectors, services
from lobby.broadcast import lobby_group, user_group

#: Close code for an anonymous connection (4000 to 4999 are the application's own).
CLOSE_UNAUTHENTICATED = 4401


def _bad(message: str) -> GameError:
    return GameError(BAD_MESSAGE, message)


def _an_id(content: dict[str, Any], what: str) -> int:
    value = content.get("id")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise _bad(f"Say which {what}: send its id, a positive integer.")
    return value


class NotificationConsumer(AsyncJsonWebsocketConsumer):
    user_id: int

    async def connect(self) -> None:
        self.groups_joined: list[str] = []
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.send_json(
                GameError(UNAUTHENTICATED, "Log in to receive notifications.").to_frame()
            )
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.user_id = user.pk
        burst, period = settings.GAMES_WS_THROTTLE
        self.burst, self.rate = float(burst), float(burst) / float(period)
        self.tokens, self.stamp = self.burst, time.monotonic()
        await self._join(user_group(self.user_id))  # joined before reading: nothing slips by
        await database_sync_to_async(services.lobby_expire)()
        await self._send_challenges()

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        self.groups_joined = []

    async def _join(self, group: str) -> None:
        if group not in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)

    # --- client -> server

    def _throttle_wait(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            wait = self._throttle_wait()
            if wait:
                raise GameError(
                    THROTTLED,
                    "Too many messages: wait a moment.",
                    params={"retry_after": round(wait, 1)},
                )
            if text_data is None:
                raise _bad("Send JSON text frames.")
            if len(text_data) > settings.GAMES_WS_MAX_MESSAGE:
                raise _bad("That message is too long.")
            try:
                content = json.loads(text_data)
            except ValueError:
                raise _bad("That message is not JSON.") from None
            if not isinstance(content, dict):
                raise _bad("A message is a JSON object with a type.")
            kind = content.get("type")
            handler = {
                "challenge_answer": self._on_challenge_answer,
                "seek_take": self._on_seek_take,
                "watch_seeks": self._on_watch_seeks,
                "sync": self._on_sync,
            }.get(kind if isinstance(kind, str) else "")
            if handler is None:
                raise _bad(
                    'Unknown message type: use "challenge_answer", "seek_take", '
                    '"watch_seeks" or "sync".'
                )
            await handler(content)
        except GameError as exc:
            await self.send_json(exc.to_frame())

    async def _on_challenge_answer(self, content: dict[str, Any]) -> None:
        challenge_id = _an_id(content, "challenge")
        accept = content.get("accept")
        if not isinstance(accept, bool):
            raise _bad('Answer with "accept": true or false.')
        service = services.challenge_accept if accept else services.challenge_decline
        # The answer's frames (challenge_accepted, or the declined challenge) come back
        # through this user's group once the change is committed, to every tab alike.
        await database_sync_to_async(service)(challenge_id=challenge_id, user=self.user)

    async def _on_seek_take(self, content: dict[str, Any]) -> None:
        seek_id = _an_id(content, "seek")
        await database_sync_to_async(services.seek_take)(seek_id=seek_id, user=self.user)

    async def _on_watch_seeks(self, content: dict[str, Any]) -> None:
        await self._join(lobby_group())
        await self._send_seeks()

    async def _on_sync(self, content: dict[str, Any]) -> None:
        await self._send_challenges()
        if lobby_group() in self.groups_joined:
            await self._send_seeks()

    async def _send_challenges(self) -> None:
        frame = await database_sync_to_async(selectors.challenges_frame)(user=self.user)
        await self.send_json(frame)

    async def _send_seeks(self) -> None:
        frame = await database_sync_to_async(selectors.seeks_frame)(user=self.user)
        await self.send_json(frame)

    # --- server -> client (channel layer)

    async def user_frames(self, event: dict[str, Any]) -> None:
        """Frames for this user, built when the change was committed: forwarded as they are."""
        for frame in event["frames"]:
            await self.send_json(frame)

    async def seeks_changed(self, event: dict[str, Any]) -> None:
        """The open seeks changed: read the list this user may see, and send it."""
        await self._send_seeks()
