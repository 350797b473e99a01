"""The lobby and the table page. Thin: a form or a selector, one service, a template."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from games import services
from games.errors import GameError
from games.forms import MatchCreateForm
from games.models import SEATS, Match
from games.selectors import game_get, game_state_frame, matches_in_progress


@require_http_methods(["GET", "POST"])
def lobby(request: HttpRequest) -> HttpResponse:
    """GET: the form to start a match against a bot, and the user's matches in progress.
    POST: start the match (log-in required) and go to its first game's table."""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        form = MatchCreateForm(request.POST)
        if form.is_valid():
            match = services.match_create(
                user=request.user, bot=form.cleaned_data["bot"], rules=form.cleaned_data["rules"]
            )
            game = match.current_game
            return redirect("games:table", game_id=game.pk) if game else redirect("games:lobby")
    else:
        form = MatchCreateForm()
    context = {"form": form, "matches_in_progress": matches_in_progress(user=request.user)}
    return render(request, "games/lobby.html", context)


@require_GET
def table(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live table of one game, for its players and for anyone watching."""
    try:
        game = game_get(game_id=game_id)
    except GameError:
        raise Http404("No such game.") from None
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
    found = get_object_or_404(Match, pk=match_id)
    game = found.current_game
    if game is None:
        raise Http404("This match has no game.")
    return redirect(reverse("games:table", kwargs={"game_id": game.pk}))
