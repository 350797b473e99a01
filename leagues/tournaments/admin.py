"""The tournaments' admin (docs/tournaments.md, "Admin"): a tournament's own page, with its
state, its rounds' pairings and their states, the standings, and a button for each step the
organiser may take now (``steps.tournament_step``); each step opens a confirmation page that
says what it will do, and does it on POST through the services. Who may take steps is
``leagues.permissions``: a league's moderators (staff or not) for their league, an operator
for every league. Imported by ``leagues/admin.py``, where the admin's autodiscovery looks."""

from __future__ import annotations

import csv
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

import engine
from core.admin import ScopedTabularInline, autocomplete_register
from core.errors import GameError, lazy_format
from games.forms import knob_field, knob_range
from games.refusals import rules_refusal_message
from leagues.admin import LeagueScopedAdmin
from leagues.models import Entry, League, Membership, Round, Tournament, TournamentMatch
from leagues.permissions import league_may_moderate, moderated_league_ids, runs_every_league
from leagues.tournaments import services as ts
from leagues.tournaments import steps

#: Before it starts a tournament's entrants may be added and removed here; then they are
#: read-only (a withdrawal goes through ``tournament_withdraw``: its forfeits).
ENTRIES_OPEN = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


def _runs_tournament(request: HttpRequest, tournament: Tournament | None) -> bool:
    """Whether the user runs the tournament's league; with none (the add page), some league."""
    user = request.user
    if tournament is None or tournament.league_id is None:
        return runs_every_league(user) or bool(moderated_league_ids(user))
    return league_may_moderate(league=tournament.league_id, user=user)


# --- entrants -----------------------------------------------------------------------------------


def entrant_choices(request: HttpRequest, term: str) -> QuerySet[Any] | None:
    """The entry's player autocomplete for a league's moderator (``core.admin``): the active
    members of the leagues they moderate, by username or display name; None (refused) for
    anyone else."""
    from accounts.models import User

    leagues = moderated_league_ids(request.user)
    if not leagues:
        return None
    users = User.objects.filter(
        pk__in=Membership.objects.filter(
            league_id__in=leagues, status=Membership.Status.ACTIVE
        ).values("user_id")
    )
    if term:
        users = users.filter(Q(username__icontains=term) | Q(display_name__icontains=term))
    return users.order_by("username")


autocomplete_register(Entry, "user", entrant_choices)


class EntryFormSet(BaseInlineFormSet):
    """Each entrant added by hand must be able to play in the tournament's league (an active
    member, as ``tournament_register`` requires); the refusal is the service's own words."""

    def clean(self) -> None:
        super().clean()
        tournament = self.instance
        if tournament.league_id is None:
            return
        from leagues.services import ranked_member_check

        for form in self.forms:
            user = getattr(form, "cleaned_data", {}).get("user")
            if user is None or form.cleaned_data.get("DELETE") or "user" not in form.changed_data:
                continue
            try:
                ranked_member_check(league=tournament.league, user=user, ranked=tournament.ranked)
            except GameError as exc:
                form.add_error("user", exc.message)


class EntryInline(ScopedTabularInline):
    model = Entry
    formset = EntryFormSet
    extra = 0
    fields = ["user", "status", "seed_rating_shown", "joined_at"]
    readonly_fields = ["seed_rating_shown", "joined_at"]
    autocomplete_fields = ["user"]
    #: Once the tournament has started: all read-only, the player by name (no link to the
    #: accounts admin, which a league's moderator may not open).
    FIXED = ["player", "status", "seed_rating_shown", "joined_at"]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.status not in ENTRIES_OPEN:
            return self.FIXED
        return super().get_fields(request, obj)

    @admin.display(description=gettext_lazy("player"))
    def player(self, obj: Entry) -> str:
        return obj.user.public_name

    @admin.display(description=gettext_lazy("rating at the start"))
    def seed_rating_shown(self, obj: Entry) -> str:
        return "-" if obj.seed_rating is None else str(round(obj.seed_rating))

    def _open(self, request: HttpRequest, obj: Tournament | None) -> bool:
        return _runs_tournament(request, obj) and (obj is None or obj.status in ENTRIES_OPEN)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.status not in ENTRIES_OPEN:
            return self.FIXED
        return super().get_readonly_fields(request, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or _runs_tournament(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._open(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._open(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self._open(request, obj)


class RoundInline(ScopedTabularInline):
    model = Round
    extra = 0
    fields = ["number", "status", "started_at", "closed_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = False

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or _runs_tournament(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# --- the tournament -----------------------------------------------------------------------------


class TournamentForm(forms.ModelForm):
    """The tournament; its match target is the rules form's knob (label, range, the engine's
    words), checked with the league's other rules."""

    match_target = knob_field("match_target", required=False)
    match_target.initial = None  # empty: the league's target
    match_target.help_text = lazy_format(
        gettext_lazy(
            "The points that win a match of this tournament (%(minimum)d to %(maximum)d). Leave "
            "it empty to play to the league's target; every other rule is the league's (listed "
            "below once saved)."
        ),
        **dict(zip(("minimum", "maximum"), knob_range("match_target"), strict=True)),
    )

    class Meta:
        model = Tournament
        fields = ["league", "name", "slug", "format", "rounds", "ranked", "match_target"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("rounds") and cleaned.get("format") != Tournament.Format.SWISS:
            self.add_error(
                "rounds",
                forms.ValidationError(
                    _("Only a Swiss tournament chooses its rounds: leave this empty."),
                    code="not_swiss",
                ),
            )
        league, target = cleaned.get("league"), cleaned.get("match_target")
        if league is not None and target is not None:
            try:
                engine.Rules.from_dict({**league.rules, "match_target": target})
            except engine.RulesError as exc:
                self.add_error("match_target", forms.ValidationError(rules_refusal_message(exc)))
        return cleaned


def _rules_lines(league: League) -> Any:
    from leagues.selectors import league_rules_lines

    return format_html(
        '<ul class="league-rules">{}</ul>',
        format_html_join("", "<li>{}</li>", ((line,) for line in league_rules_lines(league))),
    )


@admin.register(Tournament)
class TournamentAdmin(LeagueScopedAdmin):
    form = TournamentForm
    change_form_template = "admin/leagues/tournament/change_form.html"
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
        "league_rules",
        "status",
        "current_round",
        "created_by",
        "created_at",
        "started_at",
        "finished_at",
    ]
    fieldsets = [
        (None, {"fields": ["league", "name", "slug", "format", "rounds", "ranked"]}),
        (
            gettext_lazy("Rules"),
            {
                "fields": ["match_target", "league_rules"],
                "description": gettext_lazy(
                    "A tournament plays by its league's rules; only the match target may differ."
                ),
            },
        ),
        (
            gettext_lazy("Progress"),
            {
                "fields": [
                    "status",
                    "current_round",
                    "created_by",
                    "created_at",
                    "started_at",
                    "finished_at",
                ]
            },
        ),
    ]
    #: What no longer changes once the tournament has started: its matches are made.
    FIXED_ONCE_STARTED = ["league", "format", "rounds", "ranked", "match_target"]
    inlines = [EntryInline, RoundInline]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        return fieldsets if obj is not None else fieldsets[:-1]  # no progress before it exists

    def get_inlines(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.inlines if obj is not None else [EntryInline]  # no rounds before it exists

    actions = ["export_standings_csv"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        return super().get_queryset(request).annotate(entrant_count=Count("entries"))

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.status not in ENTRIES_OPEN:
            fields += self.FIXED_ONCE_STARTED
        return fields

    @admin.display(description=gettext_lazy("entrants"), ordering="entrant_count")
    def entrants(self, obj: Tournament) -> int:
        return int(getattr(obj, "entrant_count", 0))

    @admin.display(description=gettext_lazy("the league's rules"))
    def league_rules(self, obj: Tournament | None) -> Any:
        if obj is not None and obj.pk and obj.league_id:
            return _rules_lines(obj.league)
        return _("Shown once the tournament is saved: the rules of the league you choose.")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) or self._moderates(request)

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change and obj.created_by_id is None:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)

    # --- the page and its steps

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> Any:
        obj = self.get_object(request, unquote(object_id))
        extra_context = dict(extra_context or {})
        if obj is not None and league_may_moderate(league=obj.league_id, user=request.user):
            extra_context["tournament_panel"] = steps.tournament_panel(obj)
        return super().change_view(request, object_id, form_url, extra_context)

    def get_urls(self) -> list[Any]:
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/step/<slug:step>/",
                self.admin_site.admin_view(self.step_view),
                name="{}_{}_step".format(*info),
            ),
            path(
                "<path:object_id>/pairing/<int:pairing_id>/result/",
                self.admin_site.admin_view(self.result_view),
                name="{}_{}_result".format(*info),
            ),
            *super().get_urls(),
        ]

    def _tournament_to_run(self, request: HttpRequest, object_id: str) -> Tournament:
        """The tournament, if the user may take its steps: 404 outside the rows they see (a
        moderator of another league), 403 for one who sees it but does not run its league."""
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None:
            raise Http404
        if not league_may_moderate(league=tournament.league_id, user=request.user):
            raise PermissionDenied
        return tournament

    def _back(self, tournament: Tournament) -> HttpResponseRedirect:
        return HttpResponseRedirect(
            reverse("admin:leagues_tournament_change", args=[tournament.pk])
        )

    def _refused(self, request: HttpRequest, step: steps.Step, reason: Any) -> None:
        self.message_user(
            request,
            # Translators: a step of a tournament (e.g. "Close round 2"), then why it was refused.
            _("Refused: %(step)s. %(reason)s") % {"step": step.label, "reason": reason},
            messages.ERROR,
        )

    def _confirm(
        self, request: HttpRequest, tournament: Tournament, step: steps.Step, **context: Any
    ) -> TemplateResponse:
        return TemplateResponse(
            request,
            "admin/leagues/tournament/step_confirm.html",
            {
                **self.admin_site.each_context(request),
                "opts": self.opts,
                "original": tournament,
                "title": step.label,
                "subtitle": tournament.name,
                "step": step,
                "change_url": reverse("admin:leagues_tournament_change", args=[tournament.pk]),
                **context,
            },
        )

    def step_view(self, request: HttpRequest, object_id: str, step: str) -> HttpResponse:
        """A step of the tournament as a whole: GET its confirmation, POST to take it."""
        tournament = self._tournament_to_run(request, object_id)
        if step not in steps.TOURNAMENT_STEPS:
            raise Http404
        decided = steps.tournament_step(tournament, step)
        if not decided.allowed:
            self._refused(request, decided, decided.reason)
            return self._back(tournament)
        if request.method != "POST":
            return self._confirm(request, tournament, decided)
        try:
            done = self._take(tournament, step)
        except GameError as exc:
            self._refused(request, decided, exc.message)
        else:
            self.log_change(request, tournament, done)
            self.message_user(
                request,
                # Translators: a tournament's name, then what was done to it.
                _("%(tournament)s: %(message)s") % {"tournament": tournament.name, "message": done},
                messages.SUCCESS,
            )
        return self._back(tournament)

    def _take(self, tournament: Tournament, step: str) -> str:
        """Take the step through its service; say what was done."""
        if step == steps.OPEN:
            ts.tournament_open_registration(tournament=tournament)
            return _("registration is open.")
        if step == steps.START:
            ts.tournament_start(tournament=tournament)
            return _("started; round 1 is paired.")
        if step == steps.FORFEIT:
            count = ts.tournament_forfeit_no_shows(tournament=tournament)
            return ngettext(
                "%(count)d pairing forfeited.", "%(count)d pairings forfeited.", count
            ) % {"count": count}
        if step == steps.CLOSE:
            rnd = ts.tournament_round_end(tournament=tournament)
            tournament.refresh_from_db()
            if tournament.status == Tournament.Status.FINISHED:
                return _("round %(round)d closed; the tournament is finished.") % {
                    "round": rnd.number
                }
            return _("round %(round)d closed; round %(next)d is paired.") % {
                "round": rnd.number,
                "next": tournament.current_round,
            }
        ts.tournament_finish(tournament=tournament)
        return _("finished: the standings are final.")

    def result_view(self, request: HttpRequest, object_id: str, pairing_id: int) -> HttpResponse:
        """Set a pairing's result: GET the choices and what it will do, POST to set it."""
        tournament = self._tournament_to_run(request, object_id)
        pairing = (
            TournamentMatch.objects.select_related(
                "round__tournament__league", "first", "second", "winner", "match", "result_set_by"
            )
            .filter(pk=pairing_id, round__tournament=tournament)
            .first()
        )
        if pairing is None:
            raise Http404
        decided = steps.tournament_step(tournament, steps.RESULT, pairing=pairing)
        if not decided.allowed:
            self._refused(request, decided, decided.reason)
            return self._back(tournament)
        if request.method != "POST":
            return self._confirm(request, tournament, decided)
        choice = request.POST.get("result", "")
        if choice not in dict(decided.choices):
            return self._confirm(request, tournament, decided, error=_("Choose a result."))
        winner_id, forfeit = steps.result_of_choice(pairing, choice)
        try:
            ts.pairing_result_set(
                pairing=pairing, winner_id=winner_id, forfeit=forfeit, by=request.user
            )
        except GameError as exc:
            self._refused(request, decided, exc.message)
        else:
            # Translators: a pairing ("Alice v Bob"), then the result an organiser set.
            done = _("result of %(pairing)s: %(result)s.") % {
                "pairing": ts.pair_name(pairing),
                "result": dict(decided.choices)[choice],
            }
            self.log_change(request, tournament, done)
            self.message_user(
                request,
                _("%(tournament)s: %(message)s") % {"tournament": tournament.name, "message": done},
                messages.SUCCESS,
            )
        return self._back(tournament)

    # --- the change list

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
    """A pairing: correct its result, whatever it is (``pairing_result_set(correction=True)``:
    a ranked match's winner changes with it and the league's ratings are recomputed). The
    tournament's page sets the results still missing."""

    league_lookup = "round__tournament__league"
    list_display = [
        "__str__",
        "board",
        "first",
        "second",
        "winner",
        "forfeit",
        "source",
        "match_shown",
    ]
    list_filter = ["source", "forfeit", "round__tournament__league", "round__tournament"]
    search_fields = ["first__username", "second__username", "round__tournament__name"]
    list_select_related = ["round__tournament", "first", "second", "winner"]
    fields = [
        "round",
        "board",
        "first_player",
        "second_player",
        "match_shown",
        "winner",
        "forfeit",
        "source",
        "result_set_by_shown",
    ]
    readonly_fields = [
        "round",
        "board",
        "first_player",
        "second_player",
        "match_shown",
        "source",
        "result_set_by_shown",
    ]

    # The players and the match by name, not as links: a league's moderator may not open the
    # accounts' or the games' admin.
    @admin.display(description=gettext_lazy("first player"))
    def first_player(self, obj: TournamentMatch) -> str:
        return obj.first.public_name

    @admin.display(description=gettext_lazy("second player"))
    def second_player(self, obj: TournamentMatch) -> str:
        return obj.second.public_name if obj.second_id else "-"

    @admin.display(description=gettext_lazy("match"))
    def match_shown(self, obj: TournamentMatch) -> str:
        if not obj.match_id:
            return "-"
        return _("Match %(number)s: %(first)s v %(second)s") % {
            "number": obj.match_id,
            "first": obj.match.seat_name(0),
            "second": obj.match.seat_name(1),
        }

    @admin.display(description=gettext_lazy("result set by"))
    def result_set_by_shown(self, obj: TournamentMatch) -> str:
        return obj.result_set_by.public_name if obj.result_set_by_id else "-"

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
        try:
            ts.pairing_result_set(
                pairing=obj,
                winner_id=obj.winner_id,
                forfeit=obj.forfeit,
                by=request.user,
                correction=True,
            )
        except GameError as exc:
            self.message_user(request, exc.message, messages.ERROR)
