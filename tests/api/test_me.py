"""/api/v1/me/: who the requester is, their leagues, games in progress, pending challenges."""

from __future__ import annotations

import pytest

from lobby.services import challenge_create
from tests.games.helpers import SMALL, current_game
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db


def test_me_needs_authentication(api) -> None:
    response = api.get("/api/v1/me/")
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


def test_me_tells_names_leagues_games_and_challenges(
    api, alice, bob, alice_key, human_starts
) -> None:
    league = make_league()
    join(league, alice)
    game = current_game(human_starts(alice))
    challenge = challenge_create(challenger=bob, challenged_username="alice", rules=SMALL)

    response = api.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {alice_key}")

    assert response.status_code == 200
    body = response.json()
    assert (body["username"], body["display_name"]) == ("alice", "Alice")
    assert body["is_bot"] is False
    assert [(x["slug"], x["provisional"]) for x in body["leagues"]] == [("north", True)]
    assert isinstance(body["leagues"][0]["rating"], int)
    assert body["games_in_progress"] == [
        {
            "match": game.match_id,
            "game": game.pk,
            "url": f"/play/games/{game.pk}/",
            "api_url": f"/api/v1/games/{game.pk}/",
        }
    ]
    assert [(c["id"], c["state"]) for c in body["challenges"]] == [(challenge.pk, "received")]


def test_me_with_a_session(client, alice) -> None:
    client.force_login(alice)
    assert client.get("/api/v1/me/").json()["username"] == "alice"


def test_a_bot_account_reads_that_it_is_one(api, bob, bob_key) -> None:
    bob.is_bot = True
    bob.save(update_fields=["is_bot"])

    response = api.get("/api/v1/me/", HTTP_AUTHORIZATION=f"Bearer {bob_key}")

    assert response.status_code == 200
    assert response.json()["is_bot"] is True
