"""A bot account through the API, with its own token (docs/api.md, "Bot accounts"): every
ranked path in a league whose ``bots_ranked`` is false answers 403 ``forbidden`` with the
reason, and nothing is made; casual play, unranked tournaments and ranked play where bots may
play are open to it."""

from __future__ import annotations

from typing import Any

import pytest

from api.services import api_token_create
from games.models import Match
from leagues.models import Entry, League
from leagues.tournaments import services as tournaments
from lobby.models import Challenge
from tests.accounts.factories import UserFactory
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db

BOT_REFUSAL = "Robo is a bot account, and bots do not play ranked matches in North League."
#: A ranked match against an engine bot is refused there to anyone, people too: the league's
#: reason comes first.
ENGINE_REFUSAL = "Bots do not play ranked matches in North League."
SMALL_KNOBS = {"payoff_size": 5, "match_target": 10}


@pytest.fixture
def robo(db) -> Any:
    return UserFactory(username="robo", display_name="Robo", is_bot=True)


@pytest.fixture
def robo_key(robo) -> str:
    return api_token_create(user=robo, name="program")[1]


@pytest.fixture
def north(alice, robo) -> League:
    """A league that does not let bots play ranked; robo and alice are active members."""
    league = make_league("north", bots_ranked=False)
    join(league, alice)
    join(league, robo)
    return league


@pytest.fixture
def arena(alice, robo) -> League:
    """A league that lets bots play ranked; robo and alice are active members."""
    league = make_league("arena", name="Arena", bots_ranked=True)
    join(league, alice)
    join(league, robo)
    return league


def _post(api, key: str, url: str, payload: dict[str, Any] | None = None) -> Any:
    return api.post(url, payload or {}, format="json", HTTP_AUTHORIZATION=f"Bearer {key}")


def _tournament(league: League, slug: str, *, ranked: bool = True) -> Any:
    cup = tournaments.tournament_create(
        league=league, name=slug.title(), slug=slug, format="swiss", ranked=ranked
    )
    tournaments.tournament_open_registration(tournament=cup)
    return cup


def _ranked_challenge(api, key, league, cup) -> Any:
    return _post(api, key, "/api/v1/challenges/", {"opponent": "alice", "league": league.slug})


def _ranked_match(api, key, league, cup) -> Any:
    return _post(api, key, "/api/v1/matches/", {"bot": "greedy", "league": league.slug})


def _register(api, key, league, cup) -> Any:
    return _post(api, key, f"/api/v1/tournaments/{cup.pk}/register/")


RANKED = {
    "a ranked challenge": _ranked_challenge,
    "a ranked match against an engine bot": _ranked_match,
    "registering for a ranked tournament": _register,
}
REFUSALS = {
    "a ranked challenge": BOT_REFUSAL,
    "a ranked match against an engine bot": ENGINE_REFUSAL,
    "registering for a ranked tournament": BOT_REFUSAL,
}


@pytest.mark.parametrize("path", RANKED)
def test_a_bot_account_is_refused_ranked_play_where_bots_do_not_play_ranked(
    api, robo_key, north, path
) -> None:
    cup = _tournament(north, "cup")

    response = RANKED[path](api, robo_key, north, cup)

    assert response.status_code == 403, response.content
    assert response.json() == {"code": "forbidden", "message": REFUSALS[path], "params": {}}
    assert not Challenge.objects.exists()
    assert not Match.objects.exists()
    assert not Entry.objects.exists()


@pytest.mark.parametrize("path", RANKED)
def test_a_bot_account_plays_ranked_where_bots_play_ranked(api, robo_key, arena, path) -> None:
    cup = _tournament(arena, "cup")

    response = RANKED[path](api, robo_key, arena, cup)

    assert response.status_code == 201, response.content
    if path == "registering for a ranked tournament":
        assert response.json()["player"] == {"username": "robo", "name": "Robo", "is_bot": True}
    else:
        assert response.json()["ranked"] is True
        assert response.json()["league"] == {"slug": "arena", "name": "Arena"}


def test_in_that_league_people_play_ranked_but_not_against_the_bot_account(
    api, alice, north
) -> None:
    """The refusal is for the bot account, either side: alice challenges bob ranked there."""
    key = api_token_create(user=alice, name="laptop")[1]
    response = _post(api, key, "/api/v1/challenges/", {"opponent": "robo", "league": "north"})
    assert response.status_code == 403  # robo may not be challenged ranked there either
    assert response.json()["message"] == BOT_REFUSAL
    bob = UserFactory(username="bob", display_name="Bob")
    join(north, bob)
    response = _post(api, key, "/api/v1/challenges/", {"opponent": "bob", "league": "north"})
    assert response.status_code == 201 and response.json()["ranked"] is True


def test_casual_play_is_open_to_a_bot_account(api, alice, robo, robo_key, north) -> None:
    challenge = _post(
        api, robo_key, "/api/v1/challenges/", {"opponent": "alice", "rules": SMALL_KNOBS}
    )
    assert challenge.status_code == 201, challenge.content
    assert challenge.json()["ranked"] is False
    assert challenge.json()["from"] == {"username": "robo", "name": "Robo", "is_bot": True}

    match = _post(api, robo_key, "/api/v1/matches/", {"bot": "greedy", "rules": SMALL_KNOBS})
    assert match.status_code == 201, match.content
    assert match.json()["ranked"] is False and match.json()["league"] is None

    friendly = _tournament(north, "friendly", ranked=False)
    entry = _post(api, robo_key, f"/api/v1/tournaments/{friendly.pk}/register/")
    assert entry.status_code == 201, entry.content
    assert Entry.objects.filter(tournament=friendly, user=robo).exists()

    alice_key = api_token_create(user=alice, name="laptop")[1]
    accepted = _post(api, alice_key, f"/api/v1/challenges/{challenge.json()['id']}/accept/")
    assert accepted.status_code == 200, accepted.content
    started = Match.objects.get(user0=robo, user1=alice)
    assert started.ranked is False
