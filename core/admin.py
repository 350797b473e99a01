"""The admin's scoping, shared by every app's admin (docs/leagues.md, "Admin").

An app above may narrow what a staff member sees of one of its models: it registers a
``scope(request, queryset) -> queryset`` for the model (the leagues app scopes leagues,
memberships, tournaments and matches to the leagues a moderator moderates). Every admin of the
site mixes in ``ScopedChoices`` (``ScopedAdmin``, ``ScopedTabularInline``), so one rule holds
everywhere:

- its own rows (``get_queryset``) are the scoped ones — which is also what Django's
  autocomplete answers, since ``AutocompleteJsonView`` searches the related model's admin's
  ``get_queryset``;
- every form field naming a scoped model (a select, a raw id, an autocomplete, a many-to-many)
  offers, and accepts on a POST, only the scoped rows: a crafted value outside them is a form
  error and nothing is saved.

core imports no app: with nothing registered, nothing is narrowed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

Scope = Callable[[HttpRequest, QuerySet[Any]], QuerySet[Any]]

_scopes: dict[type[Model], Scope] = {}


def scope_register(model: type[Model], scope: Scope) -> None:
    """Let ``scope(request, queryset)`` narrow every admin queryset and choice of ``model``."""
    _scopes[model] = scope


def scoped(request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
    """``queryset`` narrowed to the rows ``request``'s user may see in the admin."""
    scope = _scopes.get(queryset.model)
    return queryset if scope is None else scope(request, queryset)


def _narrowed(request: HttpRequest, formfield: Any) -> Any:
    queryset = getattr(formfield, "queryset", None)
    if queryset is not None:
        formfield.queryset = scoped(request, queryset)
    return formfield


class ScopedChoices:
    """The form fields' choices, narrowed; mixed into ModelAdmin and InlineModelAdmin."""

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        formfield = super().formfield_for_foreignkey(db_field, request, **kwargs)  # type: ignore[misc]
        return _narrowed(request, formfield)

    def formfield_for_manytomany(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        formfield = super().formfield_for_manytomany(db_field, request, **kwargs)  # type: ignore[misc]
        return None if formfield is None else _narrowed(request, formfield)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return scoped(request, super().get_queryset(request))  # type: ignore[misc]


class ScopedAdmin(ScopedChoices, admin.ModelAdmin):
    """The site's ModelAdmin: its rows and its form fields' choices scoped."""


class ScopedTabularInline(ScopedChoices, admin.TabularInline):
    """The site's tabular inline: its form fields' choices scoped."""
