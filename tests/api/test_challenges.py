"""/api/v1/challenges/: your pending challenges, sending one (casual or ranked), accepting,
declining and cancelling — and the whole flow from a challenge to a match in the lists."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import engine
from accounts.services import user_block
from lobby.models import Challenge
from lobby.services import challenge_create
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL
from tests.leagues.conftest import join, make_league

pytestmark = pytest.mark.django_db

SMALL_KNOBS = {"payoff_size": 5, "match_target": 10}


def auth(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def refusal(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    return body


def send(api, key: str, **payload):
    return api.post("/api/v1/challenges/", payload, format="json", **auth(key))


@pytest.fixture
def carol(db):
    return UserFactory(username="carol", display_name="Carol")


@pytest.fixture
def carol_key(carol) -> str:
    from api.services import api_token_create

    return api_token_create(user=carol, name="c")[1]


@pytest.fixture
def pending(alice, bob) -> Challenge:
    """alice challenges bob, casual, small knobs."""
    return challenge_create(challenger=alice, challenged_username="bob", rules=SMALL)


# --- the list -------------------------------------------------------------------------------


def test_your_pending_challenges_sent_and_received(api, alice, bob, carol, bob_key) -> None:
    received = challenge_create(challenger=alice, challenged_username="bob", rules=SMALL)
    sent = challenge_create(challenger=bob, challenged_username="carol", rules=engine.Rules())
    answered = challenge_create(challenger=carol, challenged_username="bob", rules=SMALL)
    answered.status = Challenge.Status.DECLINED
    answered.save()

    response = api.get("/api/v1/challenges/", **auth(bob_key))

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2
    assert [(c["id"], c["state"]) for c in body["results"]] == [
        (sent.pk, "sent"),
        (received.pk, "received"),
    ]
    shown = body["results"][1]
    assert shown["from"] == {"username": "alice", "name": "Alice", "is_bot": False}
    assert shown["to"] == {"username": "bob", "name": "Bob", "is_bot": False}
    assert shown["rules"] == SMALL.to_dict()
    assert shown["summary"] == "Pay-off pile of 5, first to 10 points"
    assert (shown["ranked"], shown["league"], shown["game"], shown["url"]) == (
        False,
        None,
        None,
        None,
    )
    assert shown["created_at"] and shown["expires_at"]


def test_the_list_is_paginated(api, alice, bob_key, bob, carol) -> None:
    for challenger in (alice, carol):
        challenge_create(challenger=challenger, challenged_username="bob", rules=SMALL)
    first = api.get("/api/v1/challenges/?limit=1", **auth(bob_key)).json()
    second = api.get("/api/v1/challenges/?limit=1&offset=1", **auth(bob_key)).json()
    assert first["count"] == 2 and first["next"] and second["next"] is None
    assert first["results"][0]["id"] != second["results"][0]["id"]


def test_an_expired_challenge_is_not_listed(api, pending, bob_key) -> None:
    Challenge.objects.filter(pk=pending.pk).update(expires_at=timezone.now() - timedelta(1))
    assert api.get("/api/v1/challenges/", **auth(bob_key)).json()["count"] == 0


def test_challenges_need_authentication(api) -> None:
    refusal(api.get("/api/v1/challenges/"), 401, "unauthenticated")
    refusal(
        api.post("/api/v1/challenges/", {"opponent": "bob"}, format="json"), 401, "unauthenticated"
    )
    for action in ("accept", "decline", "cancel"):
        refusal(api.post(f"/api/v1/challenges/1/{action}/"), 401, "unauthenticated")


# --- sending --------------------------------------------------------------------------------


def test_send_a_casual_challenge(api, alice, bob, alice_key) -> None:
    response = send(api, alice_key, opponent="Bob", rules=SMALL_KNOBS)

    assert response.status_code == 201, response.content
    body = response.json()
    challenge = Challenge.objects.get(pk=body["id"])
    assert (challenge.challenger, challenge.challenged) == (alice, bob)
    assert body["state"] == "sent" and body["to"]["username"] == "bob"
    assert body["rules"] == SMALL.to_dict() and body["ranked"] is False


def test_knobs_left_out_are_the_house_rules(api, bob, alice_key) -> None:
    body = send(api, alice_key, opponent="bob").json()
    assert body["rules"] == engine.Rules().to_dict()
    assert body["summary"] == "House rules, first to 50 points"


def test_send_a_ranked_challenge(api, alice, bob, alice_key) -> None:
    league = make_league()
    join(league, alice)
    join(league, bob)

    body = send(api, alice_key, opponent="bob", league="north").json()

    assert body["ranked"] is True and body["league"] == {"slug": "north", "name": "North League"}
    assert body["summary"].startswith("Ranked in North League")
    assert body["rules"] == league.engine_rules.to_dict()


@pytest.mark.parametrize(
    ("payload", "fields"),
    [
        ({}, {"opponent"}),
        ({"opponent": ""}, {"opponent"}),
        ({"opponent": "bob", "rules": {"side_stacks": 9}}, {"rules"}),
        ({"opponent": "bob", "rules": {"payof_size": 5}}, {"rules"}),
        ({"opponent": "bob", "rules": SMALL_KNOBS, "league": "north"}, {"league"}),
        ({"opponent": "bob", "league": "not a slug"}, {"league"}),
    ],
)
def test_bad_input_is_a_field_error(api, bob, alice_key, payload, fields) -> None:
    body = refusal(send(api, alice_key, **payload), 400, "bad_message")
    assert set(body["params"]["errors"]) == fields
    assert not Challenge.objects.exists()


def test_a_bad_knob_names_the_knob(api, bob, alice_key) -> None:
    body = refusal(
        send(api, alice_key, opponent="bob", rules={"side_stacks": 9}), 400, "bad_message"
    )
    assert body["params"]["errors"] == {
        "rules": {"side_stacks": ["“Side stacks” must be at most 6."]}
    }


def test_bad_knobs_are_refused_in_the_site_s_words_in_the_request_s_language(
    api, bob, alice_key, marked
) -> None:
    """The same words as the lobby's forms and the admin (games.refusals.rules_refusal_message)."""
    rules = {"side_stacks": 9, "payof_size": 5}
    response = api.post(
        "/api/v1/challenges/",
        {"opponent": "bob", "rules": rules},
        format="json",
        HTTP_ACCEPT_LANGUAGE="bn",
        **auth(alice_key),
    )
    errors = refusal(response, 400, "bad_message")["params"]["errors"]["rules"]
    assert errors["payof_size"][0].startswith("[bn]“payof_size” is not a knob: choose from ")
    response = api.post(
        "/api/v1/challenges/",
        {"opponent": "bob", "rules": {"side_stacks": 9, "decks": 1, "payoff_size": 30}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="vi",
        **auth(alice_key),
    )
    errors = refusal(response, 400, "bad_message")["params"]["errors"]["rules"]
    assert errors == {"side_stacks": ["[vi]“[vi]Side stacks” must be at most 6."]}
    response = api.post(
        "/api/v1/challenges/",
        {"opponent": "bob", "rules": {"decks": 1, "payoff_size": 30}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="vi",
        **auth(alice_key),
    )
    errors = refusal(response, 400, "bad_message")["params"]["errors"]["rules"]
    assert errors["non_field_errors"][0].startswith("[vi]The deck is too small: it has 52 cards")


def test_sending_refusals_keep_the_lobby_codes(api, alice, bob, carol, alice_key, settings) -> None:
    refusal(send(api, alice_key, opponent="nobody"), 404, "not_found")
    refusal(send(api, alice_key, opponent="bob", league="nowhere"), 404, "not_found")
    refusal(send(api, alice_key, opponent="alice"), 403, "forbidden")
    make_league()
    refusal(send(api, alice_key, opponent="bob", league="north"), 403, "forbidden")  # no members
    assert send(api, alice_key, opponent="bob").status_code == 201
    refusal(send(api, alice_key, opponent="bob"), 409, "duplicate")
    settings.LOBBY_MAX_PENDING_CHALLENGES = 1
    body = refusal(send(api, alice_key, opponent="carol"), 409, "too_many")
    assert body["params"] == {"limit": 1}


def test_blocks_refuse_a_challenge(api, alice, bob, carol, alice_key) -> None:
    user_block(blocker=alice, blocked=bob)
    user_block(blocker=carol, blocked=alice)
    refusal(send(api, alice_key, opponent="bob"), 403, "blocked")
    body = refusal(send(api, alice_key, opponent="carol"), 403, "forbidden")
    assert body["message"] == "You cannot challenge this player."


# --- answering ------------------------------------------------------------------------------


def test_accept_starts_the_match(api, pending, bob_key, alice, bob) -> None:
    response = api.post(f"/api/v1/challenges/{pending.pk}/accept/", **auth(bob_key))

    assert response.status_code == 200, response.content
    body = response.json()
    pending.refresh_from_db()
    game = pending.match.games.get(number=1)
    assert body == {
        "challenge": pending.pk,
        "match": pending.match_id,
        "game": game.pk,
        "url": f"/play/games/{game.pk}/",
        "api_url": f"/api/v1/games/{game.pk}/",
    }
    assert (pending.match.user0, pending.match.user1) == (alice, bob)
    again = api.post(f"/api/v1/challenges/{pending.pk}/accept/", **auth(bob_key))
    assert again.status_code == 200 and again.json() == body


def test_accept_refusals(api, pending, alice_key, bob_key, carol_key) -> None:
    url = f"/api/v1/challenges/{pending.pk}/accept/"
    refusal(api.post(url, **auth(alice_key)), 403, "forbidden")
    refusal(api.post(url, **auth(carol_key)), 404, "not_found")
    refusal(api.post("/api/v1/challenges/999999/accept/", **auth(bob_key)), 404, "not_found")
    Challenge.objects.filter(pk=pending.pk).update(expires_at=timezone.now() - timedelta(1))
    refusal(api.post(url, **auth(bob_key)), 409, "expired")


def test_accept_a_declined_challenge_is_closed(api, pending, bob_key) -> None:
    assert api.post(f"/api/v1/challenges/{pending.pk}/decline/", **auth(bob_key)).status_code == 200
    refusal(api.post(f"/api/v1/challenges/{pending.pk}/accept/", **auth(bob_key)), 409, "closed")


def test_decline(api, pending, alice_key, bob_key, carol_key) -> None:
    url = f"/api/v1/challenges/{pending.pk}/decline/"
    refusal(api.post(url, **auth(alice_key)), 403, "forbidden")
    refusal(api.post(url, **auth(carol_key)), 404, "not_found")

    response = api.post(url, **auth(bob_key))

    assert response.status_code == 200
    assert (response.json()["id"], response.json()["state"]) == (pending.pk, "declined")
    assert api.post(url, **auth(bob_key)).json()["state"] == "declined"
    assert api.get("/api/v1/challenges/", **auth(alice_key)).json()["count"] == 0


def test_cancel(api, pending, alice_key, bob_key, carol_key) -> None:
    url = f"/api/v1/challenges/{pending.pk}/cancel/"
    refusal(api.post(url, **auth(bob_key)), 403, "forbidden")
    refusal(api.post(url, **auth(carol_key)), 404, "not_found")

    response = api.post(url, **auth(alice_key))

    assert response.status_code == 200
    assert (response.json()["state"], response.json()["from"]["username"]) == ("cancelled", "alice")
    refusal(api.post(f"/api/v1/challenges/{pending.pk}/accept/", **auth(bob_key)), 409, "closed")


def test_cancel_an_accepted_challenge_is_closed(api, pending, alice_key, bob_key) -> None:
    api.post(f"/api/v1/challenges/{pending.pk}/accept/", **auth(bob_key))
    refusal(api.post(f"/api/v1/challenges/{pending.pk}/cancel/", **auth(alice_key)), 409, "closed")


def test_a_ranked_challenge_no_longer_possible_is_closed(
    api, alice, bob, alice_key, bob_key
) -> None:
    league = make_league()
    join(league, alice)
    membership = join(league, bob)
    sent = send(api, alice_key, opponent="bob", league="north").json()
    membership.delete()
    body = refusal(
        api.post(f"/api/v1/challenges/{sent['id']}/accept/", **auth(bob_key)), 409, "closed"
    )
    assert body["message"].startswith("This ranked challenge is no longer open")


# --- the whole flow -------------------------------------------------------------------------


def test_alice_challenges_bob_bob_accepts_and_the_match_is_listed(
    api, alice, bob, alice_key, bob_key
) -> None:
    sent = send(api, alice_key, opponent="bob", rules=SMALL_KNOBS).json()
    [waiting] = api.get("/api/v1/me/", **auth(bob_key)).json()["challenges"]
    assert (waiting["id"], waiting["state"]) == (sent["id"], "received")
    assert waiting["from"] == {"username": "alice", "name": "Alice", "is_bot": False}

    accepted = api.post(f"/api/v1/challenges/{sent['id']}/accept/", **auth(bob_key)).json()

    listed = api.get("/api/v1/matches/?player=bob&status=active").json()
    assert [m["id"] for m in listed["results"]] == [accepted["match"]]
    assert [s["player"]["username"] for s in listed["results"][0]["seats"]] == ["alice", "bob"]
    assert api.get("/api/v1/matches/?player=bob&status=finished").json()["count"] == 0
    for key, seat in ((alice_key, 0), (bob_key, 1)):
        me = api.get("/api/v1/me/", **auth(key)).json()
        assert [g["game"] for g in me["games_in_progress"]] == [accepted["game"]]
        assert me["challenges"] == []
        detail = api.get(f"/api/v1/matches/{accepted['match']}/", **auth(key)).json()
        assert detail["you"] == seat and detail["games"][0]["id"] == accepted["game"]
    assert api.get(accepted["api_url"], **auth(bob_key)).json()["you"] == 1


def test_challenge_churn_to_one_player_is_capped(api, alice, bob, alice_key, settings) -> None:
    """Create and cancel, again and again: the cap on challenges to one player (cancelled
    ones count) answers 409 too_many with the limit."""
    settings.LOBBY_CHALLENGES_TO_ONE_PLAYER_LIMIT = 3
    for _ in range(3):
        sent = send(api, alice_key, opponent="bob")
        assert sent.status_code == 201, sent.content
        cancel = f"/api/v1/challenges/{sent.json()['id']}/cancel/"
        assert api.post(cancel, **auth(alice_key)).status_code == 200
    body = refusal(send(api, alice_key, opponent="bob"), 409, "too_many")
    assert body["params"] == {"limit": 3}
    assert body["message"] == (
        "You challenged this player 3 times lately: wait before challenging them again."
    )
    assert Challenge.objects.count() == 3
