"""The admin's choices follow the moderator's leagues (issue 23, point 11): every admin form
field that names a league, tournament, membership or match offers a staff moderator of league
A only A's rows, and a crafted POST naming league B's row is refused (a form error, nothing
saved); the admin's autocomplete answers only A's rows too. A superuser sees everything.

One test per admin model with such a field (Membership, Tournament, QueueEntry, Match,
Challenge, Seek); the Membership form in Chromium is in tests/browser/test_admin_scoping.py."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.forms import MultiWidget
from django.urls import reverse
from django.utils import timezone

from games.models import Match
from leagues.models import League, Membership, QueueEntry, Tournament
from leagues.tournaments import services as ts
from lobby.models import Challenge, Seek
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import SMALL, join, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture
def south(db) -> League:
    return make_league("south")


@pytest.fixture
def mod(league):
    """A staff member who moderates the North League (league A) only."""
    user = UserFactory(username="mod", is_staff=True)
    join(league, user, role=Membership.Role.MODERATOR)
    return user


def grant(user: Any, app_label: str, model: str) -> None:
    """Give ``user`` the add/change/view permissions on one model (not on the leagues)."""
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label=app_label,
            codename__in=[f"{verb}_{model}" for verb in ("add", "change", "view")],
        )
    )


def choices(response: Any, field: str) -> set[int]:
    """The primary keys the admin form's ``field`` accepts."""
    assert response.status_code == 200, response.content.decode()[:2000]
    return set(
        response.context["adminform"].form.fields[field].queryset.values_list("pk", flat=True)
    )


def form_data(response: Any, **changes: Any) -> dict[str, Any]:
    """What a browser would post back from the admin form in ``response``, with ``changes``."""
    data: dict[str, Any] = {}

    def put(form: Any, name: str) -> None:
        value = form[name].value()
        key = form.add_prefix(name)
        widget = form.fields[name].widget
        if isinstance(widget, MultiWidget):
            for i, part in enumerate(widget.decompress(value)):
                if part is not None:
                    data[f"{key}_{i}"] = part
        elif isinstance(value, bool):
            if value:
                data[key] = "on"
        elif isinstance(value, (list, tuple)):
            data[key] = list(value)
        elif value is not None:
            data[key] = value

    form = response.context["adminform"].form
    for name in form.fields:
        put(form, name)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        for name in formset.management_form.fields:
            data[f"{formset.prefix}-{name}"] = formset.management_form[name].value()
        for each in formset.initial_forms:
            for name in each.fields:
                put(each, name)
    data.update(changes)
    return data


def refused(response: Any, field: str) -> None:
    """The admin answered the crafted POST with the form again, an error on ``field``."""
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field in errors, errors


def test_the_membership_form_never_lets_a_moderator_move_a_member(
    client, league, south, mod, alice
) -> None:
    """A moderator changes a membership through the actions only (leagues.permissions): its
    league is shown, not offered, and a crafted POST naming another league moves nothing."""
    own = Membership.objects.get(user=mod)
    member = join(league, alice)
    client.force_login(mod)
    for membership in (own, member):
        url = reverse("admin:leagues_membership_change", args=[membership.pk])
        page = client.get(url)
        assert page.status_code == 200
        assert "league" not in page.context["adminform"].form.fields
        client.post(url, {"league": south.pk, "role": "moderator", "status": "active"})
        membership.refresh_from_db()
        assert membership.league_id == league.pk
    member.refresh_from_db()
    assert member.role == Membership.Role.PLAYER
    assert not Membership.objects.filter(league=south).exists()


def test_a_superuser_is_offered_every_league(client, league, south, alice) -> None:
    root = UserFactory(username="root", is_staff=True, is_superuser=True)
    member = join(league, alice)
    client.force_login(root)
    url = reverse("admin:leagues_membership_change", args=[member.pk])
    page = client.get(url)
    assert choices(page, "league") == {league.pk, south.pk}
    assert client.post(url, form_data(page, league=south.pk)).status_code == 302
    member.refresh_from_db()
    assert member.league_id == south.pk


def test_the_tournament_form_offers_a_moderator_their_own_leagues_only(
    client, league, south, mod
) -> None:
    client.force_login(mod)
    url = reverse("admin:leagues_tournament_add")
    page = client.get(url)
    assert choices(page, "league") == {league.pk}
    data = form_data(page, league=south.pk, name="Theirs", slug="theirs", format="swiss")
    refused(client.post(url, data), "league")
    assert not Tournament.objects.exists()


def test_the_queue_entry_form_offers_a_moderator_their_own_leagues_only(
    client, league, south, mod, alice
) -> None:
    grant(mod, "leagues", "queueentry")
    now = timezone.now()
    entry = QueueEntry.objects.create(
        league=league, user=alice, rating_at_join=1500, joined_at=now, seen_at=now
    )
    client.force_login(mod)
    url = reverse("admin:leagues_queueentry_change", args=[entry.pk])
    page = client.get(url)
    assert choices(page, "league") == {league.pk}
    refused(client.post(url, form_data(page, league=south.pk)), "league")
    entry.refresh_from_db()
    assert entry.league_id == league.pk
    add = reverse("admin:leagues_queueentry_add")
    assert choices(client.get(add), "league") == {league.pk}


def test_the_match_form_offers_a_moderator_their_own_leagues_only(
    client, league, south, mod, alice, bob
) -> None:
    grant(mod, "games", "match")
    match = Match.objects.create(user0=alice, user1=bob, rules=SMALL.to_dict(), league=league)
    client.force_login(mod)
    url = reverse("admin:games_match_change", args=[match.pk])
    page = client.get(url)
    assert choices(page, "league") == {league.pk}
    refused(client.post(url, form_data(page, league=south.pk)), "league")
    match.refresh_from_db()
    assert match.league_id == league.pk


def _matches(league: League, south: League, alice: Any, bob: Any) -> tuple[Match, Match]:
    ours = Match.objects.create(user0=alice, user1=bob, rules=SMALL.to_dict(), league=league)
    theirs = Match.objects.create(user0=alice, user1=bob, rules=SMALL.to_dict(), league=south)
    return ours, theirs


def test_the_challenge_form_offers_a_moderator_their_own_leagues_and_matches_only(
    client, league, south, mod, alice, bob
) -> None:
    grant(mod, "lobby", "challenge")
    ours, theirs = _matches(league, south, alice, bob)
    challenge = Challenge.objects.create(
        challenger=alice,
        challenged=bob,
        rules=SMALL.to_dict(),
        league=league,
        expires_at=timezone.now() + timedelta(hours=1),
    )
    client.force_login(mod)
    url = reverse("admin:lobby_challenge_change", args=[challenge.pk])
    page = client.get(url)
    assert choices(page, "league") == {league.pk}
    assert choices(page, "match") == {ours.pk}
    refused(client.post(url, form_data(page, league=south.pk)), "league")
    refused(client.post(url, form_data(page, match=theirs.pk)), "match")
    challenge.refresh_from_db()
    assert challenge.league_id == league.pk and challenge.match_id is None
    assert client.post(url, form_data(page, match=ours.pk)).status_code == 302
    challenge.refresh_from_db()
    assert challenge.match_id == ours.pk


def test_the_seek_form_offers_a_moderator_their_own_matches_only(
    client, league, south, mod, alice, bob
) -> None:
    grant(mod, "lobby", "seek")
    ours, theirs = _matches(league, south, alice, bob)
    seek = Seek.objects.create(
        owner=alice, rules=SMALL.to_dict(), expires_at=timezone.now() + timedelta(hours=1)
    )
    client.force_login(mod)
    url = reverse("admin:lobby_seek_change", args=[seek.pk])
    page = client.get(url)
    assert choices(page, "match") == {ours.pk}
    refused(client.post(url, form_data(page, match=theirs.pk)), "match")
    seek.refresh_from_db()
    assert seek.match_id is None


def test_every_admin_and_inline_of_the_site_scopes_its_choices() -> None:
    """One mixin serves every admin: a new admin or inline without it fails here."""
    from django.contrib import admin

    from core.admin import ScopedChoices

    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in {"accounts", "games", "lobby", "leagues", "api"}:
            continue  # Django's, django-axes' and django-q2's own admins name no league
        assert isinstance(model_admin, ScopedChoices), model
        for inline in model_admin.inlines:
            assert issubclass(inline, ScopedChoices), inline


def autocomplete(client: Any, app_label: str, model_name: str, field_name: str, term: str = ""):
    return client.get(
        reverse("admin:autocomplete"),
        {"term": term, "app_label": app_label, "model_name": model_name, "field_name": field_name},
    )


def test_the_autocomplete_answers_a_moderator_with_their_own_rows_only(
    client, league, south, mod, alice, bob
) -> None:
    ts.tournament_create(league=league, name="North Cup", slug="ncup", format="swiss")
    ts.tournament_create(league=south, name="South Cup", slug="scup", format="swiss")
    join(league, alice)
    join(south, bob)
    client.force_login(mod)

    def texts(*args: str, term: str = "") -> list[str]:
        response = autocomplete(client, *args, term=term)
        if response.status_code == 403:
            return []
        assert response.status_code == 200, response.content
        return [row["text"] for row in response.json()["results"]]

    assert texts("leagues", "membership", "league") == ["North League"]
    assert texts("leagues", "membership", "league", term="South") == []
    assert texts("leagues", "entry", "tournament") == ["North Cup (North League)"]
    assert texts("leagues", "entry", "tournament", term="South") == []
    members = texts("leagues", "ratingchange", "membership")
    assert members and all("North" in text for text in members)
    assert texts("leagues", "ratingchange", "membership", term="bob") == []
    _matches(league, south, alice, bob)
    assert texts("lobby", "challenge", "match") == []  # no permission on matches: refused
