"""api.errors (one status per code, the JSON shape), the OpenAPI schema and the docs page."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from rest_framework import exceptions

from api.errors import STATUS, exception_handler
from core.errors import CODES, GameError

EXPECTED = {
    "bad_message": 400,
    "illegal_move": 400,
    "nothing_to_undo": 400,
    "unauthenticated": 401,
    "forbidden": 403,
    "blocked": 403,
    "not_found": 404,
    "stale_version": 409,
    "not_your_turn": 409,
    "game_over": 409,
    "expired": 409,
    "taken": 409,
    "closed": 409,
    "duplicate": 409,
    "too_many": 409,
    "throttled": 429,
    "unavailable": 503,
}


def test_every_code_has_exactly_one_status() -> None:
    assert set(STATUS) == set(CODES)
    assert STATUS == EXPECTED


@pytest.mark.parametrize("code", sorted(CODES))
def test_a_game_error_becomes_code_message_params(code: str) -> None:
    response = exception_handler(GameError(code, "No.", params={"x": 1}), {})
    assert response.status_code == EXPECTED[code]
    assert response.data == {"code": code, "message": "No.", "params": {"x": 1}}


def test_an_illegal_move_carries_the_engine_code_in_params() -> None:
    error = GameError("illegal_move", "No.", params={"card": "7D"}, engine_code="not_playable")
    response = exception_handler(error, {})
    assert response.data["params"] == {"card": "7D", "engine_code": "not_playable"}


@pytest.mark.parametrize(
    ("exc", "status", "code"),
    [
        (exceptions.ValidationError({"move": ["Required."]}), 400, "bad_message"),
        (exceptions.NotAuthenticated(), 401, "unauthenticated"),
        (exceptions.AuthenticationFailed(), 401, "unauthenticated"),
        (exceptions.PermissionDenied(), 403, "forbidden"),
        (exceptions.NotFound(), 404, "not_found"),
        (exceptions.Throttled(wait=12.3), 429, "throttled"),
    ],
)
def test_drf_errors_take_the_same_shape(exc, status, code) -> None:
    response = exception_handler(exc, {})
    assert response.status_code == status
    assert set(response.data) == {"code", "message", "params"}
    assert response.data["code"] == code
    if code == "throttled":
        assert response["Retry-After"] == "13"
        assert response.data["params"] == {"retry_after": 13}
    if isinstance(exc, exceptions.ValidationError):
        assert response.data["params"] == {"errors": {"move": ["Required."]}}


def test_the_schema_validates_without_warnings(tmp_path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "/api/v1/games/{game_id}/moves/" in text


@pytest.mark.django_db
def test_the_schema_is_served(client) -> None:
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"Spite & Malice online API" in response.content


@pytest.mark.django_db
def test_the_docs_page_loads_nothing_from_outside(client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html
    assert re.findall(r"https?://", html) == []
