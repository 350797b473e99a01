"""The admin of a league's seasons (docs/leagues.md, "Seasons"), imported by ``leagues.admin``.

A league's moderators (staff or not) open, rename and close their leagues' seasons and nothing
of another league's (``LeagueScopedAdmin``); opening and closing go through
``leagues.seasons``, so the admin refuses what the services refuse, saying why. A season's
table shows on its page; a closed season is read-only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from core.admin import scope_register
from core.errors import GameError
from leagues.admin import LeagueScopedAdmin, league_scope
from leagues.models import Season, SeasonRow
from leagues.seasons import season_close, season_open, season_open_check, season_table

scope_register(Season, league_scope("league"))
scope_register(SeasonRow, league_scope("season__league"))


class SeasonForm(forms.ModelForm):
    """A season's form; a new one is checked as ``season_open`` will check it (a league
    that already has an open season is a form error, with the reason)."""

    opened_by: Any = None  # the user, set per request by ``SeasonAdmin.get_form``

    class Meta:
        model = Season
        fields = ["league", "name", "order"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        league = cleaned.get("league")
        if self.instance.pk is None and league is not None:
            try:
                season_open_check(league=league, by=self.opened_by)
            except GameError as exc:
                raise ValidationError(str(exc.message)) from None
        return cleaned


@admin.register(Season)
class SeasonAdmin(LeagueScopedAdmin):
    form = SeasonForm
    list_display = ["name", "league", "status", "order", "starts_at", "ends_at"]
    list_filter = ["status", "league"]
    search_fields = ["name", "league__name", "league__slug"]
    list_select_related = ["league"]
    ordering = ["-starts_at", "-id"]
    actions = ["close_selected"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return ["league", "name", "order"]
        return ["league", "name", "order", "status", "starts_at", "ends_at", "table"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        if obj is None:
            return []
        if obj.is_open:
            return ["league", "status", "starts_at", "ends_at", "table"]
        return ["league", "name", "order", "status", "starts_at", "ends_at", "table"]

    def get_urls(self) -> list[Any]:
        close = path(
            "<path:object_id>/close/",
            self.admin_site.admin_view(self.close_view),
            name="leagues_season_close",
        )
        return [close, *super().get_urls()]

    def close_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """A season's own "Close this season" button: the confirmation, then the close."""
        season = self.get_queryset(request).filter(pk=object_id).first()
        if season is None or not self.has_view_permission(request, season):
            raise Http404(_("There is no such season."))
        change = reverse("admin:leagues_season_change", args=[season.pk])
        if request.method != "POST" or request.POST.get("confirmed") != "yes":
            return self._confirmation(request, [season])
        self._close(request, season)
        return HttpResponseRedirect(change)

    def _confirmation(
        self, request: HttpRequest, seasons: list[Season], action: bool = False
    ) -> TemplateResponse:
        return TemplateResponse(
            request,
            "admin/leagues/season/close_confirmation.html",
            {
                **self.admin_site.each_context(request),
                "title": _("Close these seasons?") if action else _("Close this season?"),
                "opts": self.model._meta,
                # Django's styles of a confirmation: Yes in red, No as a grey button
                "body_class": "app-leagues model-season delete-confirmation",
                "seasons": seasons,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME if action else "",
            },
        )

    def _close(self, request: HttpRequest, season: Season) -> None:
        try:
            season_close(season=season, by=request.user)
        except GameError as exc:
            level, said = messages.ERROR, exc.message
        else:
            level, said = messages.SUCCESS, _("closed; its final table is kept.")
        self.message_user(
            request,
            # Translators: a season's name, then what was done to it or why not.
            _("%(season)s: %(message)s") % {"season": season.name, "message": said},
            level,
        )

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any):
        base = super().get_form(request, obj, change=change, **kwargs)
        return type(base.__name__, (base,), {"opened_by": request.user})

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) or self._moderates(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is not None and not obj.is_open:
            return False  # a closed season's table is final: its page is read-only
        return super().has_change_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Season, form: Any, change: bool) -> None:
        if change:
            super().save_model(request, obj, form, change)
            return
        season = season_open(league=obj.league, name=obj.name, order=obj.order, by=request.user)
        obj.pk, obj.starts_at, obj.status = season.pk, season.starts_at, season.status
        obj._state.adding = False

    @admin.display(description=gettext_lazy("table"))
    def table(self, obj: Season) -> str:
        lines = season_table(obj)
        close = ""
        if obj.is_open:
            close = format_html(
                '<p><a class="button" href="{}">{}</a></p>',
                reverse("admin:leagues_season_close", args=[obj.pk]),
                _("Close this season…"),
            )
        if not lines:
            return format_html("<p>{}</p>{}", _("No match has counted yet."), close)
        return format_html(
            "<table><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>"
            "<th>{}</th></tr></thead><tbody>{}</tbody></table>{}",
            _("Player"),
            _("Matches"),
            pgettext("column header: abbreviation of matches won", "W"),
            pgettext("column header: abbreviation of matches lost", "L"),
            _("Points"),
            format_html_join(
                "",
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}\u2013{}</td></tr>",
                (
                    (
                        line.rank,
                        line.name,
                        line.matches,
                        line.wins,
                        line.losses,
                        line.points_for,
                        line.points_against,
                    )
                    for line in lines
                ),
            ),
            close,
        )

    @admin.action(
        description=gettext_lazy("Close the selected seasons (their tables become final)")
    )
    def close_selected(
        self, request: HttpRequest, queryset: QuerySet[Season]
    ) -> HttpResponse | None:
        seasons = list(queryset.select_related("league"))
        if request.POST.get("confirmed") != "yes":
            return self._confirmation(request, seasons, action=True)
        for season in seasons:
            self._close(request, season)
        return None
