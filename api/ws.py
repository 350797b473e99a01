"""API tokens on the WebSockets: a Channels middleware, inside AuthMiddlewareStack, that
authenticates a connection by ``?token=<key>`` in the query string or an ``Authorization:
Bearer <key>`` (or ``Token <key>``) header, for programs without a session cookie.

A token, when present, decides the user: an unknown or revoked one leaves the connection
anonymous (the consumer then refuses what needs a player) rather than falling back to a
session. Without a token the session's user stands.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from api.authentication import key_from_header
from api.services import api_token_user


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
            user = await database_sync_to_async(api_token_user)(key)
            scope = dict(scope, user=user if user is not None else AnonymousUser())
        return await self.app(scope, receive, send)
