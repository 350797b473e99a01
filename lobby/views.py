"""The people lobby, ``/play/people/``: open seeks, challenges sent and received, a form to
post a seek and one to challenge a player. Every action is a POST form, so the page works
without JavaScript; ``static/js/lobby.js`` keeps the lists live over ``/ws/me/``.
Thin: a form validates, one service acts, a message or the table follows."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import account_required
from games.models import Match
from lobby import selectors, services
from lobby.errors import LobbyError
from lobby.forms import ChallengeForm, SeekForm
from lobby.models import Challenge

SEEK_PREFIX = "seek"
CHALLENGE_PREFIX = "challenge"


def _shown(challenge: Challenge, viewer_id: int) -> dict[str, Any]:
    """A challenge as the socket carries it, with its expiry as a datetime for the template."""
    return {
        **selectors.challenge_data(challenge, viewer_id=viewer_id),
        "expires": challenge.expires_at,
    }


def _people_page(
    request: HttpRequest,
    *,
    seek_form: SeekForm | None = None,
    challenge_form: ChallengeForm | None = None,
) -> HttpResponse:
    user = request.user
    if challenge_form is None:
        initial = {"username": request.GET.get("username", "")[:150]}
        challenge_form = ChallengeForm(prefix=CHALLENGE_PREFIX, initial=initial)
    pending = selectors.challenges_pending(user=user)  # type: ignore[arg-type]
    context: dict[str, Any] = {
        "seek_form": seek_form or SeekForm(prefix=SEEK_PREFIX),
        "challenge_form": challenge_form,
        "seeks": [
            {**selectors.seek_data(s, viewer_id=user.pk), "expires": s.expires_at}
            for s in selectors.seeks_open(user=user)  # type: ignore[arg-type]
        ],
        "received": [_shown(c, user.pk) for c in pending if c.challenged_id == user.pk],
        "sent": [_shown(c, user.pk) for c in pending if c.challenger_id == user.pk],
        "seek_minutes": max(1, settings.LOBBY_SEEK_TTL // 60),
        "challenge_minutes": max(1, settings.LOBBY_CHALLENGE_TTL // 60),
    }
    return render(request, "lobby/people.html", context)


def _to_table(match: Match) -> HttpResponse:
    game = match.current_game
    if game is None:  # pragma: no cover - a match is always created with its first game
        return redirect("lobby:people")
    return redirect("games:table", game_id=game.pk)


@account_required
@require_GET
def people(request: HttpRequest) -> HttpResponse:
    services.lobby_expire()
    return _people_page(request)


@account_required
@require_POST
def challenge_create(request: HttpRequest) -> HttpResponse:
    form = ChallengeForm(request.POST, prefix=CHALLENGE_PREFIX)
    if form.is_valid():
        try:
            challenge = services.challenge_create(
                challenger=request.user,
                challenged_username=form.cleaned_data["username"],
                rules=form.cleaned_data["rules"],
            )
        except LobbyError as exc:
            form.add_error("username", exc.message)
        else:
            messages.success(
                request,
                _("Challenge sent to %(name)s. You will be told here when they answer.")
                % {"name": challenge.challenged.public_name},
            )
            return redirect("lobby:people")
    return _people_page(request, challenge_form=form)


@account_required
@require_POST
def seek_create(request: HttpRequest) -> HttpResponse:
    form = SeekForm(request.POST, prefix=SEEK_PREFIX)
    if form.is_valid():
        try:
            services.seek_create(owner=request.user, rules=form.cleaned_data["rules"])
        except LobbyError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Your seek is posted. The first to take it plays you."))
            return redirect("lobby:people")
    return _people_page(request, seek_form=form)


def _act(request: HttpRequest, action: Any, done: str | None = None, **ids: int) -> HttpResponse:
    """Run one service on a challenge or seek; a match goes to its table, anything else back
    to the lobby with a message."""
    try:
        result = action(user=request.user, **ids)
    except LobbyError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:people")
    if isinstance(result, Match):
        return _to_table(result)
    if done:
        messages.success(request, done)
    return redirect("lobby:people")


@account_required
@require_POST
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _act(request, services.challenge_accept, challenge_id=challenge_id)


@account_required
@require_POST
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _act(
        request, services.challenge_decline, _("Challenge declined."), challenge_id=challenge_id
    )


@account_required
@require_POST
def challenge_cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _act(
        request, services.challenge_cancel, _("Challenge cancelled."), challenge_id=challenge_id
    )


@account_required
@require_POST
def seek_take(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _act(request, services.seek_take, seek_id=seek_id)


@account_required
@require_POST
def seek_cancel(request: HttpRequest, seek_id: int) -> HttpResponse:
    return _act(request, services.seek_cancel, _("Seek cancelled."), seek_id=seek_id)
