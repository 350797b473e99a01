"""/api/v1/games/<id>/hint/ and /replay/: a hint asked through the API is the same as through
the socket (the expert's move from the player's view), refused alike in ranked play and against
a person; a finished game's replay carries its log, the hints used and the expert's review."""

from __future__ import annotations

import pytest

import engine
from games import hints, reviews, services
from games.models import Game
from tests.games.helpers import SMALL, a_side_move, current_game, seed_where

pytestmark = pytest.mark.django_db


def _bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}", "format": "json"}


def _expert(game: Game, seat: int) -> str:
    position = engine.Game.from_dict(game.state)
    options = hints.hint_options()
    return engine.bot("expert", hints.HINT_SEED, **options).choose(position, seat).text


def test_a_hint_is_asked_then_read_back_with_the_experts_move(
    api, table_game, alice_key, django_capture_on_commit_callbacks
) -> None:
    url = f"/api/v1/games/{table_game.pk}/hint/"
    assert api.get(url, **_bearer(alice_key)).status_code == 404  # none asked yet
    with django_capture_on_commit_callbacks(execute=True):
        asked = api.post(url, {"version": 0}, **_bearer(alice_key))
    assert asked.status_code == 202 and asked.json()["move"] is None  # the job runs on commit
    ready = api.get(url, **_bearer(alice_key))
    assert ready.status_code == 200
    body = ready.json()
    assert body["move"] == _expert(table_game, 0) and body["version"] == 0
    assert body["line"][0] == body["move"] and "text" in body
    again = api.post(url, {"version": 0}, **_bearer(alice_key))
    assert again.status_code == 200 and again.json() == body  # one hint per version


def test_hints_through_the_api_are_refused_where_the_socket_refuses_them(
    api, alice, bob, alice_key, bob_key, seeds, table_game
) -> None:
    url = f"/api/v1/games/{table_game.pk}/hint/"
    assert api.post(url, {"version": 0}, **_bearer(bob_key)).json()["code"] == "forbidden"
    assert api.post(url, {"version": 0}, format="json").status_code == 401
    bad = api.post(url, {"version": "0"}, **_bearer(alice_key))
    assert bad.status_code == 400 and bad.json()["code"] == "bad_message"
    stale = api.post(url, {"version": 5}, **_bearer(alice_key))
    assert stale.status_code == 409 and stale.json()["params"] == {"version": 0}

    seeds(seed_where(0), 1)
    person = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
    refused = api.post(f"/api/v1/games/{person.pk}/hint/", {"version": 0}, **_bearer(alice_key))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"

    from leagues.models import League, Membership

    league = League.objects.create(name="R", slug="r", rules=SMALL.to_dict(), bots_ranked=True)
    Membership.objects.create(league=league, user=alice)
    seeds(seed_where(0), 1)
    ranked = current_game(
        services.match_create(user=alice, bot="greedy", rules=SMALL, ranked=True, league=league)
    )
    refused = api.post(f"/api/v1/games/{ranked.pk}/hint/", {"version": 0}, **_bearer(alice_key))
    assert refused.status_code == 403 and "ranked" in refused.json()["message"]


def test_the_replay_serves_the_log_the_hints_and_the_review(
    api, alice, table_game, alice_key, settings, django_capture_on_commit_callbacks
) -> None:
    settings.JOBS_INLINE = False
    settings.GAMES_REVIEWS = True
    settings.GAMES_REVIEW_PLAYOUTS = 8
    settings.GAMES_REVIEW_CPU_SHARE = 1
    url = f"/api/v1/games/{table_game.pk}/replay/"
    refused = api.get(url)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"  # in play

    hints.hint_ask(game_id=table_game.pk, user=alice, version=0)
    discard = a_side_move(table_game)
    services.game_play_move(game_id=table_game.pk, user=alice, move=discard, version=0)
    table_game.refresh_from_db()
    services.game_resign(game_id=table_game.pk, user=alice, scope="match")
    pending = api.get(url).json()
    assert pending["hints"] == [1, 0]
    assert pending["review"] == {"status": "pending", "turns_done": 0}
    assert pending["moves"][0]["text"] == discard
    reviews.review_run(table_game.pk)
    body = api.get(url).json()
    assert body["game"] == table_game.pk
    assert body["review"]["status"] == "done" and body["review"]["seats"] == [0]
    assert set(body["review"]["accuracy"]) == {"0"}
