"""When the database is away: the site's 503 answers instead of a 500 or a hang.

``database_outage(exc)`` says whether an exception means the database cannot be reached (a
refused or dropped connection, a connection the pool could not hand out in time) rather than a
fault of the request. Then:

- a page answers ``templates/503.html``, "The table will be back in a moment", in the language
  of the visitor's cookie or browser (a profile cannot be read), built from nothing that needs
  the database; ``/api/`` answers ``{"code": "unavailable", …}`` with 503; both say
  ``Retry-After``. ``DatabaseOutageMiddleware`` turns a view's exception into it, and
  ``server_error`` (the site's ``handler500``) one from anywhere else when DEBUG is off;
  any other error there answers the site's 500 page (``core.error_pages``).
- a socket sends an ``unavailable`` error frame and closes with 4503 ("try again later"), so
  the page reconnects after its backoff (``core.sockets.JsonSocket``).

Nothing acknowledged is lost: a move is acknowledged only after its commit.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from http.cookies import SimpleCookie
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.error_pages import server_error_page
from core.errors import UNAVAILABLE

logger = logging.getLogger(__name__)

#: Seconds a client is told to wait before it tries again.
RETRY_AFTER = 5

#: The close code of a socket whose database is away: RFC 6455's 1013, "Try Again Later", as
#: the application's own (daphne closes only with 1000 or 3000 to 4999).
CLOSE_TRY_AGAIN = 4503

#: What a socket is told before that close.
RECONNECTING = gettext_lazy("The table will be back in a moment: reconnecting.")


def database_outage(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot be reached (not that a query was wrong)."""
    if isinstance(exc, (OperationalError, InterfaceError)):
        return True
    try:
        from psycopg_pool import PoolTimeout
    except ImportError:  # pragma: no cover - psycopg is installed with the project
        return False
    return isinstance(exc, PoolTimeout) or (
        isinstance(exc, DatabaseError) and isinstance(exc.__cause__, PoolTimeout)
    )


def unavailable_response(request: HttpRequest) -> HttpResponse:
    """The 503 answer to ``request``: JSON under /api/, else the page."""
    language = translation.get_language_from_request(request)
    with translation.override(language):
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                {
                    "code": UNAVAILABLE,
                    "message": _("The site cannot reach its database: try again in a moment."),
                    "params": {"retry_after": RETRY_AFTER},
                },
                status=503,
            )
        else:
            response = render(request, "503.html", {"LANGUAGE_CODE": language}, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class DatabaseOutageMiddleware:
    """A view that could not reach the database answers the site's 503 (in DEBUG too)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if database_outage(exception):
            logger.warning("database unavailable for %s: %s", request.path, exception)
            return unavailable_response(request)
        return None


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the 503 answer when the error was the database being away (raised
    before any view, e.g. reading the session), else the site's 500 page."""
    if database_outage(sys.exc_info()[1]):
        return unavailable_response(request)
    return server_error_page(request)


class SocketOutageMiddleware:
    """ASGI middleware for the sockets, outside the session and auth middlewares: when the
    database is away before any consumer runs (the session or the user cannot be read), the
    handshake is still answered — accepted, told ``unavailable``, closed with 4503 — instead
    of dropped, so the page retries after its backoff. Once a consumer runs, it answers an
    outage itself (``core.sockets.JsonSocket``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        answered = False

        async def sending(message: dict[str, Any]) -> None:
            nonlocal answered
            if message.get("type") in ("websocket.accept", "websocket.close"):
                answered = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            if answered or not database_outage(exc):
                raise
            logger.warning(
                "database unavailable at the handshake of %s: %s", scope.get("path"), exc
            )
            if (await receive()).get("type") != "websocket.connect":
                return
            language = translation.get_language_from_request(_FakeRequest(scope))
            with translation.override(language):
                message = str(RECONNECTING)
            await send({"type": "websocket.accept"})
            frame = {"type": "error", "code": UNAVAILABLE, "message": message}
            await send({"type": "websocket.send", "text": json.dumps(frame)})
            await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN})


class _FakeRequest:
    """Enough of a request for ``get_language_from_request``: the cookie and the header."""

    def __init__(self, scope: dict[str, Any]) -> None:
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])
        }
        self.META = {"HTTP_ACCEPT_LANGUAGE": headers.get("accept-language", "")}
        self.COOKIES = _cookies(headers.get("cookie", ""))
        self.path_info = "/"


def _cookies(header: str) -> dict[str, str]:
    jar: SimpleCookie[str] = SimpleCookie()
    try:
        jar.load(header)
    except Exception:  # a malformed cookie header: no cookies
        return {}
    return {key: morsel.value for key, morsel in jar.items()}
