"""API tokens on the WebSockets: a Channels middleware, inside AuthMiddlewareStack, that
authenticates a connection by ``?token=<key>`` in the query string or an ``Authorization:
Bearer <key>`` (or ``Token <key>``) header, for programs without a session cookie.

A token, when present, decides the user: an unknown or revoked one leaves the connection
anonymous (the consumer then refuses what needs a player) rather than falling back to a
session. Without a token the session's user stands.

The token's id stays in ``scope["api_token"]``: before each action the socket checks that the
token is still active and its user too (``token_holds``, one of core.credentials' checks), and
revoking the token closes its sockets (docs/protocol.md, "Signed out").
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from api.authentication import key_from_header
from api.models import ApiToken
from api.services import api_token_find


def _key(scope: dict[str, Any]) -> str | None:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    if query.get("token"):
        return query["token"][0]
    for name, value in scope.get("headers", []):
        if name.lower() == b"authorization":
            return key_from_header(value.decode("latin-1"))
    return None


class TokenAuthMiddleware:
    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = _key(scope)
        if key is not None:
            token = await database_sync_to_async(api_token_find)(key)
            if token is None:
                scope = dict(scope, user=AnonymousUser(), api_token=None)
            else:
                scope = dict(scope, user=token.user, api_token=token.pk)
        return await self.app(scope, receive, send)


def token_holds(scope: dict[str, Any]) -> bool | None:
    """Whether the token a socket came in with is still active, and its user (one query);
    None for a socket without one (core.credentials.checks)."""
    token_id = scope.get("api_token")
    if token_id is None:
        return None
    return ApiToken.objects.filter(
        pk=token_id, revoked_at__isnull=True, user__is_active=True
    ).exists()
