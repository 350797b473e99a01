"""The API's refusals ``{code, message, params}`` in the request's language: Accept-Language
(or the cookie, or a session user's profile) through the middleware, and for a request signed
with an API token the token user's profile language. A stand-in gettext marks each English text
with the language active when it is read (the catalogs' words are tested elsewhere)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_a_refusal_follows_accept_language(api, marked) -> None:
    response = api.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="vi")
    assert response.status_code == 404
    assert response.json()["message"] == "[vi]There is no such game."
    response = api.get("/api/v1/games/999999/")
    assert response.json()["message"] == "[en]There is no such game."


def test_a_token_request_gets_its_users_language(api, marked, alice, alice_key) -> None:
    alice.language = "vi"
    alice.save(update_fields=["language"])
    response = api.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="es", **_bearer(alice_key))
    assert response.json() == {
        "code": "not_found",
        "message": "[vi]There is no such game.",
        "params": {},
    }
    assert response["Content-Language"] == "vi"


def test_a_token_user_without_a_language_keeps_the_requests(api, marked, alice, alice_key) -> None:
    response = api.get("/api/v1/games/999999/", HTTP_ACCEPT_LANGUAGE="es", **_bearer(alice_key))
    assert response.json()["message"] == "[es]There is no such game."


def test_an_illegal_move_in_the_players_words(api, alice, alice_key, table_game) -> None:
    response = api.post(
        f"/api/v1/games/{table_game.pk}/moves/",
        {"move": "s1-c1", "version": 0, "id": "m1"},
        format="json",
        **_bearer(alice_key),
    )
    body = response.json()
    assert response.status_code == 400 and body["code"] == "illegal_move"
    assert body["message"] == "Side stack 1 is empty: there is no card to play from it."
    assert body["params"] == {"stack": "s1", "engine_code": "empty_stack"}
