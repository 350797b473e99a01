"""Who may run a league (leagues/permissions.py), per role, through the admin, the site's
requests page and the API alike: an operator of every league (a superuser, or staff granted
"change league"), a league's moderator (staff or not) for that league only, and nobody else —
plain staff included."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse

from api.services import api_token_create
from leagues.models import League, Membership, Tournament
from leagues.permissions import league_may_moderate, runs_every_league
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db

PASSWORD = "perm-pass-1"
ROLES = ["superuser", "operator", "plain_staff", "moderator", "staff_moderator", "member"]
#: Which leagues each role runs: "both", "north" (the league it moderates) or "none".
RUNS = {
    "superuser": "both",
    "operator": "both",
    "plain_staff": "none",
    "moderator": "north",
    "staff_moderator": "north",
    "member": "none",
}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.JOBS_INLINE = False


@pytest.fixture
def world(db) -> dict[str, Any]:
    north = make_league("north", admission=League.Admission.APPROVAL)
    south = make_league("south", admission=League.Admission.APPROVAL)
    users = {
        "superuser": UserFactory(username="root", is_staff=True, is_superuser=True),
        "operator": UserFactory(username="ops", is_staff=True),
        "plain_staff": UserFactory(username="desk", is_staff=True),
        "moderator": UserFactory(username="mod"),
        "staff_moderator": UserFactory(username="smod", is_staff=True),
        "member": UserFactory(username="member"),
    }
    for user in users.values():
        user.set_password(PASSWORD)
        user.save()
    users["operator"].user_permissions.add(
        Permission.objects.get(codename="change_league", content_type__app_label="leagues")
    )
    join(north, users["moderator"], role=Membership.Role.MODERATOR)
    join(north, users["staff_moderator"], role=Membership.Role.MODERATOR)
    join(north, users["member"])
    join(south, UserFactory(username="southmod"), role=Membership.Role.MODERATOR)
    pending = {
        league.slug: join(league, UserFactory(username=f"new-{league.slug}"), status="pending")
        for league in (north, south)
    }
    active = {
        league.slug: join(league, UserFactory(username=f"old-{league.slug}"))
        for league in (north, south)
    }
    cups = {
        league.slug: ts.tournament_create(
            league=league, name=f"{league.name} Cup", slug="cup", format="swiss"
        )
        for league in (north, south)
    }
    return {
        "leagues": {"north": north, "south": south},
        "users": users,
        "pending": pending,
        "active": active,
        "cups": cups,
    }


def runs(role: str, league: str) -> bool:
    return RUNS[role] == "both" or RUNS[role] == league


@pytest.mark.parametrize("role", ROLES)
def test_the_rule_itself(world, role) -> None:
    user = world["users"][role]
    assert runs_every_league(user) == (RUNS[role] == "both")
    for slug, league in world["leagues"].items():
        assert league_may_moderate(league=league, user=user) == runs(role, slug)
        assert league_may_moderate(league=league.pk, user=user) == runs(role, slug)


@pytest.mark.parametrize("role", ROLES)
def test_the_admin_opens_to_whoever_runs_a_league_and_shows_only_their_leagues(
    client, world, role
) -> None:
    response = client.post(
        reverse("admin:login"), {"username": role_name(world, role), "password": PASSWORD}
    )
    opens = RUNS[role] != "none" or role == "plain_staff"  # Django's own rule: staff log in
    assert (response.status_code == 302) == opens, role
    if not opens:
        return
    changelist = client.get(reverse("admin:leagues_tournament_changelist"))
    if RUNS[role] == "none":
        assert changelist.status_code == 403
        return
    shown = {t.league.slug for t in changelist.context["cl"].result_list}
    assert shown == ({"north", "south"} if RUNS[role] == "both" else {"north"})
    for slug, cup in world["cups"].items():
        page = client.get(reverse("admin:leagues_tournament_change", args=[cup.pk]))
        assert (page.status_code == 200) == runs(role, slug), (role, slug)


def role_name(world: dict[str, Any], role: str) -> str:
    return str(world["users"][role].username)


@pytest.mark.parametrize("role", ["superuser", "moderator", "staff_moderator"])
def test_whoever_runs_a_league_creates_its_tournaments_and_no_other_league_s(
    client, world, role
) -> None:
    client.force_login(world["users"][role])
    for slug, league in world["leagues"].items():
        client.post(
            reverse("admin:leagues_tournament_add"),
            {
                "league": league.pk,
                "name": f"Spring {slug}",
                "slug": "spring",
                "format": "swiss",
                "rounds": "3",
                "ranked": "on",
                "entries-TOTAL_FORMS": "0",
                "entries-INITIAL_FORMS": "0",
                "round_set-TOTAL_FORMS": "0",
                "round_set-INITIAL_FORMS": "0",
            },
        )
        made = Tournament.objects.filter(league=league, slug="spring")
        assert made.exists() == runs(role, slug), (role, slug)
        if made.exists():
            assert made.get().created_by == world["users"][role]


@pytest.mark.parametrize("role", ROLES)
def test_approving_and_banning_in_the_admin_only_in_the_leagues_one_runs(
    client, world, role
) -> None:
    client.force_login(world["users"][role])
    changelist = reverse("admin:leagues_membership_changelist")
    for slug in ("north", "south"):
        pending, active = world["pending"][slug], world["active"][slug]
        client.post(changelist, {"action": "approve_selected", "_selected_action": [pending.pk]})
        client.post(changelist, {"action": "ban_selected", "_selected_action": [active.pk]})
        pending.refresh_from_db()
        active.refresh_from_db()
        expected = runs(role, slug)
        assert pending.is_active == expected, (role, slug)
        assert (active.status == Membership.Status.BANNED) == expected, (role, slug)


@pytest.mark.parametrize("role", ROLES)
def test_the_site_s_requests_page_and_the_api_follow_the_same_rule(client, world, role) -> None:
    user = world["users"][role]
    client.force_login(user)
    key = api_token_create(user=user, name="t")[1]
    for slug in ("north", "south"):
        page = client.get(reverse("leagues:requests", args=[slug]))
        assert page.status_code == (200 if runs(role, slug) else 403), (role, slug)
        api = client.get(
            f"/api/v1/leagues/{slug}/members/",
            {"status": "pending"},
            HTTP_AUTHORIZATION=f"Bearer {key}",
        )
        assert api.status_code == (200 if runs(role, slug) else 403), (role, slug)


def test_a_moderator_cannot_ban_another_moderator_nor_change_a_membership_by_hand(
    client, world
) -> None:
    moderator = world["users"]["moderator"]
    colleague = Membership.objects.get(user=world["users"]["staff_moderator"])
    client.force_login(moderator)
    response = client.post(
        reverse("admin:leagues_membership_changelist"),
        {"action": "ban_selected", "_selected_action": [colleague.pk]},
        follow=True,
    )
    colleague.refresh_from_db()
    assert colleague.status == Membership.Status.ACTIVE
    assert "is a moderator: only the site" in response.content.decode()
    member = world["active"]["north"]
    form = client.get(reverse("admin:leagues_membership_change", args=[member.pk]))
    assert form.status_code == 200
    for field in ("role", "status", "rating"):
        assert f'name="{field}"' not in form.content.decode(), field
    client.post(
        reverse("admin:leagues_membership_change", args=[member.pk]),
        {"role": "moderator", "status": "active", "rating": "3000"},
    )
    member.refresh_from_db()
    assert member.role == Membership.Role.PLAYER and member.rating == 1500


def test_a_lifted_ban_lets_the_player_join_again(client, world) -> None:
    from leagues import services

    active = world["active"]["north"]
    client.force_login(world["users"]["moderator"])
    changelist = reverse("admin:leagues_membership_changelist")
    client.post(changelist, {"action": "ban_selected", "_selected_action": [active.pk]})
    refused = client.post(changelist, {"action": "lift_ban_selected", "_selected_action": []})
    assert refused.status_code in (200, 302)
    client.post(changelist, {"action": "lift_ban_selected", "_selected_action": [active.pk]})
    active.refresh_from_db()
    assert active.status == Membership.Status.LEFT
    assert services.league_join(league=active.league, user=active.user).status == "pending"


def test_a_moderator_reads_a_membership_by_name_with_rounded_numbers_and_no_dead_links(
    client, world
) -> None:
    member = world["active"]["north"]
    Membership.objects.filter(pk=member.pk).update(rating=1532.687237111712, deviation=61.2345)
    client.force_login(world["users"]["moderator"])
    page = client.get(reverse("admin:leagues_membership_change", args=[member.pk]))
    text = page.content.decode()
    assert "1533" in text and "1532.68" not in text and "61.23" not in text
    assert member.user.public_name in text
    assert "/admin/accounts/user/" not in text  # the accounts admin is closed to them
    # an operator still edits the numbers by hand
    client.force_login(world["users"]["superuser"])
    text = client.get(reverse("admin:leagues_membership_change", args=[member.pk])).content
    assert b'name="rating"' in text


def test_an_action_that_applies_to_none_of_the_selected_says_so(client, world) -> None:
    client.force_login(world["users"]["moderator"])
    response = client.post(
        reverse("admin:leagues_membership_changelist"),
        {"action": "approve_selected", "_selected_action": [world["active"]["north"].pk]},
        follow=True,
    )
    assert "Nothing to do: this action does not apply" in response.content.decode()
