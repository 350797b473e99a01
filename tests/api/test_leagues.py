"""/api/v1/leagues/…: the list (filters, pagination), a league (you, live and recent matches),
standings (the page's order for every sort), members (moderators only for pending ones),
joining and leaving through leagues.services, every refusal as {code, message, params}."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.services import api_token_create
from leagues import selectors, services
from leagues.models import League, Membership
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league, resign_match

pytestmark = pytest.mark.django_db


def _bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["message"]
    return body


@pytest.fixture
def league() -> League:
    return make_league("north", description="Up north.")


# --- the list --------------------------------------------------------------------------------


def test_the_list_shows_every_league_as_the_page_does(api, league, alice, bob) -> None:
    make_league("south", admission=League.Admission.APPROVAL, bots_ranked=True)
    make_league("attic", name="Attic League", status=League.Status.ARCHIVED)
    join(league, alice)
    join(league, bob, status=Membership.Status.PENDING)  # not counted

    response = api.get("/api/v1/leagues/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3 and body["next"] is None
    # active ones by name, then archived ones: the leagues page's order
    assert [x["slug"] for x in body["results"]] == ["north", "south", "attic"]
    north = body["results"][0]
    assert north == {
        "slug": "north",
        "name": "North League",
        "description": "Up north.",
        "status": "active",
        "admission": "open",
        "bots_ranked": False,
        "turn_time_limit": 120,
        "members": 1,
        "rules": league.rules,
        "rules_summary": selectors.league_rules_lines(league),
        "url": reverse("leagues:detail", args=["north"]),
        "api_url": "/api/v1/leagues/north/",
    }
    assert "A pay-off pile of 5 cards" in north["rules_summary"]
    south = body["results"][1]
    assert (south["admission"], south["bots_ranked"]) == ("approval", True)


@pytest.mark.parametrize(("status", "slugs"), [("active", ["north"]), ("archived", ["attic"])])
def test_the_list_filters_by_status(api, league, status, slugs) -> None:
    make_league("attic", status=League.Status.ARCHIVED)
    response = api.get("/api/v1/leagues/", {"status": status})
    assert [x["slug"] for x in response.json()["results"]] == slugs


def test_member_me_lists_your_active_memberships(api, league, alice, alice_key) -> None:
    south, west = make_league("south"), make_league("west")
    make_league("east")
    join(league, alice)
    join(south, alice, status=Membership.Status.PENDING)
    join(west, alice, status=Membership.Status.LEFT)

    response = api.get("/api/v1/leagues/", {"member": "me"}, **_bearer(alice_key))

    assert [x["slug"] for x in response.json()["results"]] == ["north"]


def test_member_me_needs_authentication(api, league) -> None:
    _error(api.get("/api/v1/leagues/", {"member": "me"}), 401, "unauthenticated")


@pytest.mark.parametrize("params", [{"status": "closed"}, {"member": "bob"}, {"status": "ACTIVE"}])
def test_bad_list_filters_are_refused_with_field_errors(api, params) -> None:
    body = _error(api.get("/api/v1/leagues/", params), 400, "bad_message")
    assert set(body["params"]["errors"]) == set(params)


def test_the_list_is_paginated(api) -> None:
    for i in range(5):
        make_league(f"l{i}")
    response = api.get("/api/v1/leagues/", {"limit": 2, "offset": 2})
    body = response.json()
    assert body["count"] == 5
    assert [x["slug"] for x in body["results"]] == ["l2", "l3"]
    assert "limit=2" in body["next"] and "offset=4" in body["next"]
    assert body["previous"] is not None
    assert api.get("/api/v1/leagues/", {"limit": 2, "offset": 4}).json()["next"] is None


# --- a league --------------------------------------------------------------------------------


def test_a_league_anonymously(api, league, alice) -> None:
    join(league, alice)
    response = api.get("/api/v1/leagues/north/")
    assert response.status_code == 200
    body = response.json()
    listed = api.get("/api/v1/leagues/").json()["results"][0]
    assert {k: body[k] for k in listed} == listed
    assert body["you"] is None
    assert (body["live"], body["recent"], body["tournaments"]) == ([], [], [])


def test_a_league_shows_your_membership_and_its_matches(api, league, alice, bob, alice_key):
    join(league, alice, role=Membership.Role.MODERATOR, rating=1612.6, deviation=80)
    join(league, bob)
    done = resign_match(services.ranked_match_create(league=league, user0=alice, user1=bob), bob)
    live = services.ranked_match_create(league=league, user0=bob, user1=alice)
    bob.is_bot = True  # flagged since (bot accounts do not start ranked matches)
    bob.save(update_fields=["is_bot"])

    body = api.get("/api/v1/leagues/north/", **_bearer(alice_key)).json()

    you = body["you"]
    assert you["player"] == {"username": "alice", "name": "Alice", "is_bot": False}
    assert (you["status"], you["role"], you["matches"], you["wins"], you["losses"]) == (
        "active",
        "moderator",
        1,
        1,
        0,
    )
    shown = selectors.member_row(Membership.objects.get(league=league, user=alice))
    assert (you["rating"], you["deviation"], you["provisional"]) == (
        shown.rating,
        shown.deviation,
        shown.provisional,
    )
    assert [m["id"] for m in body["live"]] == [live.pk]
    assert [m["id"] for m in body["recent"]] == [done.pk]
    recent = body["recent"][0]
    assert recent["players"] == [
        {
            "seat": 0,
            "name": "Alice",
            "player": {"username": "alice", "name": "Alice", "is_bot": False},
            "bot": None,
        },
        {
            "seat": 1,
            "name": "Bob",
            "player": {"username": "bob", "name": "Bob", "is_bot": True},
            "bot": None,
        },
    ]
    assert (recent["status"], recent["winner"]) == ("finished", 0)
    assert recent["scores"] == [done.score0, done.score1]
    assert recent["api_url"] == f"/api/v1/matches/{done.pk}/"
    assert recent["game"] == done.current_game.pk
    assert body["live"][0]["status"] == "active"
    assert body["live"][0]["api_url"] == f"/api/v1/matches/{live.pk}/"


def test_a_ranked_match_against_an_engine_bot_shows_the_bot_seat(api, league, alice) -> None:
    league.bots_ranked = True
    league.save()
    join(league, alice)
    match = services.ranked_match_create(league=league, user0=alice, bot="greedy")
    body = api.get("/api/v1/leagues/north/").json()
    assert body["live"][0]["id"] == match.pk
    assert body["live"][0]["players"][1] == {
        "seat": 1,
        "name": "Greedy bot",
        "player": None,
        "bot": "greedy",
    }


def test_a_league_lists_its_tournaments_but_not_drafts(api, league) -> None:
    from leagues.tournaments import services as ts

    ts.tournament_create(league=league, name="Draft", slug="draft", format="swiss")
    cup = ts.tournament_create(league=league, name="Cup", slug="cup", format="elimination")
    ts.tournament_open_registration(tournament=cup)
    body = api.get("/api/v1/leagues/north/").json()
    assert body["tournaments"] == [
        {
            "id": cup.pk,
            "name": "Cup",
            "format": "elimination",
            "status": "registration",
            "api_url": f"/api/v1/tournaments/{cup.pk}/",
        }
    ]


@pytest.mark.parametrize(
    "path", ["", "standings/", "members/"], ids=["detail", "standings", "members"]
)
def test_an_unknown_league_is_not_found(api, path) -> None:
    _error(api.get(f"/api/v1/leagues/nowhere/{path}"), 404, "not_found")


# --- standings -------------------------------------------------------------------------------


def _page_order(client: Any, league: League, sort: str) -> list[str]:
    page = client.get(reverse("leagues:detail", args=[league.slug]), {"sort": sort})
    return re.findall(r'<tr data-username="([^"]+)"', page.content.decode())


@pytest.mark.parametrize("sort", ["rating", "matches", "wins", "points"])
def test_standings_come_in_the_pages_order(api, client, league, sort) -> None:
    figures = [
        # rating, deviation, matches, wins, points for, against
        (1700.4, 60, 3, 1, 40, 30),
        (1650.0, 200, 9, 6, 70, 80),
        (1500.0, 350, 0, 0, 0, 0),
        (1650.2, 90, 5, 6, 90, 10),
        (1499.6, 100, 9, 2, 70, 60),
    ]
    for i, (rating, deviation, matches, wins, pf, pa) in enumerate(figures):
        user = UserFactory(username=f"p{i}", display_name=f"P{i}")
        join(
            league,
            user,
            rating=rating,
            deviation=deviation,
            matches=matches,
            wins=wins,
            losses=matches - wins if matches >= wins else 0,
            points_for=pf,
            points_against=pa,
        )
    join(league, UserFactory(username="gone"), status=Membership.Status.LEFT)

    body = api.get("/api/v1/leagues/north/standings/", {"sort": sort}).json()

    usernames = [row["player"]["username"] for row in body["results"]]
    assert usernames == _page_order(client, league, sort)
    assert body["count"] == 5 and "gone" not in usernames
    assert [row["rank"] for row in body["results"]] == [1, 2, 3, 4, 5]
    rows = {r.username: r for r in selectors.league_standings(league=league, sort=sort)}
    for row in body["results"]:
        want = rows[row["player"]["username"]]
        assert (row["rating"], row["deviation"], row["provisional"]) == (
            want.rating,
            want.deviation,
            want.provisional,
        )
        assert (row["matches"], row["wins"], row["losses"], row["ties"]) == (
            want.matches,
            want.wins,
            want.losses,
            want.ties,
        )
        assert (row["points_for"], row["points_against"]) == (want.points_for, want.points_against)


def test_standings_mark_bots_and_moderators(api, league, alice, bob) -> None:
    join(league, alice, role=Membership.Role.MODERATOR, rating=1600)
    join(league, bob)
    bob.is_bot = True
    bob.save(update_fields=["is_bot"])
    rows = api.get("/api/v1/leagues/north/standings/").json()["results"]
    assert [(r["player"]["is_bot"], r["moderator"]) for r in rows] == [(False, True), (True, False)]
    assert isinstance(rows[0]["rating"], int) and rows[0]["rating"] == 1600


def test_standings_are_paginated_with_ranks_of_the_whole_table(api, league) -> None:
    for i in range(5):
        join(league, UserFactory(username=f"p{i}"), rating=1500 + 10 * i)
    body = api.get("/api/v1/leagues/north/standings/", {"limit": 2, "offset": 1}).json()
    assert body["count"] == 5 and "offset=3" in body["next"]
    assert [(r["rank"], r["player"]["username"]) for r in body["results"]] == [
        (2, "p3"),
        (3, "p2"),
    ]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(sort=st.text(max_size=12))
def test_an_unknown_sort_is_bad_input(api, league, sort) -> None:
    response = api.get("/api/v1/leagues/north/standings/", {"sort": sort})
    if sort in (*selectors.SORTS, ""):  # empty: as if not given
        assert response.status_code == 200
    else:
        body = _error(response, 400, "bad_message")
        assert list(body["params"]["errors"]) == ["sort"]


# --- members ---------------------------------------------------------------------------------


@pytest.fixture
def roster(league, alice, bob) -> dict[str, Any]:
    """alice moderates north; bob is a member; carol asked to join; dan was banned."""
    carol, dan = UserFactory(username="carol"), UserFactory(username="dan")
    join(league, alice, role=Membership.Role.MODERATOR)
    join(league, bob)
    join(league, carol, status=Membership.Status.PENDING)
    join(league, dan, status=Membership.Status.BANNED)
    return {"carol": carol, "dan": dan}


def test_members_are_public_active_ones_by_default(api, roster) -> None:
    body = api.get("/api/v1/leagues/north/members/").json()
    assert body["count"] == 2
    assert [(m["player"]["username"], m["role"], m["status"]) for m in body["results"]] == [
        ("alice", "moderator", "active"),
        ("bob", "player", "active"),
    ]
    first = body["results"][0]
    assert {"rating", "deviation", "provisional", "matches", "wins", "losses", "joined_at"} <= set(
        first
    )
    assert first["provisional"] is True and first["rating"] == 1500


@pytest.mark.parametrize(("status", "who"), [("pending", "carol"), ("banned", "dan")])
def test_moderators_see_pending_and_banned_members(api, roster, alice_key, status, who) -> None:
    body = api.get("/api/v1/leagues/north/members/", {"status": status}, **_bearer(alice_key))
    assert [m["player"]["username"] for m in body.json()["results"]] == [who]


def test_operators_see_pending_members_too_and_plain_staff_do_not(api, roster) -> None:
    operator = UserFactory(username="root", is_staff=True, is_superuser=True)
    key = api_token_create(user=operator, name="ops")[1]
    response = api.get("/api/v1/leagues/north/members/", {"status": "pending"}, **_bearer(key))
    assert response.status_code == 200
    plain_staff = UserFactory(username="desk", is_staff=True)
    key = api_token_create(user=plain_staff, name="desk")[1]
    response = api.get("/api/v1/leagues/north/members/", {"status": "pending"}, **_bearer(key))
    assert response.status_code == 403


def test_pending_members_are_hidden_from_others(api, roster, bob_key) -> None:
    _error(api.get("/api/v1/leagues/north/members/", {"status": "pending"}), 401, "unauthenticated")
    _error(
        api.get("/api/v1/leagues/north/members/", {"status": "pending"}, **_bearer(bob_key)),
        403,
        "forbidden",
    )


def test_a_moderator_of_another_league_sees_no_pending_members(api, roster, alice_key) -> None:
    make_league("south")
    response = api.get(
        "/api/v1/leagues/south/members/", {"status": "pending"}, **_bearer(alice_key)
    )
    _error(response, 403, "forbidden")


def test_members_bad_status_and_pagination(api, league) -> None:
    body = _error(api.get("/api/v1/leagues/north/members/", {"status": "gone"}), 400, "bad_message")
    assert list(body["params"]["errors"]) == ["status"]
    for i in range(3):
        join(league, UserFactory(username=f"m{i}"))
    page = api.get("/api/v1/leagues/north/members/", {"limit": 2}).json()
    assert page["count"] == 3 and [m["player"]["username"] for m in page["results"]] == [
        "m0",
        "m1",
    ]
    assert "offset=2" in page["next"]


# --- joining and leaving -----------------------------------------------------------------------


def test_join_an_open_league(api, league, alice, alice_key) -> None:
    response = api.post("/api/v1/leagues/north/join/", **_bearer(alice_key))
    assert response.status_code == 201
    body = response.json()
    assert (body["player"]["username"], body["status"], body["role"]) == (
        "alice",
        "active",
        "player",
    )
    assert Membership.objects.get(league=league, user=alice).is_active
    again = api.post("/api/v1/leagues/north/join/", **_bearer(alice_key))
    assert again.status_code == 200 and again.json()["status"] == "active"


def test_join_a_league_by_approval_is_a_request(api, alice, alice_key) -> None:
    make_league("club", admission=League.Admission.APPROVAL)
    response = api.post("/api/v1/leagues/club/join/", **_bearer(alice_key))
    assert response.status_code == 201 and response.json()["status"] == "pending"


def test_join_with_a_session(api, league, alice) -> None:
    api.force_login(alice)
    assert api.post("/api/v1/leagues/north/join/").status_code == 201


@pytest.mark.parametrize("case", ["archived", "banned"])
def test_join_refusals(api, league, alice, alice_key, case) -> None:
    if case == "archived":
        league.status = League.Status.ARCHIVED
        league.save()
    else:
        join(league, alice, status=Membership.Status.BANNED)
    _error(api.post("/api/v1/leagues/north/join/", **_bearer(alice_key)), 403, "forbidden")
    if case == "archived":
        assert not Membership.objects.filter(league=league, user=alice).exists()


def test_leave_and_come_back_with_the_rating(api, league, alice, alice_key) -> None:
    join(league, alice, rating=1720)
    response = api.post("/api/v1/leagues/north/leave/", **_bearer(alice_key))
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["rating"]) == ("left", 1720)
    assert api.get("/api/v1/leagues/north/", **_bearer(alice_key)).json()["you"]["status"] == "left"
    again = api.post("/api/v1/leagues/north/leave/", **_bearer(alice_key))
    assert again.status_code == 200 and again.json()["status"] == "left"
    back = api.post("/api/v1/leagues/north/join/", **_bearer(alice_key))
    assert back.status_code == 201 and back.json()["rating"] == 1720


def test_leave_when_never_joined_is_not_found(api, league, alice_key) -> None:
    _error(api.post("/api/v1/leagues/north/leave/", **_bearer(alice_key)), 404, "not_found")


@pytest.mark.parametrize("action", ["join", "leave"])
def test_writes_need_authentication(api, league, action) -> None:
    response = api.post(f"/api/v1/leagues/north/{action}/")
    _error(response, 401, "unauthenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("action", ["join", "leave"])
def test_writes_to_an_unknown_league_are_not_found(api, alice_key, action) -> None:
    _error(api.post(f"/api/v1/leagues/nowhere/{action}/", **_bearer(alice_key)), 404, "not_found")
