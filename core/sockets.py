"""What every socket of the site does before and after its own work (docs/protocol.md): refuse
frames that are not JSON text or too long (``bad_message``), throttle each connection with a
token bucket (``throttled``), send a message to the handler its ``type`` names, and turn a
refusal (a ``GameError``) into an ``error`` frame. It also keeps the groups a socket joined,
to leave them all when it closes.

Each connection speaks one language, chosen at connect (``core.i18n.language_for_scope``: the
user's profile, the language cookie, the handshake's Accept-Language) and active for everything
the socket does, its handlers, its group events and the services they run in the database
thread (Django's active language is a context variable, which ``database_sync_to_async``
carries along): refusals and other texts come out in that language.

A consumer subclasses ``JsonSocket``, names its handlers in ``handlers`` (message type →
method name) and raises ``GameError`` from them; ``refused`` may be overridden to do more
than send the error frame (the game socket echoes a move's id and resyncs on a stale version).

A socket acts only while its user still holds the rights it opened with (core/credentials.py):
a handler runs its service through ``act``, which checks the credentials in the same database
call; a socket whose user was signed out (token revoked, password changed, logged out, account
deleted) answers ``unauthenticated`` and closes with 4401. Each signed-in socket also joins its
user's credentials group (``join_credentials``), whose event makes it check at once.
"""

from __future__ import annotations

import contextlib
import json
import logging
from functools import partial
from time import monotonic
from typing import Any, ClassVar

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from core.credentials import credentials_group, credentials_hold, scope_session_key
from core.errors import (
    BAD_MESSAGE,
    THROTTLED,
    UNAUTHENTICATED,
    UNAVAILABLE,
    GameError,
    lazy_format,
)
from core.i18n import language_for_scope
from core.layer import bounded, layer_call
from core.outages import CLOSE_TRY_AGAIN, RECONNECTING, database_outage

logger = logging.getLogger(__name__)


class DirectDispatch:
    """Hands each message straight to its handler.

    Channels (4.2 and later) first runs ``close_old_connections`` through ``sync_to_async``,
    i.e. in the process's one database thread, for every message a consumer gets: every frame
    from the client and every group event. Under load every state frame then waited in that
    thread's queue behind other tables' moves (docs/performance.md). Our handlers reach the
    database only through ``database_sync_to_async``, which closes old connections in that
    thread around each call, so the hop bought nothing.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


#: The close code that sends a page to reconnect at once (RFC 6455's 1012, "Service Restart",
#: as the application's own: daphne closes only with 1000 or 3000 to 4999).
CLOSE_RECONNECT = 4012

#: Close codes after a refusal on connect (4000 to 4999 are the application's own). 4401 also
#: closes a socket whose user was signed out (``SignedOut``): the page stops reconnecting.
CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404


def bad_message(message: str | Promise) -> GameError:
    """A ``bad_message`` refusal: the frame's shape is wrong."""
    return GameError(BAD_MESSAGE, message)


class SignedOut(GameError):
    """The socket's user no longer holds the rights it opened with (core/credentials.py)."""

    def __init__(self) -> None:
        super().__init__(UNAUTHENTICATED, _("You were signed out. Reload the page to go on."))


def throttled(wait: float) -> GameError:
    """A ``throttled`` refusal: the next message may come in ``wait`` seconds."""
    return GameError(
        THROTTLED, _("Too many messages: wait a moment."), params={"retry_after": round(wait, 1)}
    )


class TokenBucket:
    """A token bucket: ``burst`` messages at once, refilled over ``period`` seconds."""

    def __init__(self, burst: int, period: float) -> None:
        self.burst = burst
        self.rate = burst / period
        self.tokens = float(burst)
        self.stamp = monotonic()

    def take(self) -> float:
        """0 if a message may pass now, else the seconds until one may."""
        now = monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class JsonSocket(DirectDispatch, AsyncJsonWebsocketConsumer):
    """A socket of JSON objects with a ``type``, each answered by one handler.

    Limits (``GAMES_WS_MAX_MESSAGE``, ``GAMES_WS_THROTTLE``) are read per connection. When a
    handler (or the connect) cannot reach the database, the socket sends an ``unavailable``
    error frame and closes with 4503, "try again later" (core/outages.py): the page's socket
    reconnects after its backoff.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        try:
            await super().dispatch(message)
        except Exception as exc:
            if not database_outage(exc):
                raise
            await self.database_away(exc)

    async def database_away(self, exc: Exception) -> None:
        logger.warning("database unavailable on %s: %s", self.scope.get("path"), exc)
        error = GameError(UNAVAILABLE, RECONNECTING)
        with contextlib.suppress(Exception):  # the connection may be gone already
            await self.send_json(error.to_frame())
            await self.close(code=CLOSE_TRY_AGAIN)

    #: Message type → the name of the handler method, ``async def h(self, content)``.
    handlers: ClassVar[dict[str, str]] = {}

    #: The connection's language (settings.LANGUAGES), chosen once when it opens.
    language: str

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        burst, period = settings.GAMES_WS_THROTTLE
        self.bucket = TokenBucket(int(burst), float(period))
        self.joined_groups: list[str] = []
        self.unjoined: set[str] = set()  # joined while the channel layer refused

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Run the whole connection, every message and event of it, in its language: one
        activation per connection, none per message (the auth middlewares have set the user).

        Channels' ``AsyncConsumer.__call__``, but a channel layer that cannot give the socket a
        channel in time (Redis refusing or silent) leaves it without one instead of failing the
        handshake: the socket opens and works from the database (the convergence check), and
        once the layer is back it closes with 4012 so that the page reconnects with one."""
        self.language = language_for_scope(scope)
        with translation.override(self.language):
            self.scope = scope
            self.base_send = send
            self.channel_layer = get_channel_layer(self.channel_layer_alias)
            receivers = [receive]
            if self.channel_layer is not None:
                try:
                    self.channel_name = await bounded(self.channel_layer.new_channel())
                except Exception as exc:  # the layer's own errors, ConnectionError, TimeoutError
                    logger.warning(
                        "channel layer unavailable, a socket opens without it: %s",
                        exc.__class__.__name__,
                    )
                    self.channel_layer, self.channel_name = None, ""
                else:
                    receivers.append(partial(self.channel_layer.receive, self.channel_name))
            with contextlib.suppress(StopConsumer):
                await await_many_dispatch(receivers, self.dispatch)

    # --- groups

    async def join(self, group: str) -> None:
        """Join ``group`` once; left again on disconnect. With the channel layer away the
        socket goes on without it (its state then comes from the convergence check) and
        ``rejoin`` tries again later."""
        if group in self.joined_groups:
            return
        self.joined_groups.append(group)
        if self.channel_layer is None or not await layer_call(
            self.channel_layer.group_add(group, self.channel_name), what=f"joining {group}"
        ):
            self.unjoined.add(group)

    async def rejoin(self) -> None:
        """Join again the groups the channel layer refused (it may be back). A socket that
        opened without a channel closes with 4012 once the layer answers, so that its page
        reconnects with one."""
        if not self.unjoined:
            return
        if self.channel_layer is None:
            layer = get_channel_layer(self.channel_layer_alias)
            if layer is not None and await layer_call(
                layer.group_send("layer-probe", {"type": "layer.probe"}), what="a probe"
            ):
                await self.close(code=CLOSE_RECONNECT)
            return
        for group in sorted(self.unjoined):
            if await layer_call(
                self.channel_layer.group_add(group, self.channel_name), what=f"joining {group}"
            ):
                self.unjoined.discard(group)

    async def group_send(self, group: str, message: dict[str, Any], *, what: str) -> None:
        """Send ``message`` to ``group`` if the layer answers in time; else log and go on."""
        if self.channel_layer is not None:
            await layer_call(self.channel_layer.group_send(group, message), what=what)

    async def disconnect(self, code: int) -> None:
        for group in self.joined_groups:
            if group not in self.unjoined:
                await layer_call(
                    self.channel_layer.group_discard(group, self.channel_name),
                    what=f"leaving {group}",
                )
        self.joined_groups = []
        self.unjoined = set()

    # --- credentials (core/credentials.py)

    async def join_credentials(self) -> None:
        """Join the group of the socket's user, if signed in: told when its rights may have
        ended (``credentials_recheck``)."""
        user = self.scope.get("user")
        if user is not None and user.is_authenticated:
            await self.join(credentials_group(user.pk))

    async def act(self, work: Any, /, **kwargs: Any) -> Any:
        """``work(**kwargs)`` in the database thread, once the same call found the socket's
        user still signed in; else ``SignedOut`` (the handler's caller closes the socket)."""
        return await database_sync_to_async(self._checked)(work, kwargs)

    def _checked(self, work: Any, kwargs: dict[str, Any]) -> Any:
        if not credentials_hold(self.scope):
            raise SignedOut
        return work(**kwargs)

    async def signed_out(self, exc: GameError | None = None) -> None:
        """Say why, and close with 4401: the page stops reconnecting and tells the player."""
        await self.send_error(exc or SignedOut())
        await self.close(code=CLOSE_UNAUTHENTICATED)

    async def credentials_recheck(self, event: dict[str, Any]) -> None:
        """The user's credentials changed: close if this socket's ended (the event names a
        session or token ending now), or if they no longer hold."""
        token = self.scope.get("api_token")
        ended = (token is not None and event.get("token") == token) or (
            token is None
            and event.get("session") is not None
            and event.get("session") == scope_session_key(self.scope)
        )
        if ended or not await database_sync_to_async(credentials_hold)(self.scope):
            await self.signed_out()

    # --- client -> server

    def decode(self, text_data: str | None) -> dict[str, Any]:
        """The message as a dict, within the size limit; else GameError."""
        if text_data is None:
            raise bad_message(_("Send JSON text frames."))
        if len(text_data) > settings.GAMES_WS_MAX_MESSAGE:
            raise bad_message(_("That message is too long."))
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):  # RecursionError: arrays or objects nested too deep
            raise bad_message(_("That message is not JSON.")) from None
        if not isinstance(content, dict):
            raise bad_message(_("A message is a JSON object with a type."))
        return content

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        wait = self.bucket.take()  # every frame counts, whatever it holds
        try:
            content = self.decode(text_data)
        except GameError as exc:
            await self.send_error(throttled(wait) if wait else exc)
            return
        if wait:  # refused like any handler's refusal, so a move's refusal echoes its id
            await self.refused(throttled(wait), content)
            return
        await self.receive_json(content)

    async def receive_json(self, content: dict[str, Any], **kwargs: Any) -> None:
        kind = content.get("type")
        name = self.handlers.get(kind if isinstance(kind, str) else "")
        try:
            if name is None:
                raise bad_message(
                    # Translators: %(types)s lists the message types, such as "move", "undo" or
                    # "sync" (kept in English: they are the protocol's words).
                    lazy_format(
                        _("Unknown message type: use %(types)s."), types=self._known_types()
                    )
                )
            await getattr(self, name)(content)
        except GameError as exc:
            await self.refused(exc, content)
            if isinstance(exc, SignedOut):
                await self.close(code=CLOSE_UNAUTHENTICATED)

    def _known_types(self) -> str | Promise:
        names = [f'"{kind}"' for kind in self.handlers]
        if len(names) == 1:
            return names[0]
        # Translators: the end of a list of choices: "a", "b" or "c".
        return lazy_format(_("%(first)s or %(last)s"), first=", ".join(names[:-1]), last=names[-1])

    async def refused(self, exc: GameError, content: dict[str, Any]) -> None:
        """A handler refused ``content``: send the error frame."""
        await self.send_error(exc)

    # --- server -> client

    async def send_error(self, exc: GameError, move_id: str | None = None) -> None:
        """Send ``exc`` as an ``error`` frame (echoing ``move_id`` when it answers a move)."""
        await self.send_json(exc.to_frame(move_id=move_id))
