"""The people lobby, ``/play/people/``: who is online, a search by name, the people played
lately (each with a one-click challenge), open seeks, challenges sent and received, challenge
links, a form to post a seek and one to challenge a player; and a challenge link's own page,
``/play/people/link/<token>/``. Every action is a POST form, so the pages work without
JavaScript; ``static/js/lobby.js`` keeps the lists live over ``/ws/me/``.
Thin: a form validates, one service acts, a message or the table follows."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.decorators import account_required
from games.models import Match
from games.presets import PRESETS, QUICK
from lobby import selectors, services
from lobby.errors import LobbyError
from lobby.forms import ChallengeForm, LinkForm, PeopleSearchForm, SeekForm
from lobby.models import Challenge, ChallengeLink

SEEK_PREFIX = "seek"
CHALLENGE_PREFIX = "challenge"
LINK_PREFIX = "link"
#: The session key of a signed-out visitor's invitation: {"token", "nonce"} (see ``link``).
LINK_JOIN = "lobby_link_join"


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
        **_people_lists(request),
    }
    return render(request, "lobby/people.html", context)


def _presets() -> list[dict[str, Any]]:
    """The presets a one-click challenge or a link offers, Quick first (and chosen)."""
    return [
        {"key": p.key, "label": p.label, "selected": p.key == QUICK.key} for p in PRESETS.values()
    ]


def _people_lists(request: HttpRequest) -> dict[str, Any]:
    """Who is online, the search and its results, the people played lately, your links."""
    user = request.user
    search_form = PeopleSearchForm(request.GET or None)
    query = search_form.cleaned_data["q"] if search_form.is_valid() else ""
    results = None
    if query:
        paginator = Paginator(
            selectors.people_search(viewer=user, query=query),  # type: ignore[arg-type]
            settings.LOBBY_SEARCH_PAGE,
        )
        results = paginator.get_page(request.GET.get("page"))
    online, online_count = selectors.people_online(viewer=user)  # type: ignore[arg-type]
    links = selectors.links_open(maker=user)  # type: ignore[arg-type]
    return {
        "online": [selectors.person_data(u) for u in online],
        "online_count": online_count,
        "search_form": search_form,
        "query": query,
        "results": results,
        "found": [selectors.person_data(u) for u in results] if results is not None else [],
        "recent": [
            {**selectors.person_data(u), "last": when}
            for u, when in selectors.recent_opponents(viewer=user)  # type: ignore[arg-type]
        ],
        "links": [_link_shown(request, link) for link in links],
        "presets": _presets(),
        "link_hours": max(1, settings.LOBBY_LINK_TTL // 3600),
    }


def _link_shown(request: HttpRequest, link: ChallengeLink) -> dict[str, Any]:
    return {
        "id": link.pk,
        "url": request.build_absolute_uri(selectors.link_url(link)),
        "summary": selectors.rules_summary(link.rules),
        "expires_at": link.expires_at.isoformat(),
        "expires": link.expires_at,
    }


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


def _back_to_people(request: HttpRequest) -> HttpResponse:
    """The people page again, with the search the one-click form came from."""
    query = str(request.POST.get("q") or "")[: selectors.SEARCH_MAX_LENGTH]
    url = reverse("lobby:people")
    return redirect(f"{url}?{urlencode({'q': query})}" if query else url)


@account_required
@require_POST
def challenge_quick(request: HttpRequest) -> HttpResponse:
    """A one-click challenge from the people lists: a username and a preset, casual."""
    form = ChallengeForm(request.POST, prefix=CHALLENGE_PREFIX)
    if not form.is_valid():
        messages.error(request, _("Choose the rules of the match, then challenge again."))
        return _back_to_people(request)
    try:
        challenge = services.challenge_create(
            challenger=request.user,
            challenged_username=form.cleaned_data["username"],
            rules=form.cleaned_data["rules"],
        )
    except LobbyError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            _("Challenge sent to %(name)s. You will be told here when they answer.")
            % {"name": challenge.challenged.public_name},
        )
    return _back_to_people(request)


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


# --- challenge links --------------------------------------------------------------------------


@account_required
@require_POST
def link_create(request: HttpRequest) -> HttpResponse:
    form = LinkForm(request.POST, prefix=LINK_PREFIX)
    if not form.is_valid():
        messages.error(request, _("Choose the rules of the match, then make the link again."))
        return redirect("lobby:people")
    try:
        services.link_create(maker=request.user, rules=form.cleaned_data["rules"])
    except LobbyError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("Your challenge link is ready: copy it and send it to a friend.")
        )
    return redirect(reverse("lobby:people") + "#links")


@account_required
@require_POST
def link_cancel(request: HttpRequest, link_id: int) -> HttpResponse:
    return _act(request, services.link_cancel, _("Challenge link cancelled."), link_id=link_id)


def _link_get(token: str) -> ChallengeLink:
    link = (
        ChallengeLink.objects.select_related("maker", "used_by", "challenge")
        .filter(token=token)
        .first()
    )
    if link is None:
        raise Http404(_("There is no such challenge link."))
    return link


@require_GET
def link(request: HttpRequest, token: str) -> HttpResponse:
    """A challenge link, for anyone who has it: who invites, the rules, and what to do. A
    signed-out visitor is offered sign-up and log-in, each coming back here with a ``join``
    nonce kept in their session (not in the link): back here signed in with it, they are
    seated at once. The nonce is the proof that this browser itself asked to join, as a CSRF
    token would be, so nobody can seat a player by sending them to a URL."""
    found = _link_get(token)
    user = request.user
    signed_in = bool(user.is_authenticated)
    here = selectors.link_url(found)
    join = request.session.get(LINK_JOIN) if signed_in else None
    given = request.GET.get("join")
    if signed_in and given and isinstance(join, dict) and join.get("token") == token:
        request.session.pop(LINK_JOIN, None)
        if secrets.compare_digest(str(join.get("nonce", "")), given):
            return _link_accept(request, token)
    context: dict[str, Any] = {
        "link": found,
        "state": selectors.link_state(found),
        "maker": selectors.person_data(found.maker),
        "summary": selectors.rules_summary(found.rules),
        "url": request.build_absolute_uri(here),
        "is_maker": signed_in and found.maker_id == user.pk,
        "guest": bool(getattr(user, "is_guest", False)),
        "table_url": None,
    }
    if signed_in and found.used_by_id == user.pk:
        context["table_url"] = selectors.link_table_url(found)
    if not signed_in and context["state"] == ChallengeLink.Status.OPEN:
        kept = request.session.get(LINK_JOIN)
        if isinstance(kept, dict) and kept.get("token") == token:
            nonce = str(kept.get("nonce"))  # the same in every tab of this link
        else:
            nonce = secrets.token_urlsafe(16)
            request.session[LINK_JOIN] = {"token": token, "nonce": nonce}
        back = urlencode({"next": f"{here}?{urlencode({'join': nonce})}"})
        context["signup_url"] = f"{reverse('accounts:signup')}?{back}"
        context["login_url"] = f"{reverse('accounts:login')}?{back}"
    return render(request, "lobby/link.html", context)


def _link_accept(request: HttpRequest, token: str) -> HttpResponse:
    try:
        match = services.link_accept(token=token, user=request.user)
    except LobbyError as exc:
        messages.error(request, exc.message)
        return redirect("lobby:link", token=token)
    return _to_table(match)


@require_POST
def link_accept(request: HttpRequest, token: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect("lobby:link", token=token)  # the page offers sign-up and log-in
    _link_get(token)
    return _link_accept(request, token)
