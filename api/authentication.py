"""DRF authentication by personal API token: ``Authorization: Bearer <key>`` (or ``Token``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, exceptions

from accounts.selectors import GUESTS_PLAY_BOTS, user_is_guest
from api.services import api_token_user
from core.i18n import activate_for_request

SCHEMES = ("bearer", "token")
CSRF_FAILED = _(
    "The request's CSRF check failed: the page was open too long, or your browser blocks "
    "cookies for this site. Reload the page and try again."
)


def key_from_header(value: str) -> str | None:
    """The key in an Authorization header value, or None if it is not a token scheme."""
    parts = value.split()
    if len(parts) != 2 or parts[0].lower() not in SCHEMES:
        return None
    return parts[1]


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
        # The middleware chose before the token named its user: choose again, by the same rule.
        activate_for_request(getattr(request, "_request", request), user)
        return user, None

    def authenticate_header(self, request: Any) -> str:
        return 'Bearer realm="api"'


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication (a browser signed in on the site), refusing a guest's
    session with 403 and the reason: guests play the bots on the site, not through the API;
    a failed CSRF check says so in the reader's language."""

    def authenticate(self, request: Any) -> tuple[Any, None] | None:
        found = super().authenticate(request)
        if found is not None and user_is_guest(found[0]):
            raise exceptions.PermissionDenied(GUESTS_PLAY_BOTS)
        return found

    def enforce_csrf(self, request: Any) -> None:
        """DRF's check, with the refusal in the reader's words (DRF's is "CSRF Failed: " and
        Django's reason, in English)."""
        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied:
            raise exceptions.PermissionDenied(CSRF_FAILED) from None
