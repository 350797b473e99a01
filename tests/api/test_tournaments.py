"""/api/v1/tournaments/…: the list (filters, pagination, drafts hidden), a tournament (entries,
rounds with pairings and matches, standings with tie-breaks, your entry), registering and
withdrawing through leagues.tournaments.services, every refusal as {code, message, params}."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q
from django.urls import reverse

from leagues.models import Entry, League, Membership, Tournament, TournamentMatch
from leagues.tournaments import selectors as tsel
from leagues.tournaments import services as ts
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_moves(settings):
    settings.JOBS_INLINE = False


def _bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def _error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code and body["message"]
    return body


@pytest.fixture
def league() -> League:
    return make_league("north")


def players(league: League, n: int) -> list[Any]:
    users = [UserFactory(username=f"u{i}", display_name=f"Player {i}") for i in range(n)]
    for i, user in enumerate(users):
        join(league, user, rating=1500 + 10 * i)
    return users


def make(league: League, slug: str, fmt: str = "swiss", **fields: Any) -> Tournament:
    return ts.tournament_create(
        league=league, name=slug.title(), slug=slug, format=fmt, match_target=5, **fields
    )


def opened(league: League, slug: str, users: list[Any] = (), **fields: Any) -> Tournament:
    t = make(league, slug, **fields)
    ts.tournament_open_registration(tournament=t)
    for user in users:
        ts.tournament_register(tournament=t, user=user)
    return t


def running(league: League, slug: str, users: list[Any], **fields: Any) -> Tournament:
    return ts.tournament_start(tournament=opened(league, slug, users, **fields))


def _url(t: Tournament, action: str = "") -> str:
    return f"/api/v1/tournaments/{t.pk}/{action + '/' if action else ''}"


# --- the list --------------------------------------------------------------------------------


def test_the_list_shows_tournaments_newest_first_without_drafts(api, league) -> None:
    users = players(league, 3)
    make(league, "draft")
    cup = opened(league, "cup", users, fmt="elimination")
    ts.tournament_withdraw(tournament=cup, user=users[2])  # before the start: gone
    swiss = running(league, "swiss", users, rounds=2)

    response = api.get("/api/v1/tournaments/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [x["slug"] for x in body["results"]] == ["swiss", "cup"]
    row = body["results"][0]
    assert row == {
        "id": swiss.pk,
        "name": "Swiss",
        "slug": "swiss",
        "league": {"slug": "north", "name": "North League", "api_url": "/api/v1/leagues/north/"},
        "format": "swiss",
        "status": "running",
        "ranked": True,
        "match_target": 5,
        "entrants": 3,
        "rounds_planned": 2,
        "current_round": 1,
        "created_at": row["created_at"],
        "started_at": row["started_at"],
        "finished_at": None,
        "url": reverse("leagues:tournament", args=["north", "swiss"]),
        "api_url": f"/api/v1/tournaments/{swiss.pk}/",
    }
    assert row["started_at"] is not None
    cup_row = body["results"][1]
    assert (cup_row["format"], cup_row["status"], cup_row["entrants"]) == (
        "elimination",
        "registration",
        2,
    )
    assert (cup_row["rounds_planned"], cup_row["started_at"]) == (1, None)


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_the_list_filters_by_league_and_status(api, league) -> None:
    south = make_league("south")
    opened(league, "north-cup")
    opened(south, "south-cup")
    done = running(south, "south-swiss", players(south, 2), rounds=1)
    ts.tournament_autoplay(tournament=done)

    def slugs(**params: str) -> list[str]:
        response = api.get("/api/v1/tournaments/", params)
        assert response.status_code == 200
        return [x["slug"] for x in response.json()["results"]]

    assert slugs(league="north") == ["north-cup"]
    assert slugs(league="south") == ["south-swiss", "south-cup"]
    assert slugs(status="finished") == ["south-swiss"]
    assert slugs(status="registration") == ["south-cup", "north-cup"]
    assert slugs(league="south", status="registration") == ["south-cup"]
    assert slugs(status="running") == []


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"league": "nowhere"}, "league"),
        ({"status": "draft"}, "status"),
        ({"status": "x"}, "status"),
    ],
)
def test_bad_list_filters_are_refused(api, league, params, field) -> None:
    body = _error(api.get("/api/v1/tournaments/", params), 400, "bad_message")
    assert list(body["params"]["errors"]) == [field]


def test_the_list_is_paginated(api, league) -> None:
    for i in range(5):
        opened(league, f"t{i}")
    body = api.get("/api/v1/tournaments/", {"limit": 2, "offset": 1}).json()
    assert body["count"] == 5
    assert [x["slug"] for x in body["results"]] == ["t3", "t2"]
    assert "offset=3" in body["next"] and body["previous"] is not None


# --- a tournament ----------------------------------------------------------------------------


def test_a_tournament_in_registration(api, league, alice, alice_key) -> None:
    users = players(league, 2)
    t = opened(league, "cup", users)
    join(league, alice)
    anonymous = api.get(_url(t)).json()
    assert anonymous["you"] is None
    assert [e["player"]["username"] for e in anonymous["entries"]] == ["u0", "u1"]
    assert anonymous["entries"][0] == {
        "tournament": t.pk,
        "player": {"username": "u0", "name": "Player 0", "is_bot": False},
        "status": "registered",
        "seed_rating": None,
        "joined_at": anonymous["entries"][0]["joined_at"],
    }
    assert (anonymous["rounds"], anonymous["standings"]) == ([], [])
    listed = api.get("/api/v1/tournaments/").json()["results"][0]
    assert {k: anonymous[k] for k in listed} == listed
    ts.tournament_register(tournament=t, user=alice)
    you = api.get(_url(t), **_bearer(alice_key)).json()["you"]
    assert (you["player"]["username"], you["status"]) == ("alice", "registered")


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_a_running_then_finished_swiss(api, league) -> None:
    users = players(league, 4)
    t = running(league, "swiss", users, rounds=2)

    body = api.get(_url(t)).json()

    assert body["status"] == "running" and body["current_round"] == 1
    assert [r["number"] for r in body["rounds"]] == [1]
    first_round = body["rounds"][0]
    assert first_round["status"] == "open" and first_round["closed_at"] is None
    pairings = first_round["pairings"]
    assert [p["board"] for p in pairings] == [1, 2]
    stored = {p.board: p for p in TournamentMatch.objects.filter(round__tournament=t)}
    for p in pairings:
        row = stored[p["board"]]
        assert p["first"]["username"] == row.first.username
        assert p["second"]["username"] == row.second.username
        assert (p["match"], p["live"], p["result"], p["source"]) == (row.match_id, True, "", "")
        assert p["api_url"] == f"/api/v1/matches/{row.match_id}/"
        assert p["scores"] == [0, 0] and p["winner"] is None
        assert p["game"] == row.match.current_game.pk
    entrants = {e["player"]["username"]: e for e in body["entries"]}
    assert entrants["u3"]["player"]["is_bot"] is False
    assert entrants["u3"]["seed_rating"] == 1530
    assert [e["player"]["username"] for e in body["entries"]] == ["u3", "u2", "u1", "u0"]
    assert len(body["standings"]) == 4

    ts.tournament_autoplay(tournament=t)
    users[3].is_bot = True  # flagged a bot account since (bots do not start ranked matches)
    users[3].save(update_fields=["is_bot"])
    body = api.get(_url(t)).json()

    assert body["status"] == "finished" and body["finished_at"] is not None
    assert [r["number"] for r in body["rounds"]] == [1, 2]
    assert all(r["status"] == "closed" for r in body["rounds"])
    for p in (p for r in body["rounds"] for p in r["pairings"]):
        assert p["result"] in ("1-0", "0-1") and p["source"] == "played" and not p["live"]
        assert p["winner"]["username"] in (p["first"]["username"], p["second"]["username"])
        assert max(p["scores"]) >= 5
    rows = tsel.tournament_standings(Tournament.objects.get(pk=t.pk))
    assert [(s["rank"], s["player"]["username"], s["points"]) for s in body["standings"]] == [
        (r.rank, r.user.username, r.points) for r in rows
    ]
    people = [x for r in body["rounds"] for p in r["pairings"] for x in (p["first"], p["second"])]
    people += [e["player"] for e in body["entries"]] + [s["player"] for s in body["standings"]]
    assert {(p["username"], p["is_bot"]) for p in people} == {
        ("u0", False),
        ("u1", False),
        ("u2", False),
        ("u3", True),
    }
    top = body["standings"][0]
    assert top["buchholz"] == rows[0].buchholz and top["head_to_head"] is None
    assert top["rating"] == rows[0].rating and top["withdrawn"] is False


def test_an_elimination_with_a_bye_shows_it(api, league) -> None:
    t = running(league, "ko", players(league, 3), fmt="elimination")
    pairings = api.get(_url(t)).json()["rounds"][0]["pairings"]
    bye = [p for p in pairings if p["second"] is None]
    assert len(bye) == 1
    assert (bye[0]["result"], bye[0]["source"], bye[0]["match"], bye[0]["api_url"]) == (
        "bye",
        "bye",
        None,
        None,
    )
    assert bye[0]["scores"] is None and bye[0]["winner"] == bye[0]["first"]


def test_a_draft_is_shown_to_its_league_moderators_only(api, league, alice, alice_key, bob_key):
    t = make(league, "draft")
    join(league, alice, role=Membership.Role.MODERATOR)
    _error(api.get(_url(t)), 404, "not_found")
    _error(api.get(_url(t), **_bearer(bob_key)), 404, "not_found")
    _error(api.post(_url(t, "register"), **_bearer(bob_key)), 404, "not_found")
    response = api.get(_url(t), **_bearer(alice_key))
    assert response.status_code == 200 and response.json()["status"] == "draft"


@pytest.mark.parametrize("action", ["", "register", "withdraw"])
def test_an_unknown_tournament_is_not_found(api, alice_key, action) -> None:
    path = f"/api/v1/tournaments/999999/{action + '/' if action else ''}"
    response = api.post(path, **_bearer(alice_key)) if action else api.get(path)
    _error(response, 404, "not_found")


# --- registering and withdrawing ---------------------------------------------------------------


def test_register_then_withdraw_before_the_start(api, league, alice, alice_key) -> None:
    join(league, alice)
    t = opened(league, "cup")

    response = api.post(_url(t, "register"), **_bearer(alice_key))
    assert response.status_code == 201
    assert response.json()["player"]["username"] == "alice"
    assert response.json()["status"] == "registered"
    assert Entry.objects.filter(tournament=t, user=alice).exists()
    again = api.post(_url(t, "register"), **_bearer(alice_key))
    assert again.status_code == 200 and again.json()["status"] == "registered"

    response = api.post(_url(t, "withdraw"), **_bearer(alice_key))
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    assert not Entry.objects.filter(tournament=t, user=alice).exists()
    assert api.get(_url(t), **_bearer(alice_key)).json()["you"] is None
    _error(api.post(_url(t, "withdraw"), **_bearer(alice_key)), 404, "not_found")


def test_register_with_a_session(api, league, alice) -> None:
    join(league, alice)
    t = opened(league, "cup")
    api.force_login(alice)
    assert api.post(_url(t, "register")).status_code == 201


@pytest.mark.parametrize("case", ["not a member", "pending", "not open", "running"])
def test_register_refusals(api, league, alice, alice_key, case) -> None:
    if case == "pending":
        join(league, alice, status=Membership.Status.PENDING)
    elif case != "not a member":
        join(league, alice)
    if case == "not open":
        t = make(league, "cup")
        t.status = Tournament.Status.FINISHED  # visible, but registration is closed
        t.save()
    elif case == "running":
        t = running(league, "cup", players(league, 2))
    else:
        t = opened(league, "cup")
    _error(api.post(_url(t, "register"), **_bearer(alice_key)), 403, "forbidden")
    assert not Entry.objects.filter(tournament=t, user=alice).exists()


def test_withdraw_while_running_forfeits_the_open_pairing(api, league, alice_key, alice) -> None:
    join(league, alice, rating=1400)
    users = players(league, 3)
    t = running(league, "swiss", [alice, *users], rounds=2)
    mine = TournamentMatch.objects.get(
        Q(first=alice) | Q(second=alice), round__tournament=t, round__number=1
    )

    response = api.post(_url(t, "withdraw"), **_bearer(alice_key))

    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    mine.refresh_from_db()
    assert mine.forfeit and mine.winner_id != alice.pk
    body = api.get(_url(t), **_bearer(alice_key)).json()
    assert body["you"]["status"] == "withdrawn"
    assert body["entrants"] == 3
    standing = next(s for s in body["standings"] if s["player"]["username"] == "alice")
    assert standing["withdrawn"] is True


@pytest.mark.django_db(transaction=True)  # rounds close once a match's end commits
def test_withdraw_from_a_finished_tournament_is_forbidden(api, league, alice, alice_key) -> None:
    join(league, alice)
    t = running(league, "swiss", [alice, *players(league, 1)], rounds=1)
    ts.tournament_autoplay(tournament=t)
    _error(api.post(_url(t, "withdraw"), **_bearer(alice_key)), 403, "forbidden")


@pytest.mark.parametrize("action", ["register", "withdraw"])
def test_writes_need_authentication(api, league, action) -> None:
    t = opened(league, "cup")
    response = api.post(_url(t, action))
    _error(response, 401, "unauthenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")
