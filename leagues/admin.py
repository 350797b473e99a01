"""The leagues admin: leagues, memberships, the queue, rating changes and tournaments
(docs/leagues.md, docs/tournaments.md). A staff member with the model permissions manages
every league; a staff member who moderates a league (and lacks them) manages that league's
rows only (``LeagueScopedAdmin``)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.admin import Scope, ScopedAdmin, scope_register
from core.errors import GameError
from games.admin_rules import RulesAdminMixin
from games.models import Match
from leagues import services
from leagues.models import (
    Entry,
    League,
    Membership,
    QueueEntry,
    RatingChange,
    Round,
    Tournament,
    TournamentMatch,
)
from leagues.permissions import league_may_moderate, moderated_league_ids, runs_every_league

# --- scoping: a league's moderator manages that league only -----------------------------------


def league_scope(path: str) -> Scope:
    """The admin scope (``core.admin``) of a model reaching its league by ``path`` ("" for
    League itself): staff with the model's view or change permission (superusers) see every
    row; anyone else only the rows of the leagues they moderate (``leagues.permissions``;
    none for a non-moderator)."""
    lookup = f"{path}__in" if path else "pk__in"

    def scope(request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        opts = queryset.model._meta
        user = request.user
        if (
            runs_every_league(user)
            or user.has_perm(f"{opts.app_label}.view_{opts.model_name}")
            or user.has_perm(f"{opts.app_label}.change_{opts.model_name}")
        ):
            return queryset
        return queryset.filter(**{lookup: moderated_league_ids(request.user)})

    return scope


#: Each model that names a league, by its path to the league; registered here, beside the
#: admins (``admin.autodiscover`` imports this module before any admin page is served).
LEAGUE_PATHS: dict[type[Model], str] = {
    League: "",
    Membership: "league",
    QueueEntry: "league",
    RatingChange: "membership__league",
    Tournament: "league",
    Entry: "tournament__league",
    Round: "tournament__league",
    TournamentMatch: "round__tournament__league",
    Match: "league",
}
for _model, _path in LEAGUE_PATHS.items():
    scope_register(_model, league_scope(_path))


class LeagueScopedAdmin(ScopedAdmin):
    """Staff with the model's permissions manage every league's rows; an active moderator of
    some leagues (staff or not, without those permissions) sees and changes the rows of those
    leagues only (``get_queryset``, scoped by ``league_scope``), and every form
    field naming a league, tournament, membership or match offers them those leagues' rows
    only (``core.admin.ScopedChoices``). Deleting needs the model permission."""

    league_lookup = "league"  # the path from the model to its league ("" for League itself)

    def _league_id_of(self, obj: Any) -> int | None:
        if not self.league_lookup:
            return int(obj.pk)
        value = obj
        for part in self.league_lookup.split("__"):
            value = getattr(value, part, None)
            if value is None:
                return None
        return int(value.pk)

    def _moderates(self, request: HttpRequest, obj: Any = None) -> bool:
        """Whether the user runs the object's league (``leagues.permissions``), or, with no
        object, some league."""
        user = request.user
        if obj is None:
            return runs_every_league(user) or bool(moderated_league_ids(user))
        league_id = self._league_id_of(obj)
        return league_id is not None and league_may_moderate(league=league_id, user=user)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return super().has_module_permission(request) or self._moderates(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or self._moderates(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) or self._moderates(request, obj)


@admin.register(League)
class LeagueAdmin(RulesAdminMixin, LeagueScopedAdmin):
    """A league; its rules through the preset and one field per knob (``RulesAdminMixin``)."""

    league_lookup = ""
    list_display = ["name", "slug", "status", "admission", "bots_ranked", "created_at"]
    list_filter = ["status", "admission", "bots_ranked"]
    search_fields = ["name", "slug", "description"]
    prepopulated_fields = {"slug": ("name",)}
    actions = ["archive_selected"]

    @admin.action(
        description=gettext_lazy("Archive the selected leagues (they keep standings, play no more)")
    )
    def archive_selected(self, request: HttpRequest, queryset: QuerySet[League]) -> None:
        count = queryset.filter(status=League.Status.ACTIVE).update(status=League.Status.ARCHIVED)
        self.message_user(
            request,
            ngettext("%(count)d league archived.", "%(count)d leagues archived.", count)
            % {"count": count},
            messages.SUCCESS,
        )


@admin.register(Membership)
class MembershipAdmin(LeagueScopedAdmin):
    list_display = [
        "user",
        "league",
        "role",
        "status",
        "rating_shown",
        "deviation_shown",
        "matches",
        "joined_at",
    ]
    list_filter = ["status", "role", "league", "user__is_bot"]
    search_fields = ["user__username", "user__display_name", "league__name", "league__slug"]
    list_select_related = ["user", "league"]
    autocomplete_fields = ["user"]  # pick players by name, not by id
    readonly_fields = ["joined_at", "rated_at"]
    #: What only an operator of every league may change by hand: a moderator changes a
    #: membership through the actions (approve, decline, ban, lift a ban), never its rating.
    OPERATOR_FIELDS = [
        "league",
        "user",
        "role",
        "status",
        "rating",
        "deviation",
        "volatility",
        "matches",
        "wins",
        "losses",
        "points_for",
        "points_against",
        "opponents",
    ]
    actions = ["approve_selected", "decline_selected", "ban_selected", "lift_ban_selected"]

    #: A moderator's view of a membership: every field read-only, the numbers rounded, the
    #: player by name (the accounts admin is closed to them: no link to it).
    MODERATOR_SHOWN = [
        "league",
        "player",
        "role",
        "status",
        "rating_shown",
        "deviation_shown",
        "matches",
        "wins",
        "losses",
        "points_for",
        "points_against",
        "joined_at",
        "rated_at",
    ]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and not runs_every_league(request.user):
            return self.MODERATOR_SHOWN
        return super().get_fields(request, obj)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and not runs_every_league(request.user):
            fields += [f for f in self.OPERATOR_FIELDS + self.MODERATOR_SHOWN if f not in fields]
        return fields

    @admin.display(description=gettext_lazy("player"))
    def player(self, obj: Membership) -> str:
        return obj.user.public_name

    @admin.display(description=gettext_lazy("rating"), ordering="rating")
    def rating_shown(self, obj: Membership) -> int:
        return round(obj.rating)

    @admin.display(description=gettext_lazy("deviation (stored)"), ordering="deviation")
    def deviation_shown(self, obj: Membership) -> int:
        return round(obj.deviation)

    def _each_member(
        self, request: HttpRequest, queryset: QuerySet[Membership], service: Any, done: Any
    ) -> None:
        """Run ``service`` on each selected membership as the requesting moderator; say how
        many it changed and why any was refused."""
        count = 0
        if not queryset.exists():
            self.message_user(
                request,
                _("Nothing to do: this action does not apply to any of the selected members."),
                messages.WARNING,
            )
        for membership in queryset.select_related("user"):
            try:
                service(membership_id=membership.pk, moderator=request.user)
            except GameError as exc:
                self.message_user(
                    request,
                    # Translators: a player's name, then why a moderator's step was refused.
                    _("%(player)s: %(message)s")
                    % {"player": membership.user.public_name, "message": exc.message},
                    messages.ERROR,
                )
            else:
                count += 1
        if count:
            self.message_user(request, done(count), messages.SUCCESS)

    @admin.action(description=gettext_lazy("Approve the selected requests to join"))
    def approve_selected(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._each_member(
            request,
            queryset.filter(status=Membership.Status.PENDING),
            services.membership_approve,
            lambda count: (
                ngettext("%(count)d request approved.", "%(count)d requests approved.", count)
                % {"count": count}
            ),
        )

    @admin.action(description=gettext_lazy("Decline the selected requests to join"))
    def decline_selected(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._each_member(
            request,
            queryset.filter(status=Membership.Status.PENDING),
            services.membership_decline,
            lambda count: (
                ngettext("%(count)d request declined.", "%(count)d requests declined.", count)
                % {"count": count}
            ),
        )

    @admin.action(
        description=gettext_lazy(
            "Ban the selected members (they leave the league's tournaments and may not join again)"
        )
    )
    def ban_selected(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._each_member(
            request,
            queryset.exclude(status=Membership.Status.BANNED),
            services.membership_ban,
            lambda count: (
                ngettext("%(count)d member banned.", "%(count)d members banned.", count)
                % {"count": count}
            ),
        )

    @admin.action(description=gettext_lazy("Lift the selected bans (they may join again)"))
    def lift_ban_selected(self, request: HttpRequest, queryset: QuerySet[Membership]) -> None:
        self._each_member(
            request,
            queryset.filter(status=Membership.Status.BANNED),
            services.membership_ban_lift,
            lambda count: (
                ngettext("%(count)d ban lifted.", "%(count)d bans lifted.", count)
                % {"count": count}
            ),
        )


@admin.register(QueueEntry)
class QueueEntryAdmin(ScopedAdmin):
    list_display = ["user", "league", "rating_at_join", "joined_at", "seen_at"]
    list_filter = ["league"]
    search_fields = ["user__username"]
    list_select_related = ["user", "league"]


@admin.register(RatingChange)
class RatingChangeAdmin(ScopedAdmin):
    """Read-only: ratings change only by rating a match (leagues.services)."""

    list_display = ["membership", "match", "score", "rating_before", "rating_after", "at"]
    list_filter = ["membership__league"]
    search_fields = ["membership__user__username"]
    list_select_related = ["membership__user", "membership__league"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


# --- tournaments and seasons: their admins live beside them (imported here, where autodiscovery
# looks): leagues/tournaments/admin.py, leagues/seasons_admin.py --------------------------------

from leagues import seasons_admin  # noqa: E402, F401
from leagues.tournaments import admin as tournaments_admin  # noqa: E402, F401
