"""/api/v1/games/<id>/ and its moves: views through the same frame builder as the socket,
posting moves through games.services, every refusal as {code, message, params}."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from api.views.games import MovesPagination
from games import services
from games.models import Game
from games.refusals import refusal_message
from games.selectors import game_state_frame
from tests.games.helpers import SMALL, a_side_move, bot_turn_play, center_line, current_game

pytestmark = pytest.mark.django_db


def _frame(game: Game, seat: int | None) -> dict[str, Any]:
    game = Game.objects.select_related("match__user0", "match__user1").get(pk=game.pk)
    return json.loads(json.dumps(game_state_frame(game, seat)))


@pytest.fixture
def table(alice, human_starts) -> Game:
    """Game 1 of alice against the greedy bot, alice to move, version 0."""
    return current_game(human_starts(alice))


def _bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def _json(key: str) -> dict[str, str]:
    return {"format": "json", **_bearer(key)}


def test_a_player_sees_exactly_their_own_view(api, table, alice_key) -> None:
    response = api.get(f"/api/v1/games/{table.pk}/", **_bearer(alice_key))
    assert response.status_code == 200
    assert response.json() == _frame(table, 0)
    assert response.json()["view"] == json.loads(
        json.dumps(engine.Game.from_dict(table.state).view(0))
    )


@pytest.mark.parametrize("who", ["anonymous", "bob"])
def test_others_see_the_spectators_view(api, table, bob_key, who) -> None:
    headers = _bearer(bob_key) if who == "bob" else {}
    response = api.get(f"/api/v1/games/{table.pk}/", **headers)
    assert response.status_code == 200
    body = response.json()
    assert body == _frame(table, None)
    assert body["you"] is None
    assert body["view"] == json.loads(json.dumps(engine.Game.from_dict(table.state).view(None)))
    assert body != _frame(table, 0)


def test_an_unknown_game_is_not_found(api) -> None:
    response = api.get("/api/v1/games/999999/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_posting_a_move_answers_201_with_the_new_view_and_a_resend_200(
    api, table, alice_key
) -> None:
    move = a_side_move(table)
    url = f"/api/v1/games/{table.pk}/moves/"
    first = api.post(
        url, {"move": move, "version": 0, "id": "m1"}, format="json", **_bearer(alice_key)
    )
    assert first.status_code == 201, first.json()
    body = first.json()
    assert (body["move"], body["version"], body["seat"], body["replayed"]) == (move, 1, 0, False)
    assert body["state"] == _frame(table, 0)
    again = api.post(
        url, {"move": move, "version": 0, "id": "m1"}, format="json", **_bearer(alice_key)
    )
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["version"] == 1
    assert table.moves.count() == 1

    log = api.get(url)
    assert log.status_code == 200
    assert log.json()["count"] == 1
    assert log.json()["results"] == [
        {"ply": 0, "seat": 0, "kind": "move", "text": move, "undoes": 0}
    ]


def test_a_stale_version_is_409_with_the_current_version(api, table, alice_key) -> None:
    url = f"/api/v1/games/{table.pk}/moves/"
    response = api.post(
        url,
        {"move": a_side_move(table), "version": 5, "id": "m1"},
        format="json",
        **_bearer(alice_key),
    )
    assert response.status_code == 409
    assert response.json()["code"] == "stale_version"
    assert response.json()["params"] == {"version": 0}


def test_not_your_turn_is_409(api, alice, alice_key, bot_starts) -> None:
    game = current_game(bot_starts(alice))
    response = api.post(
        f"/api/v1/games/{game.pk}/moves/",
        {"move": "h:AS-c1", "version": game.version, "id": "m1"},
        format="json",
        **_bearer(alice_key),
    )
    assert response.status_code == 409
    assert response.json()["code"] == "not_your_turn"


def test_an_illegal_move_is_400_with_the_engines_code(api, table, alice_key) -> None:
    with pytest.raises(engine.IllegalMove) as refused:
        engine.Game.from_dict(table.state).play("h:AS-c9")
    response = api.post(
        f"/api/v1/games/{table.pk}/moves/",
        {"move": "h:AS-c9", "version": 0, "id": "m1"},
        format="json",
        **_bearer(alice_key),
    )
    assert response.status_code == 400
    assert response.json() == {
        "code": "illegal_move",
        "message": str(refusal_message(refused.value)),  # the engine's, in player words
        "params": {
            **json.loads(json.dumps(refused.value.params)),
            "engine_code": refused.value.code,
        },
    }


def test_bad_input_is_400_naming_the_field(api, table, alice_key) -> None:
    response = api.post(
        f"/api/v1/games/{table.pk}/moves/",
        {"move": "x", "id": "m1"},
        format="json",
        **_bearer(alice_key),
    )
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["params"]) == ("bad_message", {"field": "version"})
    assert body["message"] == "A move needs the version it was chosen against."


def test_a_spectator_may_not_move(api, table, bob_key) -> None:
    response = api.post(
        f"/api/v1/games/{table.pk}/moves/",
        {"move": a_side_move(table), "version": 0, "id": "m1"},
        format="json",
        **_bearer(bob_key),
    )
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert table.moves.count() == 0


def test_anonymous_may_not_move(api, table) -> None:
    response = api.post(
        f"/api/v1/games/{table.pk}/moves/",
        {"move": a_side_move(table), "version": 0},
        format="json",
    )
    assert response.status_code == 401
    assert response.json()["code"] == "unauthenticated"


def _rates(monkeypatch, **rates: str) -> None:
    """Throttle rates for this test (DRF reads them once, into the throttle classes)."""
    from django.conf import settings
    from rest_framework.throttling import SimpleRateThrottle

    merged = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", merged)


def test_anonymous_reads_are_throttled(api, table, monkeypatch) -> None:
    _rates(monkeypatch, anon="2/minute")
    statuses = [api.get(f"/api/v1/games/{table.pk}/").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_moves_are_throttled_with_retry_after(api, table, alice_key, monkeypatch) -> None:
    _rates(monkeypatch, moves="2/minute")
    url = f"/api/v1/games/{table.pk}/moves/"
    statuses = [
        api.post(url, {"move": "h:AS-c9", "version": 0, "id": f"m{n}"}, **_json(alice_key))
        for n in range(3)
    ]
    assert [r.status_code for r in statuses] == [400, 400, 429]
    last = statuses[-1]
    assert last.json()["code"] == "throttled"
    assert int(last["Retry-After"]) == last.json()["params"]["retry_after"] > 0


# --- GET /api/v1/games/<id>/moves/: the move log -------------------------------------------


ROW_KEYS = {"ply", "seat", "kind", "text", "undoes"}


@pytest.fixture
def logged(alice, seeds) -> Game:
    """A game in progress whose log has moves of both seats and an undo: alice plays two
    center cards, takes them back, plays one again and ends her turn; the bot answers."""
    seed, line = center_line([False, False])
    seeds(seed, 4242)
    game = current_game(services.match_create(user=alice, bot="greedy", rules=SMALL))
    for version, move in enumerate(line):
        services.game_play_move(game_id=game.pk, user=alice, move=move, version=version)
    services.game_undo(game_id=game.pk, user=alice, version=2)
    services.game_play_move(game_id=game.pk, user=alice, move=line[0], version=3)
    game.refresh_from_db()
    services.game_play_move(game_id=game.pk, user=alice, move=a_side_move(game), version=4)
    bot_turn_play(game)  # nothing commits in these tests: the bot's turn by hand
    game.refresh_from_db()
    assert game.is_active
    return game


def _log_rows(game: Game) -> list[dict[str, Any]]:
    return [
        {"ply": m.ply, "seat": m.seat, "kind": m.kind, "text": m.text, "undoes": m.undoes}
        for m in game.moves.order_by("ply")
    ]


def _moves_url(game: Game, query: str = "") -> str:
    return f"/api/v1/games/{game.pk}/moves/" + (f"?{query}" if query else "")


def test_the_move_log_is_every_row_in_ply_order_the_same_for_anyone(
    api, logged, alice_key, bob_key
) -> None:
    """The log is public, a game in progress too: anonymous, a spectator and the player read
    the same rows, each only ply, seat, kind, text and undoes (a move names only cards it put
    face up; the stock and the hands are never in it)."""
    expected = _log_rows(logged)
    assert [row["kind"] for row in expected[:4]] == ["move", "move", "undo", "move"]
    assert expected[2]["undoes"] == 2
    assert {row["seat"] for row in expected} == {0, 1}

    bodies = [
        api.get(_moves_url(logged), **headers).json()
        for headers in ({}, _bearer(bob_key), _bearer(alice_key))
    ]

    assert bodies[0] == {
        "count": len(expected),
        "next": None,
        "previous": None,
        "results": expected,
    }
    assert bodies[1] == bodies[0] and bodies[2] == bodies[0]
    assert [row["ply"] for row in bodies[0]["results"]] == list(range(len(expected)))
    assert all(set(row) == ROW_KEYS for row in bodies[0]["results"])


def test_a_game_without_moves_has_an_empty_log(api, table) -> None:
    response = api.get(_moves_url(table))
    assert response.status_code == 200
    assert response.json() == {"count": 0, "next": None, "previous": None, "results": []}


def test_the_move_log_pages_with_limit_and_offset(api, logged) -> None:
    expected = _log_rows(logged)

    page = api.get(_moves_url(logged, "limit=2&offset=1")).json()

    assert page["count"] == len(expected)
    assert page["results"] == expected[1:3]
    assert "limit=2" in page["next"] and "offset=3" in page["next"]
    assert "limit=2" in page["previous"]
    rest = api.get(page["next"]).json()
    assert rest["results"] == expected[3:5]
    beyond = api.get(_moves_url(logged, f"offset={len(expected)}")).json()
    assert beyond["results"] == [] and beyond["next"] is None and beyond["previous"]


def test_the_move_log_pages_by_100_and_cuts_a_larger_limit_to_500(api, logged, monkeypatch) -> None:
    """docs/api.md: 100 a page by default, at most 500 (a larger limit is cut, not refused);
    shown with smaller numbers, the log being short."""
    assert (MovesPagination.default_limit, MovesPagination.max_limit) == (100, 500)
    monkeypatch.setattr(MovesPagination, "default_limit", 2)
    monkeypatch.setattr(MovesPagination, "max_limit", 3)
    expected = _log_rows(logged)

    default = api.get(_moves_url(logged)).json()
    assert default["results"] == expected[:2] and "limit=2" in default["next"]
    cut = api.get(_moves_url(logged, "limit=1000000")).json()
    assert cut["results"] == expected[:3] and "limit=3" in cut["next"]
    empty = api.get(_moves_url(logged, "limit=&offset=")).json()  # empty: not given
    assert empty["results"] == expected[:2]


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("limit=abc", "limit"),
        ("limit=-1", "limit"),
        ("limit=0", "limit"),
        ("limit=2.5", "limit"),
        ("offset=abc", "offset"),
        ("offset=-1", "offset"),
        ("offset=99999999999999999999", "offset"),
        ("limit=abc&offset=-1", "limit,offset"),
    ],
)
def test_a_limit_or_offset_that_is_not_a_page_is_400(api, logged, query, name) -> None:
    """Not DRF's quiet fallback to the first page: 400 bad_message naming the parameter."""
    response = api.get(_moves_url(logged, query))
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_message"
    assert sorted(body["params"]["errors"]) == name.split(",")


def test_the_move_log_of_an_unknown_game_is_not_found(api) -> None:
    for query in ("", "limit=abc"):
        response = api.get(f"/api/v1/games/999999/moves/?{query}")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"
