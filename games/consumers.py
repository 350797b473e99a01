"""The live table's socket, ``/ws/games/<id>/`` (docs/protocol.md). Thin: it checks the shape
of what arrives, calls one service or selector, and forwards frames. Players act; anyone may
watch. Each connection sends only its own viewer's frames."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, ClassVar

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from core.convergence import Watch
from core.errors import NOT_FOUND, STALE_VERSION, GameError
from core.sockets import CLOSE_NOT_FOUND, JsonSocket, SignedOut, bad_message
from games import hints, services, spectators, sweeper
from games.clocks.seat_socket import SeatClockMixin
from games.reasons import reason_text
from games.selectors import game_connect, game_versions
from games.sending.groups import GAME_NOTICE, game_group, viewer_key

#: Seconds between a waiting socket's looks for its hint in the database.
HINT_POLL = 0.2

#: This process's open game sockets, checked against the committed versions on a timer.
GAME_SOCKETS = Watch("game", game_versions)


class GameConsumer(SeatClockMixin, JsonSocket):
    handlers: ClassVar[dict[str, str]] = {
        "move": "_on_move",
        "undo": "_on_undo",
        "resign": "_on_resign",
        "abort": "_on_abort",
        "rematch": "_on_rematch",
        "hint": "_on_hint",
        "sync": "_resync",
    }
    game_id: int
    match_id: int | None
    seat: int | None
    last_version: int
    watching: bool
    refresher: asyncio.Task[None] | None

    async def connect(self) -> None:
        sweeper.start()  # no-op once running, or when disabled
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")
        self.seat = None
        self.match_id = None
        self.last_version = -1
        self.watching = False
        self.refresher = None
        self.spectators_sent: int | None = None
        self.hints_sent: set[int] = set()
        await self.accept()
        await self.join(game_group(self.game_id))  # before reading: no change slips between
        await self.join_credentials()  # a player's rights may end while the socket is open
        try:
            self.seat, frame = await database_sync_to_async(game_connect)(
                game_id=self.game_id, user=self.user
            )
        except GameError as exc:
            await self.send_error(exc)
            await self.close(code=CLOSE_NOT_FOUND if exc.code == NOT_FOUND else None)
            return
        self.match_id = frame["match"]["id"]
        if self.seat is None:  # a spectator: counted (with itself) before its first state
            frame["spectators"] = await self._watch()
        await self._send_state(frame)
        GAME_SOCKETS.add(self.game_id, self)
        if self.watching:
            await self._announce_spectators(frame["spectators"])
        if frame["match"]["ranked"] and frame["match"]["status"] == "active":
            await self.seat_present()  # a player at a ranked table: presence and clock

    async def disconnect(self, code: int) -> None:
        GAME_SOCKETS.discard(getattr(self, "game_id", None), self)
        await self.seat_absent()
        if getattr(self, "watching", False):
            await self._unwatch()
        await super().disconnect(code)

    # --- spectators

    async def _watch(self) -> int:
        count = await sync_to_async(spectators.spectator_join)(
            game_id=self.game_id, channel=self.channel_name
        )
        self.watching = True
        self.refresher = asyncio.get_running_loop().create_task(self._refresh())
        return count

    async def _unwatch(self) -> None:
        self.watching = False
        if self.refresher is not None:
            self.refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.refresher
            self.refresher = None
        count = await sync_to_async(spectators.spectator_leave)(
            game_id=self.game_id, channel=self.channel_name
        )
        await self._announce_spectators(count)

    async def _refresh(self) -> None:
        """Keep this spectator counted while the socket is open (docs/games.md)."""
        period = float(settings.GAMES_SPECTATORS_REFRESH)
        last = None
        while True:
            await asyncio.sleep(period)
            count = await sync_to_async(spectators.spectator_touch)(
                game_id=self.game_id, channel=self.channel_name
            )
            if last is not None and count != last:  # entries of a dead process expired
                await self._announce_spectators(count)
            last = count

    async def _announce_spectators(self, count: int) -> None:
        frame = {"type": "spectators", "count": count}
        await self.group_send(
            game_group(self.game_id),
            {"type": GAME_NOTICE, "frame": frame},
            what=f"the spectators of game {self.game_id}",
        )

    # --- client -> server

    async def refused(self, exc: GameError, content: dict[str, Any]) -> None:
        """Echo a move's id with its refusal; after ``stale_version`` send the current state."""
        move_id = content.get("id") if content.get("type") == "move" else None
        echo = move_id if isinstance(move_id, str) and len(move_id) <= 64 else None
        await self.send_error(exc, move_id=echo)
        if exc.code == STALE_VERSION:
            await self._resync()

    async def _on_move(self, content: dict[str, Any]) -> None:
        given = services.move_input(content)  # the REST API's check too
        result = await self.act(
            services.game_play_move,
            game_id=self.game_id,
            user=self.user,
            move=given.move,
            version=given.version,
            move_id=given.id,
        )
        if result.replayed:  # a resend: its broadcast went out long ago; answer with the state
            await self._resync()
        else:  # the mover's frames at once; its group event, arriving later, is then skipped
            await self._send_version(result.version, result.frames)

    async def _on_resign(self, content: dict[str, Any]) -> None:
        scope = content.get("scope")
        if scope not in services.RESIGN_SCOPES:
            raise bad_message(_('Resign the "game" or the "match": send scope "game" or "match".'))
        await self.act(services.game_resign, game_id=self.game_id, user=self.user, scope=scope)

    async def _on_undo(self, content: dict[str, Any]) -> None:
        version = content.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise bad_message(_("An undo needs the version it was asked against."))
        await self.act(services.game_undo, game_id=self.game_id, user=self.user, version=version)

    async def _on_hint(self, content: dict[str, Any]) -> None:
        version = content.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise bad_message(_("A hint needs the version it was asked at."))
        hint = await self.act(hints.hint_ask, game_id=self.game_id, user=self.user, version=version)
        if hint.move:  # asked before at this version: the answer is here
            await self._send_hint(hints.hint_frame(hint))
            return
        # The job's game.hint event brings it; the channel layer is only a doorbell (a worker
        # on another process may ring none), so the database is read too until it is there.
        asyncio.get_running_loop().create_task(self._await_hint(hint.pk))

    async def _await_hint(self, hint_id: int) -> None:
        deadline = asyncio.get_running_loop().time() + float(settings.Q_CLUSTER["retry"])
        while asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(HINT_POLL)
            hint = await database_sync_to_async(hints.hint_get)(hint_id)
            if hint is None or hint.version in self.hints_sent:
                return
            if hint.move:
                await self._send_hint(hints.hint_frame(hint))
                return

    async def _send_hint(self, frame: dict[str, Any]) -> None:
        """A hint frame, once per version (the doorbell and the database may both bring it)."""
        if frame["version"] in self.hints_sent:
            return
        self.hints_sent.add(frame["version"])
        await self.send_json(frame)

    async def _on_abort(self, content: dict[str, Any]) -> None:
        await self.act(services.game_abort, game_id=self.game_id, user=self.user)

    async def _on_rematch(self, content: dict[str, Any]) -> None:
        action = content.get("action")
        if action not in services.REMATCH_ACTIONS:
            raise bad_message(_('A rematch needs an action: "offer", "accept" or "decline".'))
        if self.match_id is None:
            raise GameError(NOT_FOUND, _("There is no such game."))
        result = await self.act(
            services.match_rematch, match_id=self.match_id, user=self.user, action=action
        )
        # The sockets of the match's last game hear of a change by broadcast; a socket on an
        # earlier game of the match, or asking again once the rematch exists, is answered here.
        if result.notified != self.game_id:
            await self.send_json(result.to_frame())

    async def _resync(
        self, content: dict[str, Any] | None = None, *, catch_up: bool = False
    ) -> None:
        """Send the state afresh (asked by ``sync``, or after a doorbell this socket missed);
        a player's hand only while the player is still signed in. A ``catch_up`` runs beside
        the socket's own events: it sends the state only if no event sent that version first."""
        try:
            self.seat, frame = await self.act(game_connect, game_id=self.game_id, user=self.user)
        except SignedOut as exc:
            await self.signed_out(exc)
            return
        except GameError as exc:
            await self.send_error(exc)
            return
        if catch_up and frame["version"] <= self.last_version:
            return
        await self._send_state(frame)

    async def _send_state(self, frame: dict[str, Any]) -> None:
        await self.send_json(frame)
        self.last_version = max(self.last_version, frame["version"])
        self.spectators_sent = frame.get("spectators")

    async def converge(self, committed: int | None) -> None:
        """The convergence check read ``committed`` for this game: catch up if behind (a
        doorbell this socket never heard)."""
        await self.rejoin()  # the channel layer may be back
        if committed is not None and committed > self.last_version:
            await self._resync(catch_up=True)

    # --- server -> client (channel layer)

    async def game_event(self, event: dict[str, Any]) -> None:
        """A committed change: send this viewer's frames unless it already has that version."""
        frames = event["frames"].get(viewer_key(self.seat))
        if frames is None:
            return  # no frames for this viewer: ask for nothing, the next sync sets it right
        await self._send_version(event["version"], frames)

    async def _send_version(self, version: int, frames: Any) -> None:
        """This viewer's frames of ``version``, unless the socket already sent that version."""
        if version <= self.last_version or not frames:
            return
        for frame in frames:
            if frame.get("type") == "state" and frame.get("spectators") is None:
                # The count this socket keeps current from spectators notices.
                frame = {**frame, "spectators": self.spectators_sent or 0}
            await self.send_json(frame)
            if frame.get("type") == "state":
                self.spectators_sent = frame.get("spectators")
        self.last_version = version

    async def game_hint(self, event: dict[str, Any]) -> None:
        """A hint computed for a seat: to that player's sockets, with the reason in words."""
        if event.get("seat") != self.seat:
            return
        frame = event["frame"]
        await self._send_hint({**frame, "text": reason_text(frame.get("reason"))})

    async def game_notice(self, event: dict[str, Any]) -> None:
        """A frame outside the game's versions, the same for everyone: forward it (a spectator
        count only when it tells this socket something new)."""
        frame = event["frame"]
        if frame.get("type") == "spectators":
            # Notices from several sockets (and processes) may arrive out of order: the count
            # they carry is only a hint, the cache holds the truth. Read it, send it if new.
            count = await sync_to_async(spectators.spectator_count)(self.game_id)
            if count == self.spectators_sent:
                return
            frame = {"type": "spectators", "count": count}
            self.spectators_sent = count
        await self.send_json(frame)
