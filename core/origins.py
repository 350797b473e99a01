"""The WebSocket Origin check: a socket opens only from the site's own pages.

A browser sends the page's origin (scheme, host, port) with every socket handshake, and sends
the site's cookies whoever's page opens the socket, so the check is what keeps another site's
page from playing with a visitor's session. Channels' ``AllowedHostsOriginValidator`` compares
only the host name with ``ALLOWED_HOSTS``: a page on another port of the same host, or served
over plain HTTP beside the HTTPS site, passed. Here an Origin passes when it is

- the socket's own origin: the ``Host`` it was opened on (a host ``ALLOWED_HOSTS`` allows), with
  the scheme of its page — ``wss`` → ``https``, ``ws`` → ``http``, or what the proxy's
  ``SECURE_PROXY_SSL_HEADER`` says, as Django decides ``request.is_secure()`` — and the same
  port (a missing port is the scheme's default); or
- one of ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.org`` covers the subdomains), the
  origins Django's CSRF check trusts for a form posted from another origin.

A handshake without an Origin (or with ``Origin: null``) is refused: browsers always send one,
and a program sends the site's address (docs/api.md). This is the rule Django's own CSRF check
applies to the Origin of a form posted over HTTPS.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import is_same_domain, split_domain_port, validate_host

DEFAULT_PORTS = {"http": 80, "https": 443}

#: (scheme, host name in lower case, port)
Origin = tuple[str, str, int]


def parse_origin(value: str) -> Origin | None:
    """``value`` (``scheme://host[:port]``) as a comparable triple, or None when it is not one."""
    parts = urlsplit(value)
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    return (parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme])


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin1")
    return None


def _allowed_hosts() -> list[str]:
    """``ALLOWED_HOSTS``, with Django's own defaults when it is empty under DEBUG."""
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        return [".localhost", "127.0.0.1", "[::1]"]
    return allowed


def _secure(scope: dict[str, Any]) -> bool:
    """Whether the socket's page is served over HTTPS: the proxy's header when the site
    trusts one (``SECURE_PROXY_SSL_HEADER``, as ``HttpRequest.scheme`` reads it), else the
    socket's own scheme."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, secure_value = settings.SECURE_PROXY_SSL_HEADER
        name = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
        value = _header(scope, name)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure_value
    return scope.get("scheme", "ws") == "wss"


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The origin of the site's pages that may open this socket: its Host, with the scheme of
    its page; None without a Host, or with one the site does not serve."""
    host = _header(scope, b"host")
    if not host:
        return None
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, _allowed_hosts()):
        return None
    return parse_origin(f"{'https' if _secure(scope) else 'http'}://{host}")


def _trusted(origin: Origin, raw: str) -> bool:
    """Whether ``origin`` is one of ``CSRF_TRUSTED_ORIGINS`` (Django's matching)."""
    netloc = urlsplit(raw).netloc.lower()
    for trusted in settings.CSRF_TRUSTED_ORIGINS:
        parts = urlsplit(trusted)
        if "*" in parts.netloc:
            if parts.scheme == origin[0] and is_same_domain(netloc, parts.netloc.lstrip("*")):
                return True
        elif parse_origin(trusted) == origin:
            return True
    return False


def origin_allowed(scope: dict[str, Any]) -> bool:
    """Whether the handshake in ``scope`` comes from a page the site trusts (module docstring)."""
    raw = _header(scope, b"origin")
    origin = parse_origin(raw) if raw else None
    if origin is None:
        return False
    return origin == own_origin(scope) or _trusted(origin, raw)


class OriginValidator:
    """ASGI middleware for the sockets: a handshake from another origin is refused (closed
    before it is accepted, which the server answers with 403) before anything else runs."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if origin_allowed(scope):
            return await self.app(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
