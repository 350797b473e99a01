"""/api/v1/matches/: the public list and its filters, a match's detail, starting a match against
a server bot (casual with knobs, or ranked in a league), resigning."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from api.serializers.matches import HOUSE_KNOBS, RulesSerializer
from games import services
from games.models import Game, Match
from lobby.forms import RulesForm
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL, current_game
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db

SMALL_KNOBS = {"payoff_size": 5, "match_target": 10}


def auth(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def between(user0, user1, **kwargs) -> Match:
    return services.match_create_between(user0=user0, user1=user1, rules=SMALL, **kwargs)


def ids(response) -> list[int]:
    return [m["id"] for m in response.json()["results"]]


def refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    return body


# --- the list -------------------------------------------------------------------------------


def test_anyone_lists_the_matches_newest_first(api, alice, bob, human_starts) -> None:
    older = human_starts(alice)
    newer = between(alice, bob)

    response = api.get("/api/v1/matches/")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2 and ids(response) == [newer.pk, older.pk]
    versus_bot = body["results"][1]
    assert versus_bot["seats"] == [
        {
            "seat": 0,
            "name": "Alice",
            "player": {"username": "alice", "name": "Alice", "is_bot": False},
            "bot": None,
        },
        {"seat": 1, "name": "Greedy bot", "player": None, "bot": "greedy"},
    ]
    game = current_game(older)
    assert {k: versus_bot[k] for k in ("scores", "target", "status", "ranked", "league")} == {
        "scores": [0, 0],
        "target": 10,
        "status": "active",
        "ranked": False,
        "league": None,
    }
    assert (versus_bot["winner"], versus_bot["reason"], versus_bot["finished_at"]) == (
        None,
        None,
        None,
    )
    assert versus_bot["current_game"] == game.pk
    assert versus_bot["url"] == f"/play/matches/{older.pk}/"
    assert versus_bot["api_url"] == f"/api/v1/matches/{older.pk}/"


def test_a_bot_account_is_a_person_marked_is_bot(api, alice) -> None:
    robot = UserFactory(username="robo", display_name="Robo", is_bot=True)
    between(robot, alice)
    [match] = api.get("/api/v1/matches/").json()["results"]
    assert [s["player"]["is_bot"] for s in match["seats"]] == [True, False]
    assert [s["bot"] for s in match["seats"]] == [None, None]


def test_the_list_is_paginated(api, alice, bob) -> None:
    made = [between(alice, bob).pk for _ in range(3)]

    first = api.get("/api/v1/matches/?limit=2").json()
    second = api.get("/api/v1/matches/?limit=2&offset=2").json()

    assert first["count"] == 3 and first["previous"] is None and "offset=2" in first["next"]
    assert [m["id"] for m in first["results"] + second["results"]] == made[::-1]
    assert second["next"] is None


def test_filter_by_player_in_either_seat_any_case(api, alice, bob, human_starts) -> None:
    carol = UserFactory(username="carol", display_name="Carol")
    alice_bot = human_starts(alice)
    bob_first = between(bob, carol)
    bob_second = between(alice, bob)

    assert ids(api.get("/api/v1/matches/?player=BOB")) == [bob_second.pk, bob_first.pk]
    assert ids(api.get("/api/v1/matches/?player=alice")) == [bob_second.pk, alice_bot.pk]
    assert api.get("/api/v1/matches/?player=nobody").json() == {
        "count": 0,
        "next": None,
        "previous": None,
        "results": [],
    }


def test_filter_by_league_and_ranked(api, alice, bob, human_starts) -> None:
    league = make_league()
    join(league, alice)
    join(league, bob)
    casual = human_starts(alice)
    ranked = between(alice, bob, ranked=True, league=league)

    assert ids(api.get("/api/v1/matches/?league=north")) == [ranked.pk]
    assert ids(api.get("/api/v1/matches/?league=south")) == []
    assert ids(api.get("/api/v1/matches/?ranked=true")) == [ranked.pk]
    assert ids(api.get("/api/v1/matches/?ranked=false")) == [casual.pk]
    listed = api.get("/api/v1/matches/?ranked=true").json()["results"][0]
    assert listed["league"] == {"slug": "north", "name": "North League"}


def test_filter_by_status(api, alice, bob, human_starts) -> None:
    active = human_starts(alice)
    finished = between(alice, bob)
    services.game_resign(game_id=current_game(finished).pk, user=bob, scope="match")

    assert ids(api.get("/api/v1/matches/?status=active")) == [active.pk]
    assert ids(api.get("/api/v1/matches/?status=finished")) == [finished.pk]
    assert ids(api.get("/api/v1/matches/?status=aborted")) == []
    done = api.get("/api/v1/matches/?status=finished").json()["results"][0]
    assert (done["winner"], done["reason"]) == (0, "resigned")
    assert done["finished_at"] is not None


def test_mine_lists_your_own_and_needs_authentication(
    api, alice, bob, alice_key, human_starts
) -> None:
    carol = UserFactory(username="carol", display_name="Carol")
    mine = human_starts(alice)
    between(bob, carol)

    assert ids(api.get("/api/v1/matches/?mine=true", **auth(alice_key))) == [mine.pk]
    assert len(ids(api.get("/api/v1/matches/?mine=false", **auth(alice_key)))) == 2
    refusal(api.get("/api/v1/matches/?mine=true"), 401, "unauthenticated")


@pytest.mark.parametrize(
    ("query", "field"),
    [("status=over", "status"), ("ranked=maybe", "ranked"), ("league=no%20slug", "league")],
)
def test_bad_filters_are_field_errors(api, query, field) -> None:
    body = refusal(api.get(f"/api/v1/matches/?{query}"), 400, "bad_message")
    assert list(body["params"]["errors"]) == [field]


# --- the detail -----------------------------------------------------------------------------


def test_a_match_in_detail(api, alice, alice_key, human_starts) -> None:
    match = human_starts(alice)
    game = current_game(match)

    response = api.get(f"/api/v1/matches/{match.pk}/", **auth(alice_key))

    assert response.status_code == 200
    body = response.json()
    assert body["id"] == match.pk and body["you"] == 0
    assert body["rules"] == SMALL.to_dict()
    assert body["rematch"] is None
    assert body["games"] == [
        {
            "id": game.pk,
            "number": 1,
            "status": "active",
            "outcome": None,
            "first_player": 0,
            "moves": 0,
            "url": f"/play/games/{game.pk}/",
            "api_url": f"/api/v1/games/{game.pk}/",
        }
    ]


def test_the_detail_shows_every_game_and_no_secret(api, alice, bob, bob_key) -> None:
    match = between(alice, bob)
    first = current_game(match)
    services.game_resign(game_id=first.pk, user=bob, scope="game")

    body = api.get(f"/api/v1/matches/{match.pk}/", **auth(bob_key)).json()

    assert body["you"] == 1
    assert [(g["number"], g["status"]) for g in body["games"]] == [(1, "finished"), (2, "active")]
    assert body["games"][0]["outcome"] == {"winner": 0, "points": 5, "reason": "resigned"}
    assert body["scores"] == [5, 0] and body["current_game"] == body["games"][1]["id"]
    text = api.get(f"/api/v1/matches/{match.pk}/").content.decode()
    for secret in (str(first.seed), str(first.bot_seed), '"hand"', '"stock"', '"state"'):
        assert secret not in text


def test_the_detail_counts_the_log_rows(api, alice, table_game) -> None:
    move = engine.Game.from_dict(table_game.state).view(0)["legal_moves"][0]
    services.game_play_move(game_id=table_game.pk, move=move, version=0, user=alice)
    body = api.get(f"/api/v1/matches/{table_game.match_id}/").json()
    assert body["games"][0]["moves"] == 1


def test_a_spectator_and_anonymous_are_nobody(api, alice, bob_key, human_starts) -> None:
    match = human_starts(alice)
    assert api.get(f"/api/v1/matches/{match.pk}/").json()["you"] is None
    assert api.get(f"/api/v1/matches/{match.pk}/", **auth(bob_key)).json()["you"] is None


def test_the_detail_tells_the_rematch(api, alice, alice_key, human_starts) -> None:
    match = human_starts(alice)
    services.game_resign(game_id=current_game(match).pk, user=alice, scope="match")
    again = services.match_rematch(match_id=match.pk, user=alice, action="offer")

    body = api.get(f"/api/v1/matches/{match.pk}/", **auth(alice_key)).json()

    assert body["rematch"] == {"offered_by": 0, "match": again.match_id, "game": again.game_id}


def test_an_unknown_match_is_not_found(api) -> None:
    refusal(api.get("/api/v1/matches/999999/"), 404, "not_found")


# --- starting a match against a bot ---------------------------------------------------------


def test_start_a_casual_match_against_the_greedy_bot(api, alice, alice_key) -> None:
    knobs = {**SMALL_KNOBS, "king_on_empty": False}
    response = api.post(
        "/api/v1/matches/", {"bot": "greedy", "rules": knobs}, format="json", **auth(alice_key)
    )

    assert response.status_code == 201, response.content
    body = response.json()
    match = Match.objects.get(pk=body["id"])
    assert (match.user0, match.bot1, match.ranked) == (alice, "greedy", False)
    assert body["you"] == 0 and body["status"] == "active" and body["ranked"] is False
    assert body["seats"][1] == {"seat": 1, "name": "Greedy bot", "player": None, "bot": "greedy"}
    assert (
        body["rules"] == engine.Rules(payoff_size=5, match_target=10, king_on_empty=False).to_dict()
    )
    assert body["target"] == 10
    [game] = body["games"]
    assert game["id"] == Game.objects.get(match=match, number=1).pk
    assert api.get(game["api_url"], **auth(alice_key)).json()["you"] == 0


def test_knobs_left_out_are_the_house_rules(api, alice_key) -> None:
    response = api.post("/api/v1/matches/", {"bot": "random"}, format="json", **auth(alice_key))
    assert response.status_code == 201
    assert response.json()["rules"] == engine.Rules().to_dict()


@pytest.mark.parametrize(
    ("payload", "errors"),
    [
        ({}, {"bot": ["This field is required."]}),
        ({"bot": "genius"}, {"bot": ['"genius" is not a valid choice.']}),
        ({"bot": "greedy", "rules": {"payoff_size": 4}}, {"rules": {"payoff_size": None}}),
        ({"bot": "greedy", "rules": {"hand_size": "many"}}, {"rules": {"hand_size": None}}),
        ({"bot": "greedy", "rules": {"decks": 9}}, {"rules": {"decks": None}}),
        ({"bot": "greedy", "rules": {"decks": 1, "payoff_size": 30}}, {"rules": None}),
        ({"bot": "greedy", "rules": [5]}, {"rules": None}),
        ({"bot": "greedy", "rules": {}, "league": "north"}, {"league": None}),
    ],
)
def test_bad_input_is_a_field_error(api, alice_key, payload, errors) -> None:
    response = api.post("/api/v1/matches/", payload, format="json", **auth(alice_key))
    body = refusal(response, 400, "bad_message")
    got = body["params"]["errors"]
    assert set(got) == set(errors)
    for field, expected in errors.items():
        if isinstance(expected, dict):
            assert set(got[field]) == set(expected)
        elif expected is not None:
            assert got[field] == expected
    assert not Match.objects.exists()


def test_a_bot_the_engine_lacks_is_refused_as_the_site_does(api, alice_key, monkeypatch) -> None:
    real = engine.bot

    def without_expert(level, **kwargs):
        if level == "expert":
            raise ValueError("no expert yet")
        return real(level, **kwargs)

    monkeypatch.setattr(engine, "bot", without_expert)
    response = api.post("/api/v1/matches/", {"bot": "expert"}, format="json", **auth(alice_key))
    body = refusal(response, 400, "bad_message")
    assert body["params"]["errors"]["bot"] == [
        "The Expert bot is not available yet; please choose another opponent."
    ]


def test_starting_a_match_needs_authentication(api) -> None:
    response = api.post("/api/v1/matches/", {"bot": "greedy"}, format="json")
    refusal(response, 401, "unauthenticated")
    assert not Match.objects.exists()


def test_start_a_ranked_match_against_a_bot_in_a_league(api, alice, alice_key) -> None:
    league = make_league(bots_ranked=True)
    join(league, alice)

    response = api.post(
        "/api/v1/matches/", {"bot": "expert", "league": "north"}, format="json", **auth(alice_key)
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["ranked"] is True and body["league"] == {"slug": "north", "name": "North League"}
    assert body["rules"] == league.engine_rules.to_dict()


def test_ranked_refusals_keep_their_codes(api, alice, alice_key) -> None:
    join(make_league("north", bots_ranked=False), alice)
    make_league("south", bots_ranked=True)  # alice is no member
    join(make_league("east", bots_ranked=True), alice)

    def start(slug: str):
        return api.post(
            "/api/v1/matches/", {"bot": "greedy", "league": slug}, format="json", **auth(alice_key)
        )

    refusal(start("nowhere"), 404, "not_found")
    assert "Bots do not play ranked" in refusal(start("north"), 403, "forbidden")["message"]
    refusal(start("south"), 403, "forbidden")  # not a member
    assert start("east").status_code == 201


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    knobs=st.fixed_dictionaries(
        {},
        optional={
            "payoff_size": st.integers(-2, 40),
            "hand_size": st.integers(0, 10),
            "side_stacks": st.integers(0, 8),
            "center_stacks": st.integers(0, 8),
            "king_on_empty": st.booleans(),
            "refill_empty_hand": st.booleans(),
            "match_target": st.integers(-1, 600),
        },
    )
)
def test_the_api_accepts_exactly_the_knobs_the_site_does(knobs) -> None:
    """RulesSerializer and the site's form agree on every set of knobs, and on the rules."""
    api_side = RulesSerializer(data=knobs)
    site_side = RulesForm(data={**HOUSE_KNOBS, **knobs})
    assert api_side.is_valid() == site_side.is_valid()
    if site_side.is_valid():
        assert api_side.validated_data == site_side.cleaned_data["rules"]
    else:
        assert set(api_side.errors) <= {*knobs, "non_field_errors"}


# --- resigning ------------------------------------------------------------------------------


def test_start_against_the_greedy_bot_and_resign_it_by_api(api, alice, alice_key) -> None:
    started = api.post(
        "/api/v1/matches/",
        {"bot": "greedy", "rules": SMALL_KNOBS},
        format="json",
        **auth(alice_key),
    ).json()

    response = api.post(
        f"/api/v1/matches/{started['id']}/resign/", {}, format="json", **auth(alice_key)
    )

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["winner"], body["reason"]) == ("finished", 1, "resigned")
    assert body["games"][0]["outcome"] == {"winner": 1, "points": 0, "reason": "resigned"}
    assert body["rematch"] == {"offered_by": None, "match": None, "game": None}
    again = api.post(f"/api/v1/matches/{started['id']}/resign/", format="json", **auth(alice_key))
    refusal(again, 409, "game_over")


def test_resign_a_game_and_play_on(api, alice, bob, alice_key) -> None:
    match = between(alice, bob)
    response = api.post(
        f"/api/v1/matches/{match.pk}/resign/", {"scope": "game"}, format="json", **auth(alice_key)
    )
    body = response.json()
    assert response.status_code == 200
    assert body["status"] == "active" and body["scores"] == [0, 5]
    assert [g["status"] for g in body["games"]] == ["finished", "active"]


def test_resign_refusals(api, alice, bob, bob_key, alice_key, human_starts) -> None:
    match = human_starts(alice)
    url = f"/api/v1/matches/{match.pk}/resign/"
    refusal(api.post(url, {}, format="json"), 401, "unauthenticated")
    refusal(api.post(url, {}, format="json", **auth(bob_key)), 403, "forbidden")
    body = refusal(
        api.post(url, {"scope": "set"}, format="json", **auth(alice_key)), 400, "bad_message"
    )
    assert list(body["params"]["errors"]) == ["scope"]
    refusal(
        api.post("/api/v1/matches/999999/resign/", {}, format="json", **auth(alice_key)),
        404,
        "not_found",
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_reads_take_a_fixed_number_of_queries(
    api, alice, bob, django_assert_max_num_queries, settings
) -> None:
    settings.LEAGUES_RATED_PAIR_LIMIT = 10  # many ranked matches of one pair
    league = make_league()
    join(league, alice)
    join(league, bob)
    for _ in range(4):
        match = between(alice, bob, ranked=True, league=league)
        services.game_resign(game_id=current_game(match).pk, user=bob, scope="game")
    with django_assert_max_num_queries(3):
        assert api.get("/api/v1/matches/").json()["count"] == 4
    with django_assert_max_num_queries(4):
        assert len(api.get(f"/api/v1/matches/{match.pk}/").json()["games"]) == 2


def test_matches_in_progress_against_bots_are_capped(api, alice, alice_key, settings) -> None:
    settings.GAMES_BOT_MATCHES_IN_PROGRESS_LIMIT = 2
    join(make_league(bots_ranked=True), alice)
    start = {"bot": "greedy", "rules": SMALL_KNOBS}
    for _ in range(2):
        assert (
            api.post("/api/v1/matches/", start, format="json", **auth(alice_key)).status_code == 201
        )
    for payload in (start, {"bot": "greedy", "league": "north"}):
        response = api.post("/api/v1/matches/", payload, format="json", **auth(alice_key))
        body = refusal(response, 409, "too_many")
        assert body["params"] == {"limit": 2}
        assert body["message"] == (
            "You have 2 matches against bots in progress: finish or resign one first."
        )
    assert Match.objects.filter(user0=alice).count() == 2
