"""The REST API's errors: one JSON shape, ``{code, message, params}``, and one status per code.

``STATUS`` maps every code of ``core.errors.CODES`` to its HTTP status (docs/api.md);
``exception_handler`` turns a GameError, DRF's own exceptions and Django's refusal of a body
over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413) into that shape;
``UnknownPathView`` answers 404 in that shape where no endpoint matches.

Messages come out in the request's language: the one ``core.i18n.UserLanguageMiddleware``
chose, or, for a request signed with an API token, the token user's
(``api.authentication.ApiTokenAuthentication``); a GameError's message is read here, when the
response is built.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, permissions, status
from rest_framework.response import Response
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_exception_handler

from core import errors as codes
from core.errors import GameError, lazy_format

STATUS: dict[str, int] = {
    codes.BAD_MESSAGE: status.HTTP_400_BAD_REQUEST,
    codes.ILLEGAL_MOVE: status.HTTP_400_BAD_REQUEST,
    codes.NOTHING_TO_UNDO: status.HTTP_400_BAD_REQUEST,
    codes.UNAUTHENTICATED: status.HTTP_401_UNAUTHORIZED,
    codes.FORBIDDEN: status.HTTP_403_FORBIDDEN,
    codes.BLOCKED: status.HTTP_403_FORBIDDEN,
    codes.NOT_FOUND: status.HTTP_404_NOT_FOUND,
    codes.STALE_VERSION: status.HTTP_409_CONFLICT,
    codes.NOT_YOUR_TURN: status.HTTP_409_CONFLICT,
    codes.GAME_OVER: status.HTTP_409_CONFLICT,
    codes.EXPIRED: status.HTTP_409_CONFLICT,
    codes.TAKEN: status.HTTP_409_CONFLICT,
    codes.CLOSED: status.HTTP_409_CONFLICT,
    codes.DUPLICATE: status.HTTP_409_CONFLICT,
    codes.TOO_MANY: status.HTTP_409_CONFLICT,
    codes.THROTTLED: status.HTTP_429_TOO_MANY_REQUESTS,
    codes.UNAVAILABLE: status.HTTP_503_SERVICE_UNAVAILABLE,
}


def error_body(
    code: str, message: str | Promise, params: dict[str, Any] | None = None
) -> dict[str, Any]:
    return {"code": code, "message": str(message), "params": dict(params or {})}


def game_error_response(exc: GameError) -> Response:
    params = dict(exc.params)
    if exc.engine_code:
        params["engine_code"] = exc.engine_code
    return Response(error_body(exc.code, exc.message, params), status=STATUS[exc.code])


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """REST_FRAMEWORK's EXCEPTION_HANDLER: every refusal as ``{code, message, params}``."""
    if isinstance(exc, GameError):
        return game_error_response(exc)
    if isinstance(exc, RequestDataTooBig):  # Django's, raised while DRF reads the body
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = lazy_format(_("The body is too large: at most %(limit)d bytes."), limit=limit)
        body = error_body(codes.BAD_MESSAGE, message, {"limit": limit})
        return Response(body, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        body = error_body(codes.BAD_MESSAGE, _("Some fields are invalid."), {"errors": detail})
    elif isinstance(exc, exceptions.Throttled):
        wait = max(math.ceil(exc.wait), 1) if exc.wait is not None else 1
        response["Retry-After"] = str(wait)
        body = error_body(
            codes.THROTTLED, _("Too many requests: slow down."), {"retry_after": wait}
        )
    elif isinstance(exc, (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)):
        response.status_code = status.HTTP_401_UNAUTHORIZED
        body = error_body(codes.UNAUTHENTICATED, str(exc.detail))
    elif isinstance(exc, exceptions.PermissionDenied):
        body = error_body(codes.FORBIDDEN, str(exc.detail))
    elif isinstance(exc, exceptions.NotFound):
        body = error_body(codes.NOT_FOUND, str(exc.detail))
    else:
        body = error_body(codes.BAD_MESSAGE, str(getattr(exc, "detail", exc)))
    response.data = body
    return response


class UnknownPathView(APIView):
    """Any address under /api/v1/ that names no endpoint, a malformed id included
    (``games/abc/``): 404 ``not_found`` in the one shape, not Django's HTML page."""

    permission_classes = [permissions.AllowAny]
    schema = None  # not an operation of the schema

    def http_method_not_allowed(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        raise exceptions.NotFound(_("No endpoint at this address."))

    options = http_method_not_allowed
