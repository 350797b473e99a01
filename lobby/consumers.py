"""The per-user socket, ``/ws/me/`` (docs/protocol.md, "The per-user socket"): a logged-in
player's notices on whatever page they are — challenges received and answered, a match or
game that starts, your turn in a game — and, for a page that asks, the open seeks as they
change. Programs open it with an API token: it is their event stream.

Thin: it checks the shape of what arrives, calls one service or selector, and forwards
frames. Every socket of a user joins ``user-<id>``; a page that lists seeks also joins the
lobby's group after sending ``watch_seeks``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from channels.db import database_sync_to_async
from django.utils.translation import gettext_lazy as _

from core.errors import UNAUTHENTICATED, GameError
from core.sockets import CLOSE_UNAUTHENTICATED, JsonSocket, bad_message
from games.sending.players import games_frame
from lobby import selectors, services
from lobby.broadcast import lobby_group, user_group

_SAY_WHICH = {
    "challenge": _("Say which challenge: send its id, a positive integer."),
    "seek": _("Say which seek: send its id, a positive integer."),
}


def _an_id(content: dict[str, Any], what: str) -> int:
    value = content.get("id")
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise bad_message(_SAY_WHICH[what])
    return value


class NotificationConsumer(JsonSocket):
    handlers: ClassVar[dict[str, str]] = {
        "challenge_answer": "_on_challenge_answer",
        "seek_take": "_on_seek_take",
        "watch_seeks": "_on_watch_seeks",
        "sync": "_on_sync",
    }
    user_id: int

    async def connect(self) -> None:
        user = self.scope.get("user")
        await self.accept()
        if user is None or not user.is_authenticated:
            await self.send_error(GameError(UNAUTHENTICATED, _("Log in to receive notifications.")))
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.user_id = user.pk
        await self.join(user_group(self.user_id))  # joined before reading: nothing slips by
        await database_sync_to_async(services.lobby_expire)()
        await self._send_challenges()
        await self._send_games()

    # --- client -> server

    async def _on_challenge_answer(self, content: dict[str, Any]) -> None:
        challenge_id = _an_id(content, "challenge")
        accept = content.get("accept")
        if not isinstance(accept, bool):
            raise bad_message(_('Answer with "accept": true or false.'))
        service = services.challenge_accept if accept else services.challenge_decline
        # The answer's frames (challenge_accepted, or the declined challenge) come back
        # through this user's group once the change is committed, to every tab alike.
        await database_sync_to_async(service)(challenge_id=challenge_id, user=self.user)

    async def _on_seek_take(self, content: dict[str, Any]) -> None:
        seek_id = _an_id(content, "seek")
        await database_sync_to_async(services.seek_take)(seek_id=seek_id, user=self.user)

    async def _on_watch_seeks(self, content: dict[str, Any]) -> None:
        await self.join(lobby_group())
        await self._send_seeks()

    async def _on_sync(self, content: dict[str, Any]) -> None:
        await self._send_challenges()
        await self._send_games()
        if lobby_group() in self.joined_groups:
            await self._send_seeks()

    async def _send_challenges(self) -> None:
        frame = await database_sync_to_async(selectors.challenges_frame)(user=self.user)
        await self.send_json(frame)

    async def _send_games(self) -> None:
        frame = await database_sync_to_async(games_frame)(user=self.user)
        await self.send_json(frame)

    async def _send_seeks(self) -> None:
        frame = await database_sync_to_async(selectors.seeks_frame)(user=self.user)
        await self.send_json(frame)

    # --- server -> client (channel layer)

    async def user_frames(self, event: dict[str, Any]) -> None:
        """Frames for this user, built when the change was committed (in the language of
        whoever made it): forwarded as they are, a challenge's summary said again in this
        socket's language (from the frame itself: no query)."""
        for frame in event["frames"]:
            if frame.get("type") == "challenge" and isinstance(frame.get("rules"), dict):
                league = frame.get("league")
                name = league.get("name") if isinstance(league, dict) else None
                frame = {**frame, "summary": selectors.challenge_summary(frame["rules"], name)}
            await self.send_json(frame)

    async def seeks_changed(self, event: dict[str, Any]) -> None:
        """The open seeks changed: read the list this user may see, and send it."""
        await self._send_seeks()
