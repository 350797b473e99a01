"""The lobby and the table page. Thin: a form or a selector, one service, a template."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from accounts.selectors import user_is_guest
from accounts.services import LOGIN_BACKEND
from core.client_address import client_address
from core.errors import GameError
from games import services
from games.clocks import turn as clock
from games.forms import MatchCreateForm
from games.guests import guest_match_create
from games.hints import hints_used
from games.models import SEATS, Match
from games.reviews import review_page
from games.selectors import (
    game_get,
    game_replay_frames,
    game_result,
    game_state_frame,
    games_live,
    live_game_rows,
    match_history_for,
    match_history_rows,
    matches_in_progress,
)

PER_PAGE = 25


@require_http_methods(["GET", "POST"])
def lobby(request: HttpRequest) -> HttpResponse:
    """GET: the form to start a match against a bot, and the user's matches in progress.
    POST: start the match and go to its first game's table; a visitor plays as a guest
    (games.guests), signed in as one for this browser session."""
    if request.method == "POST":
        form = MatchCreateForm(request.POST)
        if form.is_valid():
            try:
                match = _match_start(request, form.cleaned_data)
            except GameError as exc:
                form.add_error(None, exc.message)
            else:
                game = match.current_game
                if game is None:  # pragma: no cover - a match is created with its first game
                    return redirect("games:lobby")
                return redirect("games:table", game_id=game.pk)
    else:
        form = MatchCreateForm()
    context = {"form": form, "matches_in_progress": matches_in_progress(user=request.user)}
    return render(request, "games/lobby.html", context)


def _match_start(request: HttpRequest, cleaned: dict[str, Any]) -> Match:
    bot, rules = cleaned["bot"], cleaned["rules"]
    user = request.user
    if user.is_authenticated and not user_is_guest(user):
        return services.match_create(user=user, bot=bot, rules=rules)
    match = guest_match_create(user=user, address=client_address(request), bot=bot, rules=rules)
    if not user.is_authenticated:
        login(request, match.user0, backend=LOGIN_BACKEND)
    return match


@require_GET
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live table of one game, for its players and for anyone watching."""
    try:
        game = game_get(game_id=game_id)
    except GameError:
        raise Http404(_("No such game.")) from None
    match = game.match
    seat = match.seat_of(request.user)
    context = {
        "game": game,
        "match": match,
        "seat": seat,
        "ws_path": f"/ws/games/{game.pk}/",
        "initial_state": game_state_frame(game, seat),
        "seat_names": [match.seat_name(s) for s in SEATS],
    }
    return render(request, "games/table.html", context)


@require_GET
def match(request: HttpRequest, match_id: int) -> HttpResponse:
    """A match's address: its current game's table (after the match, its last game's)."""
    found = Match.objects.filter(pk=match_id).first()
    if found is None:
        raise Http404(_("No such match."))
    game = found.current_game
    if game is None:
        raise Http404(_("This match has no game."))
    return redirect(reverse("games:table", kwargs={"game_id": game.pk}))


@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    """The games moved in recently, most recently moved first, each with its last move's time,
    its center stacks and its spectators: pick one to watch."""
    now = clock.now()
    page = Paginator(games_live(now=now), PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "rows": live_game_rows(list(page.object_list), now=now),
        "recent_minutes": max(1, round(float(settings.GAMES_WATCH_RECENT) / 60)),
    }
    return render(request, "games/watch.html", context)


@require_GET
def history(request: HttpRequest, username: str) -> HttpResponse:
    """One player's matches, newest first: opponent, result, scores, replays of the games."""
    player = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if player is None or (player.is_guest and player.pk != request.user.pk):
        raise Http404(_("No such player."))  # a guest's games are listed to that guest only
    page = Paginator(match_history_for(player), PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "player": player,
        "page": page,
        "rows": match_history_rows(list(page.object_list), player),
    }
    return render(request, "games/history.html", context)


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game that is over, both hands shown. A game in play has no replay (it
    would show the hands): that address leads to its table."""
    try:
        game = game_get(game_id=game_id)
    except GameError:
        raise Http404(_("No such game.")) from None
    if game.is_active:
        messages.info(
            request, _("This game is still being played: its replay opens once it is over.")
        )
        return redirect("games:table", game_id=game.pk)
    match = game.match
    context = {
        "game": game,
        "match": match,
        "seat_names": [match.seat_name(s) for s in SEATS],
        "frames": game_replay_frames(game),
        "result": game_result(game),
        "share_url": request.build_absolute_uri(reverse("games:replay", args=[game.pk])),
        "review": review_page(game),
        "hints": [
            {"name": match.seat_name(seat), "count": count}
            for seat, count in enumerate(hints_used(game))
            if count
        ],
    }
    return render(request, "games/replay.html", context)
