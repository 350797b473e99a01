"""Reads about API tokens."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from api.models import ApiToken


def api_tokens_for(*, user: Any) -> QuerySet[ApiToken]:
    """``user``'s tokens, newest first, revoked ones too (they show as revoked)."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")
