"""The per-user socket, ``/ws/me/`` (docs/protocol.md, "The per-user socket"): a logged-in
player's notices on whatever page they are — challenges received and answered, a match or
game that starts, your turn in a game — and, for a page that asks, the open seeks as they
change. Programs open it with an API token: it is their event stream.

Thin: it checks the shape of what arrives, calls one service or selector, and forwards
frames. Every socket of a user joins ``user-<id>``; a page that lists seeks also joins the
lobby's group after sending ``watch_seeks``.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from core.convergence import Watch
from core.errors import UNAUTHENTICATED, GameError
from core.sockets import CLOSE_UNAUTHENTICATED, JsonSocket, bad_message
from games.sending.players import games_frame
from lobby import selectors, services
from lobby.broadcast import lobby_group, online_group, user_group
from lobby.online import PROCESS

#: This process's open per-user sockets, checked against the committed lists on a timer, which
#: also keeps this process's who-is-online rows (lobby/online.py).
USER_SOCKETS = Watch("user", selectors.user_lists, beat=PROCESS.beat)

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
        "watch_online": "_on_watch_online",
        "sync": "_on_sync",
    }
    user_id: int
    seen: selectors.UserLists  # the lists as this socket last showed them
    online_sent: dict[str, Any] | None  # the last ``online`` frame sent (once watching)
    online_read_at: float  # time.monotonic() of its read
    counted_online: bool  # PROCESS.join counted this socket in

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen = selectors.UserLists()
        self.online_sent = None
        self.online_read_at = 0.0
        self.counted_online = False

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
        await self.join_credentials()  # the user's rights may end while the socket is open
        await database_sync_to_async(services.lobby_expire)()
        # Read before the lists: a change in between makes the next check send them again.
        self.seen = (await database_sync_to_async(selectors.user_lists)([self.user_id]))[
            self.user_id
        ]
        await database_sync_to_async(PROCESS.join)(self.user_id)  # online, for every process
        self.counted_online = True
        await self._send_lists()
        USER_SOCKETS.add(self.user_id, self)

    async def disconnect(self, code: int) -> None:
        if self.counted_online:  # counted out before the watch lets go: its last beat sees it
            await database_sync_to_async(PROCESS.leave)(self.user_id)
            self.counted_online = False
        USER_SOCKETS.discard(getattr(self, "user_id", None), self)
        await super().disconnect(code)

    async def converge(self, committed: selectors.UserLists | None) -> None:
        """The convergence check read the user's lists: send them again when a game or a
        challenge came or went, or a turn came that no ``your_turn`` told this socket of (a
        turn that passed on, the player's own doing, changes nothing on this socket)."""
        await self.rejoin()  # the channel layer may be back
        if self.online_sent is not None and (
            time.monotonic() - self.online_read_at >= float(settings.LOBBY_ONLINE_REFRESH)
        ):
            await self._send_online()  # who is online, read again if a doorbell was lost
        if committed is None:
            return
        seen, self.seen = self.seen, committed
        if (
            committed.games != seen.games
            or committed.challenges != seen.challenges
            or not committed.turns <= seen.turns
        ):
            await self._send_lists()

    # --- client -> server

    async def _on_challenge_answer(self, content: dict[str, Any]) -> None:
        challenge_id = _an_id(content, "challenge")
        accept = content.get("accept")
        if not isinstance(accept, bool):
            raise bad_message(_('Answer with "accept": true or false.'))
        service = services.challenge_accept if accept else services.challenge_decline
        # The answer's frames (challenge_accepted, or the declined challenge) come back
        # through this user's group once the change is committed, to every tab alike.
        await self.act(service, challenge_id=challenge_id, user=self.user)

    async def _on_seek_take(self, content: dict[str, Any]) -> None:
        seek_id = _an_id(content, "seek")
        await self.act(services.seek_take, seek_id=seek_id, user=self.user)

    async def _on_watch_seeks(self, content: dict[str, Any]) -> None:
        await self.join(lobby_group())
        await self._send_seeks()

    async def _on_watch_online(self, content: dict[str, Any]) -> None:
        await self.join(online_group())
        await self._send_online(always=True)

    async def _on_sync(self, content: dict[str, Any]) -> None:
        await self._send_lists(checked=True)
        if lobby_group() in self.joined_groups:
            await self._send_seeks()
        if self.online_sent is not None:
            await self._send_online(always=True)

    async def _send_lists(self, *, checked: bool = False) -> None:
        """``challenges``, ``games``, then the start of each match of this user's that began
        lately (``selectors.matches_just_started``: a start this socket may have missed).
        ``checked``: asked by the client, so only while the user is still signed in."""
        if checked:
            frames = await self.act(self._lists)
        else:
            frames = await database_sync_to_async(self._lists)()
        for frame in frames:
            await self.send_json(frame)

    def _lists(self) -> list[dict[str, Any]]:
        return [
            selectors.challenges_frame(user=self.user),
            games_frame(user=self.user),
            *selectors.matches_just_started(user=self.user),
        ]

    async def _send_seeks(self) -> None:
        frame = await database_sync_to_async(selectors.seeks_frame)(user=self.user)
        await self.send_json(frame)

    async def _send_online(self, *, always: bool = False) -> None:
        """Send who this user sees online, unless it is what this socket last sent."""
        self.online_read_at = time.monotonic()
        frame = await database_sync_to_async(selectors.online_frame)(user=self.user)
        if always or frame != self.online_sent:
            await self.send_json(frame)
        self.online_sent = frame

    # --- server -> client (channel layer)

    async def user_frames(self, event: dict[str, Any]) -> None:
        """Frames for this user, built when the change was committed (in the language of
        whoever made it): forwarded as they are, a challenge's summary said again in this
        socket's language (from the frame itself: no query)."""
        for frame in event["frames"]:
            self._told(frame)
            if frame.get("type") == "challenge" and isinstance(frame.get("rules"), dict):
                league = frame.get("league")
                name = league.get("name") if isinstance(league, dict) else None
                frame = {**frame, "summary": selectors.challenge_summary(frame["rules"], name)}
            await self.send_json(frame)

    def _told(self, frame: dict[str, Any]) -> None:
        """What a frame forwarded told the client, so the next check need not say it again:
        a challenge that came or was answered, a match's new game, a turn that began."""
        kind = frame.get("type")
        if kind == "challenge":
            if frame.get("state") in ("received", "sent"):
                self.seen.challenges.add(frame.get("id"))
            else:
                self.seen.challenges.discard(frame.get("id"))
        elif kind == "challenge_accepted":
            self.seen.challenges.discard(frame.get("challenge"))
        elif kind == "game_started":
            games = self.seen.games
            for game in [g for g, match in games.items() if match == frame.get("match")]:
                del games[game]
            games[frame.get("game")] = frame.get("match")
        elif kind == "your_turn":
            self.seen.turns.add((frame.get("game"), frame.get("version")))

    async def seeks_changed(self, event: dict[str, Any]) -> None:
        """The open seeks changed: read the list this user may see, and send it."""
        await self._send_seeks()

    async def online_changed(self, event: dict[str, Any]) -> None:
        """Someone came online or left: read who this user sees, and send it if it changed."""
        if self.online_sent is not None:
            await self._send_online()
