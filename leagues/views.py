"""League pages under ``/leagues/``: the list, a league (standings, rules, matches), joining and
leaving, moderators' requests page, the ranked queue page and a ranked match against a bot.
Thin: a selector or one service, then a template or a redirect with a message."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import account_required
from core.errors import GameError
from games.models import BotLevel
from leagues import selectors, services
from leagues.models import League, Membership
from leagues.permissions import league_may_moderate
from leagues.seasons import league_seasons
from lobby import services as lobby_services
from lobby.errors import LobbyError
from lobby.forms import RankedChallengeForm


def _league(slug: str) -> League:
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise Http404(_("No such league."))
    return league


@require_GET
def league_list(request: HttpRequest) -> HttpResponse:
    active, archived = selectors.leagues_for_list()
    mine = {}
    if request.user.is_authenticated:
        mine = {
            m.league_id: m
            for m in Membership.objects.filter(user_id=request.user.pk).only("league", "status")
        }
    rows = [{"league": lg, "membership": mine.get(lg.pk)} for lg in active]
    return render(request, "leagues/list.html", {"rows": rows, "archived": archived})


@require_GET
def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    sort = request.GET.get("sort", "rating")
    if sort not in selectors.SORTS:
        sort = "rating"
    membership = selectors.membership_of(league=league, user=request.user)
    season_now, seasons_past = league_seasons(league=league)
    context: dict[str, Any] = {
        "league": league,
        "membership": membership,
        "you": selectors.member_rating(membership=membership),
        "standings": selectors.league_standings(league=league, sort=sort),
        "sort": sort,
        "sorts": [
            ("rating", _("Rating")),
            ("matches", _("Matches")),
            ("wins", _("Wins")),
            ("points", _("Points")),
        ],
        "rules_lines": selectors.league_rules_lines(league),
        "live": selectors.league_matches_live(league=league),
        "recent": selectors.league_matches_recent(league=league),
        "may_moderate": league_may_moderate(league=league, user=request.user),
        "pending_count": len(selectors.league_requests(league=league)),
        "bot_levels": BotLevel.choices,
        "tournaments": _league_tournaments(league),
        "season_now": season_now,
        "seasons_past": seasons_past,
        "established_opponents": settings.LEAGUES_ESTABLISHED_OPPONENTS,
    }
    return render(request, "leagues/detail.html", context)


def _league_tournaments(league: League) -> list[Any]:
    from leagues.tournaments.selectors import league_tournaments

    return league_tournaments(league)


@account_required
@require_POST
def league_join(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    try:
        membership = services.league_join(league=league, user=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        if membership.is_active:
            messages.success(request, _("Welcome to %(league)s.") % {"league": league.name})
        else:
            messages.success(
                request,
                _("Your request to join %(league)s waits for a moderator.")
                % {"league": league.name},
            )
    return redirect("leagues:detail", slug=league.slug)


@account_required
@require_POST
def league_leave(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    membership = services.league_leave(league=league, user=request.user)
    if membership is not None and membership.status == Membership.Status.LEFT:
        messages.success(request, _("You left %(league)s.") % {"league": league.name})
    return redirect("leagues:detail", slug=league.slug)


@account_required
@require_GET
def league_requests(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(slug)
    if not league_may_moderate(league=league, user=request.user):
        raise PermissionDenied(_("Only this league's moderators may see its requests."))
    return render(
        request,
        "leagues/requests.html",
        {"league": league, "requests": selectors.league_requests(league=league)},
    )


def _answer(request: HttpRequest, slug: str, membership_id: int, *, approve: bool) -> HttpResponse:
    league = _league(slug)
    if not Membership.objects.filter(pk=membership_id, league=league).exists():
        raise Http404(_("No such request in this league."))
    service = services.membership_approve if approve else services.membership_decline
    try:
        membership = service(membership_id=membership_id, moderator=request.user)
    except GameError as exc:
        if exc.code == "forbidden" and not league_may_moderate(league=league, user=request.user):
            raise PermissionDenied(exc.message) from None
        messages.error(request, exc.message)
    else:
        name = membership.user.public_name
        messages.success(
            request,
            (_("%(name)s is now a member.") if approve else _("%(name)s's request was declined."))
            % {"name": name},
        )
    return redirect("leagues:requests", slug=league.slug)


@account_required
@require_POST
def membership_approve(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    return _answer(request, slug, membership_id, approve=True)


@account_required
@require_POST
def membership_decline(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    return _answer(request, slug, membership_id, approve=False)


@account_required
@require_POST
def ranked_challenge(request: HttpRequest, slug: str) -> HttpResponse:
    """A member challenges a member to a ranked match of their league (from its standings);
    back to the league's page with a message."""
    form = RankedChallengeForm({"username": request.POST.get("username", ""), "league": slug})
    if not form.is_valid():
        messages.error(request, _("Say whom to challenge, and in which league."))
        return redirect("leagues:list")
    league = League.objects.filter(slug=form.cleaned_data["league"]).first()
    if league is None:
        messages.error(request, _("There is no such league."))
        return redirect("leagues:list")
    try:
        challenge = lobby_services.challenge_create(
            challenger=request.user,
            challenged_username=form.cleaned_data["username"],
            league=league,
        )
    except LobbyError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Ranked challenge sent to %(name)s. You will be told when they answer.")
            % {"name": challenge.challenged.public_name},
        )
    return redirect("leagues:detail", slug=league.slug)


@account_required
@require_GET
def league_queue(request: HttpRequest, slug: str) -> HttpResponse:
    """The waiting page: its script opens the queue socket (joining); leaving the page leaves."""
    league = _league(slug)
    try:
        membership = services.ranked_player_check(league=league, user=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("leagues:detail", slug=league.slug)
    shown = services.membership_rating_now(membership)
    return render(
        request,
        "leagues/queue.html",
        {
            "league": league,
            "rating": round(shown.rating),
            "provisional": services.rating_provisional(membership, shown),
            "ws_path": f"/ws/leagues/{league.slug}/queue/",
        },
    )


@account_required
@require_POST
def league_play_bot(request: HttpRequest, slug: str) -> HttpResponse:
    """A ranked match against a bot, where the league allows it."""
    league = _league(slug)
    bot = request.POST.get("bot", "")
    if bot not in BotLevel.values:
        messages.error(request, _("Choose a bot."))
        return redirect("leagues:detail", slug=league.slug)
    try:
        match = services.ranked_match_create(league=league, user0=request.user, bot=bot)
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("leagues:detail", slug=league.slug)
    game = match.current_game
    assert game is not None
    return redirect("games:table", game_id=game.pk)


# --- tournaments ------------------------------------------------------------------------------


def _tournament(request: HttpRequest, slug: str, tslug: str) -> Any:
    """The tournament at this address, or 404: for a missing one and for a draft the visitor
    may not see (``tournament_visible_to``, the API's rule)."""
    from leagues.models import Tournament
    from leagues.tournaments.selectors import tournament_visible_to

    tournament = (
        Tournament.objects.select_related("league").filter(league__slug=slug, slug=tslug).first()
    )
    if tournament is None or not tournament_visible_to(tournament, request.user):
        raise Http404(_("No such tournament."))
    return tournament


@require_GET
def tournament_detail(request: HttpRequest, slug: str, tslug: str) -> HttpResponse:
    """A tournament: entrants, standings with tie-breaks, the bracket (elimination), rounds
    with pairings, results and links to live tables and replays; register / withdraw."""
    from leagues.models import Entry, Tournament
    from leagues.tournaments import selectors as tsel

    tournament = _tournament(request, slug, tslug)
    entry = None
    if request.user.is_authenticated:
        entry = Entry.objects.filter(tournament=tournament, user_id=request.user.pk).first()
    membership = selectors.membership_of(league=tournament.league, user=request.user)
    bracket = None
    if tournament.format == Tournament.Format.ELIMINATION and tournament.status in (
        Tournament.Status.RUNNING,
        Tournament.Status.FINISHED,
    ):
        bracket = tsel.tournament_bracket_view(tournament)
    standings = (
        tsel.tournament_standings(tournament)
        if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
        else []
    )
    rounds = tsel.tournament_rounds_view(tournament, viewer=request.user)
    context: dict[str, Any] = {
        "league": tournament.league,
        "tournament": tournament,
        "entry": entry,
        "may_register": tournament.status == Tournament.Status.REGISTRATION
        and membership is not None
        and membership.is_active
        and (entry is None or entry.is_withdrawn),
        "may_withdraw": entry is not None
        and not entry.is_withdrawn
        and tournament.status != Tournament.Status.FINISHED,
        "entries": tsel.tournament_entries(tournament),
        "standings": standings,
        "winner": tsel.tournament_winner(tournament, standings),
        "rounds": rounds,
        "yours": tsel.tournament_your_pairing(tournament, rounds, viewer=request.user),
        "bracket": bracket,
        "planned": tsel.planned_rounds_shown(tournament),
    }
    return render(request, "leagues/tournament.html", context)


@account_required
@require_POST
def tournament_register(request: HttpRequest, slug: str, tslug: str) -> HttpResponse:
    from leagues.tournaments import services as tservices

    tournament = _tournament(request, slug, tslug)
    try:
        tservices.tournament_register(tournament=tournament, user=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You are entered in %(t)s.") % {"t": tournament.name})
    return redirect("leagues:tournament", slug=slug, tslug=tslug)


@account_required
@require_POST
def tournament_withdraw(request: HttpRequest, slug: str, tslug: str) -> HttpResponse:
    from leagues.tournaments import services as tservices

    tournament = _tournament(request, slug, tslug)
    try:
        tservices.tournament_withdraw(tournament=tournament, user=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("You withdrew from %(t)s.") % {"t": tournament.name})
    return redirect("leagues:tournament", slug=slug, tslug=tslug)
