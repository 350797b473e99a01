"""Matches of the API (being written)."""

from __future__ import annotations

from typing import Any

urlpatterns: list[Any] = []
