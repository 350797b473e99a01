"""Writes about API tokens: create (the key is returned once, only its hash kept), revoke, and
the lookup the REST authentication and the socket middleware share."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import ngettext_lazy

from accounts.models import User
from api.models import PREFIX_LENGTH, ApiToken, key_hash, key_new
from core.credentials import credentials_changed
from core.errors import refuse_past_limit

#: How stale ``last_used_at`` may get: a program posting moves must not write a row per request.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def api_token_create(*, user: Any, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user``; returns it and its key (never stored, shown once). Refused
    too_many when ``user`` has ``API_TOKENS_PER_USER_LIMIT`` active tokens already."""
    limit = settings.API_TOKENS_PER_USER_LIMIT
    key = key_new()
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one creation at a time
        refuse_past_limit(
            ApiToken.objects.filter(user=user, revoked_at__isnull=True),
            limit,
            ngettext_lazy(
                "You have %(limit)d token already: revoke it to make another.",
                "You have %(limit)d tokens already: revoke one to make another.",
                "limit",
            ),
        )
        token = ApiToken.objects.create(
            user=user, name=name.strip()[:60], key_hash=key_hash(key), prefix=key[:PREFIX_LENGTH]
        )
    return token, key


def api_token_revoke(*, user: Any, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens; False if there is no such active token of theirs."""
    updated = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if updated:  # the token's open sockets close (core/credentials.py)
        credentials_changed(user_id=user.pk, token_id=token_id)
    return bool(updated)


def api_tokens_revoke_all(user: Any) -> int:
    """Revoke every token of ``user`` (their password changed or was reset, or the account
    was deleted: accounts.hooks.password_changed); return how many. Their sockets are told
    by the caller, with the user's other sockets."""
    return ApiToken.objects.filter(user_id=user.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def api_token_user(key: str) -> Any | None:
    """The active user a key belongs to (and note the use), or None."""
    token = api_token_find(key)
    return token.user if token is not None else None


def api_token_find(key: str) -> ApiToken | None:
    """The active token of ``key``, of an active user, with that user (and note the use);
    else None."""
    if not key:
        return None
    try:  # get(), not first(): key_hash is unique, and first()'s ORDER BY over both tables'
        # columns cost more to compile than the query (each socket that connects with a token)
        token = ApiToken.objects.select_related("user").get(
            key_hash=key_hash(key), revoked_at__isnull=True
        )
    except ApiToken.DoesNotExist:
        return None
    if not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token
