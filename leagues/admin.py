"""The leagues admin: leagues, memberships, the queue, rating changes and tournaments
(docs/leagues.md, docs/tournaments.md). A staff member with the model permissions manages
every league; a staff member who moderates a league (and lacks them) manages that league's
rows only (``LeagueScopedAdmin``)."""

from __future__ import annotations

import csv
from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.admin import Scope, ScopedAdmin, ScopedTabularInline, scope_register
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

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and not runs_every_league(request.user):
            fields += [f for f in self.OPERATOR_FIELDS if f not in fields]
        return fields

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


# --- tournaments --------------------------------------------------------------------------------


class EntryInline(ScopedTabularInline):
    model = Entry
    extra = 0
    fields = ["user", "status", "seed_rating", "joined_at"]
    readonly_fields = ["seed_rating", "joined_at"]
    autocomplete_fields = ["user"]


class RoundInline(ScopedTabularInline):
    model = Round
    extra = 0
    fields = ["number", "status", "started_at", "closed_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


def _each(
    admin_: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet[Tournament], do: Any
) -> None:
    """Run ``do(tournament)`` for each selected tournament; report what happened."""
    for tournament in queryset:
        try:
            said = do(tournament)
        except GameError as exc:
            admin_.message_user(
                request,
                # Translators: a tournament's name, then what went wrong with it.
                _("%(tournament)s: %(message)s")
                % {"tournament": tournament.name, "message": exc.message},
                messages.ERROR,
            )
        else:
            admin_.message_user(
                request,
                # Translators: a tournament's name, then what was done to it.
                _("%(tournament)s: %(message)s") % {"tournament": tournament.name, "message": said},
                messages.SUCCESS,
            )


def _forfeited(count: int) -> str:
    return ngettext("%(count)d pairing forfeited.", "%(count)d pairings forfeited.", count) % {
        "count": count
    }


@admin.register(Tournament)
class TournamentAdmin(LeagueScopedAdmin):
    list_display = [
        "name",
        "league",
        "format",
        "status",
        "current_round",
        "entrants",
        "ranked",
        "created_at",
    ]
    list_filter = ["status", "format", "ranked", "league"]
    ordering = ["-created_at"]
    search_fields = ["name", "slug", "league__name", "league__slug"]
    list_select_related = ["league"]
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = [
        "status",
        "current_round",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    ]
    inlines = [EntryInline, RoundInline]
    actions = [
        "open_registration",
        "start",
        "close_round",
        "forfeit_no_shows",
        "export_standings_csv",
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).annotate(entrant_count=Count("entries"))

    @admin.display(description=gettext_lazy("entrants"), ordering="entrant_count")
    def entrants(self, obj: Tournament) -> int:
        return int(getattr(obj, "entrant_count", 0))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) or self._moderates(request)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change and obj.created_by_id is None:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    @admin.action(description=gettext_lazy("Open registration"))
    def open_registration(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        from leagues.tournaments.services import tournament_open_registration

        _each(
            self,
            request,
            queryset,
            lambda t: tournament_open_registration(tournament=t) and _("registration is open."),
        )

    @admin.action(description=gettext_lazy("Start (seed and pair round one)"))
    def start(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        from leagues.tournaments.services import tournament_start

        _each(
            self,
            request,
            queryset,
            lambda t: tournament_start(tournament=t) and _("started; round 1 is paired."),
        )

    @admin.action(description=gettext_lazy("Close the round and pair the next"))
    def close_round(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        from leagues.tournaments.services import tournament_round_close

        def do(t: Tournament) -> str:
            rnd = t.round_set.filter(status=Round.Status.OPEN).first()
            if rnd is None:
                raise GameError("forbidden", _("no round is open."))
            if not tournament_round_close(round=rnd):
                missing = rnd.pairings.filter(source="").count()
                raise GameError(
                    "forbidden",
                    ngettext(
                        "round %(round)d has %(count)d pairing without a result.",
                        "round %(round)d has %(count)d pairings without a result.",
                        missing,
                    )
                    % {"round": rnd.number, "count": missing},
                )
            t.refresh_from_db()
            if t.status == Tournament.Status.FINISHED:
                return _("round %(round)d closed; the tournament is finished.") % {
                    "round": rnd.number
                }
            return _("round %(round)d closed; round %(next)d is paired.") % {
                "round": rnd.number,
                "next": t.current_round,
            }

        _each(self, request, queryset, do)

    @admin.action(
        description=gettext_lazy("Forfeit no-shows (matches older than the turn time limit)")
    )
    def forfeit_no_shows(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        from leagues.tournaments.services import tournament_forfeit_no_shows

        _each(
            self,
            request,
            queryset,
            lambda t: _forfeited(tournament_forfeit_no_shows(tournament=t)),
        )

    @admin.action(description=gettext_lazy("Export standings as CSV"))
    def export_standings_csv(
        self, request: HttpRequest, queryset: QuerySet[Tournament]
    ) -> HttpResponse:
        from leagues.tournaments.selectors import tournament_standings

        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = 'attachment; filename="standings.csv"'
        writer = csv.writer(response)
        writer.writerow(
            [
                "tournament",
                "rank",
                "player",
                "points",
                "wins",
                "losses",
                "draws",
                "byes",
                "buchholz",
                "sonneborn_berger",
                "head_to_head",
                "reached",
                "withdrawn",
            ]
        )
        for t in queryset:
            for row in tournament_standings(t):
                writer.writerow(
                    [
                        t.slug,
                        row.rank,
                        row.user.username,
                        row.points,
                        row.wins,
                        row.losses,
                        row.draws,
                        row.byes,
                        "" if row.buchholz is None else row.buchholz,
                        "" if row.sonneborn_berger is None else row.sonneborn_berger,
                        "" if row.head_to_head is None else row.head_to_head,
                        row.reached,
                        "yes" if row.withdrawn else "",
                    ]
                )
        return response


@admin.register(TournamentMatch)
class TournamentMatchAdmin(LeagueScopedAdmin):
    """A pairing: set or correct its result (``pairing_result_set``: a ranked match's winner
    changes with it and the league's ratings are recomputed)."""

    league_lookup = "round__tournament__league"
    list_display = ["__str__", "board", "first", "second", "winner", "forfeit", "source", "match"]
    list_filter = ["source", "forfeit", "round__tournament__league", "round__tournament"]
    search_fields = ["first__username", "second__username", "round__tournament__name"]
    list_select_related = ["round__tournament", "first", "second", "winner"]
    fields = ["round", "board", "first", "second", "match", "winner", "forfeit", "source"]
    readonly_fields = ["round", "board", "first", "second", "match", "source"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "winner":
            from accounts.models import User

            pk = request.resolver_match.kwargs.get("object_id") if request.resolver_match else None
            pairing = TournamentMatch.objects.filter(pk=pk).first() if pk else None
            ids = [i for i in (pairing.first_id, pairing.second_id) if i] if pairing else []
            kwargs["queryset"] = User.objects.filter(pk__in=ids)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def save_model(
        self, request: HttpRequest, obj: TournamentMatch, form: Any, change: bool
    ) -> None:
        from leagues.tournaments.services import pairing_result_set

        try:
            pairing_result_set(pairing=obj, winner_id=obj.winner_id, forfeit=obj.forfeit)
        except GameError as exc:
            self.message_user(request, exc.message, messages.ERROR)
