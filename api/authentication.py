"""DRF authentication by personal API token: ``Authorization: Bearer <key>`` (or ``Token``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from api.services import api_token_user
from spite.i18n import preferred_language

SCHEMES = ("bearer", "token")


def key_from_header(value: str) -> str | None:
    """The key in an Authorization header value, or None if it is not a token scheme."""
    parts = value.split()
    if len(parts) != 2 or parts[0].lower() not in SCHEMES:
        return None
    return parts[1]


def _activate_language(request: Any, user: Any) -> None:
    """The middleware chose the language before the token named its user: choose again, now
    that the user's profile language is known (the rule of ``spite.i18n``)."""
    language = preferred_language(
        user,
        cookie=request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME),
        accept_language=request.META.get("HTTP_ACCEPT_LANGUAGE", ""),
    )
    translation.activate(language)
    getattr(request, "_request", request).LANGUAGE_CODE = language


class ApiTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Any) -> tuple[Any, None] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        if not header:
            return None
        key = key_from_header(header)
        if key is None:
            return None
        user = api_token_user(key)
        if user is None:
            raise exceptions.AuthenticationFailed(_("That API token is unknown or revoked."))
        _activate_language(request, user)
        return user, None

    def authenticate_header(self, request: Any) -> str:
        return 'Bearer realm="api"'
