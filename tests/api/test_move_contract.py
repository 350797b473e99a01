"""One contract for a move at both doors: the game socket's table_game of bad moves
(``tests.games.test_bad_input.game_messages``) posted to ``POST /api/v1/games/<id>/moves/``
gets the same code from the REST API as from the socket (and the status ``api.errors.STATUS``
gives it), and nothing changes in the game. The body's own faults (not an object, not JSON,
too large) are the REST door's alone."""

from __future__ import annotations

import json

import pytest

from api.errors import STATUS
from tests.games.helpers import a_center_move
from tests.games.test_bad_input import game_messages

pytestmark = pytest.mark.django_db

MOVE_ROWS = [
    (label, message, code)
    for label, message, code in game_messages(0, "MOVE")
    if message["type"] == "move"
]


def _post(api, table_game, key, body, **extra):
    return api.post(
        f"/api/v1/games/{table_game.pk}/moves/", body, HTTP_AUTHORIZATION=f"Bearer {key}", **extra
    )


@pytest.mark.parametrize(("label", "message", "code"), MOVE_ROWS, ids=[row[0] for row in MOVE_ROWS])
def test_every_bad_move_gets_the_sockets_code(
    api, table_game, alice_key, label, message, code
) -> None:
    move = a_center_move(table_game)
    body = {k: (move if v == "MOVE" else v) for k, v in message.items() if k != "type"}
    # json.dumps escapes a lone surrogate, which the test client could not encode itself
    response = _post(api, table_game, alice_key, json.dumps(body), content_type="application/json")
    assert response.json()["code"] == code, (label, response.json())
    assert response.status_code == STATUS[code]
    table_game.refresh_from_db()
    assert table_game.version == 0 and table_game.moves.count() == 0


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        ("[1, 2]", "application/json", 400, "bad_message"),
        ("3", "application/json", 400, "bad_message"),
        ("{not json", "application/json", 400, "bad_message"),
        ("move=h:7D-c2", "text/plain", 415, "bad_message"),
        ('{"move": "' + "x" * 3_000_000 + '"}', "application/json", 413, "bad_message"),
    ],
    ids=["a list", "a number", "not JSON", "not JSON's media type", "over 2.5 MB"],
)
def test_a_body_that_is_no_move_is_refused_in_json(
    api, table_game, alice_key, body, content_type, status, code
) -> None:
    response = _post(api, table_game, alice_key, body, content_type=content_type)
    assert (response.status_code, response["Content-Type"]) == (status, "application/json")
    assert response.json()["code"] == code and response.json()["message"]
    table_game.refresh_from_db()
    assert table_game.version == 0
