"""What every socket test needs: the site's own Host and Origin, a real session cookie, a connected
communicator on the whole ASGI application, and the frames that arrive until it goes quiet."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

QUIET = 0.5  # seconds of silence that count as "nothing more is coming"
FIRST = 10.0  # seconds a test waits for the first frame it expects


def site_headers() -> list[tuple[bytes, bytes]]:
    """The Host a socket is opened on (over ws) and the Origin of the site's own pages there,
    which the Origin check (core/origins.py) lets through. A real server always passes the
    Host; a test's communicator sends only the headers it is given."""
    host = next(h for h in settings.ALLOWED_HOSTS if h not in ("*", "") and h[0] != ".")
    return [(b"host", host.encode()), (b"origin", f"http://{host}".encode())]


def session_cookie(user, client: Client | None = None) -> str:
    """The session cookie of ``user`` logged in (through ``client`` when given)."""
    client = client or Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def open_socket(
    path: str, cookie: str | None = None, headers: Iterable[tuple[bytes, bytes]] = ()
) -> WebsocketCommunicator:
    """A connected communicator on ``path`` of spite.asgi.application."""
    from spite.asgi import application

    sent = [*site_headers(), *headers]
    if cookie:
        sent.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=sent)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def frames(
    communicator: WebsocketCommunicator, quiet: float = QUIET, first: float = FIRST
) -> list[dict[str, Any]]:
    """The frames a test expects: the first, waited for up to ``first`` seconds (a busy
    machine may take longer than ``quiet`` to send it), then every frame that arrives until
    the socket has been quiet for ``quiet`` seconds. To show that nothing comes, use
    ``communicator.receive_nothing(timeout=QUIET)``."""
    if await communicator.receive_nothing(timeout=first):
        return []
    received = [await communicator.receive_json_from()]
    while not await communicator.receive_nothing(timeout=quiet):
        received.append(await communicator.receive_json_from())
    return received


async def send(communicator: WebsocketCommunicator, message: Any) -> None:
    await communicator.send_to(text_data=json.dumps(message))


class GroupJoins:
    """The channel layer in use (in memory or Redis) refusing to join groups, as Redis away
    would, until ``back()``; afterwards every group joined is recorded in ``added``."""

    def __init__(self, monkeypatch: Any) -> None:
        from channels.layers import get_channel_layer

        self.layer = get_channel_layer()
        self.real = self.layer.group_add
        self.monkeypatch = monkeypatch
        self.added: list[str] = []
        monkeypatch.setattr(self.layer, "group_add", self._refused)

    async def _refused(self, group: str, channel: str) -> None:
        raise ConnectionError("redis is down")

    async def _recorded(self, group: str, channel: str) -> None:
        self.added.append(group)
        await self.real(group, channel)

    def back(self) -> None:
        self.monkeypatch.setattr(self.layer, "group_add", self._recorded)
