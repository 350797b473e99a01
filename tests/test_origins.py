"""The WebSocket Origin check (core/origins.py), at the handshake of the whole ASGI
application: a browser's socket is accepted only from the site's own origin — the scheme, host
and port the socket itself was opened on (ws → http, wss → https; behind the proxy, its
``X-Forwarded-Proto``) — or from one of ``CSRF_TRUSTED_ORIGINS``. A page on another port or
over plain HTTP of the same host name is another origin, and is refused.

The probe is ``/ws/me/``, which accepts anyone at the handshake (an anonymous visitor is then
told to log in and closed): accepted means the Origin check let the socket through."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _handshake(host: str | None, origin: str | None, *, scheme: str = "ws", extra=()) -> bool:
    """Whether a socket to /ws/me/ opened on ``scheme``://``host`` from ``origin`` is accepted."""
    from spite.asgi import application

    async def opened_on(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await application({**scope, "scheme": scheme}, receive, send)

    headers = [*extra]
    if host is not None:
        headers.append((b"host", host.encode()))
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    communicator = WebsocketCommunicator(opened_on, "/ws/me/", headers=headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


@pytest.mark.parametrize(
    ("host", "origin", "scheme"),
    [
        ("localhost:8000", "http://localhost:8000", "ws"),
        ("localhost", "http://localhost", "ws"),
        ("localhost", "http://localhost:80", "ws"),  # the default port, said or not
        ("localhost", "https://localhost", "wss"),
        ("127.0.0.1:41234", "http://127.0.0.1:41234", "ws"),
        ("LOCALHOST:8000", "http://localhost:8000", "ws"),  # host names ignore case
    ],
)
async def test_a_socket_from_the_sites_own_origin_is_accepted(host, origin, scheme) -> None:
    assert await _handshake(host, origin, scheme=scheme)


@pytest.mark.parametrize(
    ("host", "origin", "scheme"),
    [
        ("localhost:8000", "http://localhost:9000", "ws"),  # another port of the same host
        ("localhost:8000", "http://localhost", "ws"),
        ("localhost", "https://localhost", "ws"),  # the page over HTTPS, the socket over ws
        ("localhost", "http://localhost", "wss"),  # the page over HTTP, the socket over wss
        ("localhost:8000", "http://evil.example:8000", "ws"),  # another host
        ("evil.example", "http://evil.example", "ws"),  # a host the site does not serve
        ("localhost", "null", "ws"),  # a sandboxed frame or a file
        ("localhost", None, "ws"),  # no Origin at all
        (None, "http://localhost", "ws"),  # no Host: nothing to compare with
    ],
    ids=[
        "other port",
        "port dropped",
        "https page, ws socket",
        "http page, wss socket",
        "other host",
        "host not allowed",
        "null origin",
        "no origin",
        "no host",
    ],
)
async def test_a_socket_from_another_origin_is_refused(host, origin, scheme) -> None:
    assert not await _handshake(host, origin, scheme=scheme)


@override_settings(SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
async def test_behind_the_proxy_the_forwarded_scheme_counts() -> None:
    """nginx ends TLS and talks ws to the server: its X-Forwarded-Proto says the page's
    scheme, as it does for Django's HTTPS checks (SECURE_PROXY_SSL_HEADER)."""
    proxied = [(b"x-forwarded-proto", b"https")]

    assert await _handshake("localhost", "https://localhost", extra=proxied)
    assert not await _handshake("localhost", "http://localhost", extra=proxied)
    assert await _handshake("localhost", "http://localhost")


@override_settings(CSRF_TRUSTED_ORIGINS=["https://play.example.org"])
async def test_a_trusted_origin_is_accepted_exactly() -> None:
    assert await _handshake("localhost:8000", "https://play.example.org")
    assert not await _handshake("localhost:8000", "http://play.example.org")
    assert not await _handshake("localhost:8000", "https://play.example.org:8443")
