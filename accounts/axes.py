"""django-axes hooks.

`username_for_lockout` makes the lock-out key case-insensitive, like log-in itself: without
it, "alice", "Alice" and "ALICE" would each get their own five attempts. Enable with
``AXES_USERNAME_CALLABLE = "accounts.axes.username_for_lockout"`` in settings.
"""

from typing import Any

from django.conf import settings
from django.http import HttpRequest


def username_for_lockout(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str:
    field = settings.AXES_USERNAME_FORM_FIELD
    username = (credentials or {}).get(field)
    if username is None and request is not None:
        username = request.POST.get(field)
    return (username or "").strip().lower()
