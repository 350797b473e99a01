"""The client's address: the one place every limit by address reads it (docs/deploy.md, "The
client's address"): log-in lock-outs (django-axes' ``AXES_CLIENT_IP_CALLABLE``), the REST API's
throttles (``api.throttles``), guest play's limit (``games.guests``), the password-reset limit
(``accounts.limits``) and the cap on sockets per client (``core.socket_cap``).

``settings.PROXY_COUNT`` says how many reverse proxies stand in front of the servers, each
appending the address it got the request from to ``X-Forwarded-For`` (nginx's
``$proxy_add_x_forwarded_for``). With 0 the header is ignored entirely: anyone can send one.
With N, the N-th address from the right is the one the first proxy saw, the client's; what
stands to its left came from the client and is not believed. A request whose header holds fewer
addresses than that did not come through the proxies, and counts by its own peer address.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings


def _from_forwarded(forwarded: str, peer: str) -> str:
    count = int(settings.PROXY_COUNT)
    if count <= 0 or not forwarded:
        return peer
    chain = [part.strip() for part in forwarded.split(",") if part.strip()]
    if len(chain) < count:
        return peer
    return chain[-count]


def client_address(request_or_scope: Any) -> str:
    """The client's address of a Django ``HttpRequest`` (or DRF ``Request``) or of a Channels
    ``scope`` (a mapping with ``client`` and ``headers``); "" when there is none."""
    if isinstance(request_or_scope, Mapping):
        return scope_client_address(request_or_scope)
    meta = getattr(request_or_scope, "META", {})
    return _from_forwarded(meta.get("HTTP_X_FORWARDED_FOR", ""), meta.get("REMOTE_ADDR") or "")


def scope_client_address(scope: Mapping[str, Any]) -> str:
    """``client_address`` of an ASGI scope (a socket's handshake)."""
    client = scope.get("client") or ("",)
    peer = str(client[0] or "")
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers") or ()
    forwarded = ",".join(
        value.decode("latin-1") for name, value in headers if name.lower() == b"x-forwarded-for"
    )
    return _from_forwarded(forwarded, peer)
