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

The site's ``AdminSite`` (``SiteAdmin``, installed by
``core.admin_config.SiteAdminConfig`` in place of ``django.contrib.admin``) opens to active
staff, as Django's does, and to any active user an app's registered access check lets in (the
leagues app: a league's moderators, who need not be staff; docs/tournaments.md, "Who may do
what"). What they then see is each model admin's own permissions and scope. An autocomplete field an
app registers (``autocomplete_register``) answers them too, with the rows the app chooses: a
league's moderator picks a tournament's entrants among their leagues' members without seeing
the accounts admin.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.db.models import Model, QuerySet
from django.http import HttpRequest

Scope = Callable[[HttpRequest, QuerySet[Any]], QuerySet[Any]]
AccessCheck = Callable[[Any], bool]

_scopes: dict[type[Model], Scope] = {}
_access_checks: list[AccessCheck] = []


def access_register(check: AccessCheck) -> None:
    """Let ``check(user)`` open the admin to an active user who is not staff."""
    if check not in _access_checks:
        _access_checks.append(check)


def admin_opens_to(user: Any) -> bool:
    """Active staff, or an active user a registered check lets in."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_staff) or any(check(user) for check in _access_checks)


class SiteLoginForm(AdminAuthenticationForm):
    """The admin's log-in: refuses, with Django's words, whoever the admin does not open to."""

    def confirm_login_allowed(self, user: Any) -> None:
        if not admin_opens_to(user):
            raise self.get_invalid_login_error()


#: An autocomplete field's answer for whoever may not view the related model's admin:
#: ``answer(request, term)`` gives the rows to offer, or None to refuse.
AutocompleteAnswer = Callable[[HttpRequest, str], "QuerySet[Any] | None"]

_autocompletes: dict[tuple[type[Model], str], AutocompleteAnswer] = {}


def autocomplete_register(model: type[Model], field_name: str, answer: AutocompleteAnswer) -> None:
    """Let ``answer`` serve the admin's autocomplete of ``model.field_name`` (for example a
    tournament entry's player) to someone without the view permission on the related model
    (a league's moderator, who may not browse the accounts)."""
    _autocompletes[(model, field_name)] = answer


class SiteAutocompleteView(AutocompleteJsonView):
    """Django's autocomplete, which answers those who may view the related model's admin;
    a field registered with ``autocomplete_register`` also answers the others, with the rows
    its answer gives (and only those)."""

    answered: QuerySet[Any] | None = None

    def has_perm(self, request: HttpRequest, obj: Any = None) -> bool:
        if super().has_perm(request, obj):
            return True
        answer = _autocompletes.get((self.source_field.model, self.source_field.name))
        self.answered = answer(request, self.term) if answer is not None else None
        return self.answered is not None

    def get_queryset(self) -> QuerySet[Any]:
        if self.answered is not None:
            return self.answered
        return super().get_queryset()


class SiteAdmin(admin.AdminSite):
    login_form = SiteLoginForm

    def has_permission(self, request: HttpRequest) -> bool:
        return admin_opens_to(request.user)

    def autocomplete_view(self, request: HttpRequest) -> Any:
        return SiteAutocompleteView.as_view(admin_site=self)(request)


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
