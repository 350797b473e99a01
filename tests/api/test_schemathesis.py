"""Schemathesis fuzzes every operation of the OpenAPI schema, in-process.

The schema is read from ``/api/schema/`` of the Django WSGI application, and the generated
requests go to that same application: no server, no network. One test item per operation.
The player whose token is sent has real things to hit: a league with members, a match in
progress against a bot (their turn), a running Swiss tournament, challenges both ways. Half of
the generated path parameters are swapped for those real ids and slugs, so requests get past
the 404, and half of the moves posted are legal moves in that match, so its game goes on. A
second, shorter pass sends no credentials at all.

Checks: no 5xx, and every answer as the schema says (status code, content type, headers, body).
Bounded for CI by count: ``API_FUZZ_EXAMPLES`` (default 20) generated requests an operation,
derandomized, no shrinking; set it higher to fuzz longer locally. And each request by its own
time: ``DEADLINE`` a request (Hypothesis' per-example deadline), some ten times the slowest
seen, so an input whose cost grows with it (a huge page, a deep body) fails on that request
instead of stretching the run. No clock on the whole pass: that would fail on a slow machine.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.services import api_token_create
from games.models import Match
from leagues.tournaments import services as tournaments
from lobby.services import challenge_create
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL, legal
from tests.leagues.conftest import join, make_league

MAX_EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "20"))
#: The most one generated request may take (its checks included; the fixtures and Hypothesis'
#: own work are outside it). The slowest seen is under 0.5 s, the first of a run.
DEADLINE = timedelta(seconds=5)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

FUZZ = settings(
    max_examples=MAX_EXAMPLES,
    deadline=DEADLINE,
    derandomize=True,
    database=None,
    # explicit: the schema's examples and schemathesis' coverage cases; no shrinking.
    phases=[Phase.explicit, Phase.generate],
    # The data is shared by the requests of one operation on purpose (what they change stays).
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def _wsgi_application() -> Any:
    from django.core.wsgi import get_wsgi_application

    return get_wsgi_application()


# Loaded at collection: the schema endpoint reads no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/", _wsgi_application())

#: Real ids and slugs by path parameter name, and alice's match against the bot, filled by
#: ``world`` for the test that runs.
KNOWN: dict[str, list[Any]] = {}
TABLE: dict[str, int] = {}
PLAY = "POST /api/v1/games/{game_id}/moves/"


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> Any:
    """Either the generated parameters or, for the names in KNOWN, real values."""
    if not path_parameters or not KNOWN:
        return st.just(path_parameters)
    real = {
        name: st.sampled_from(KNOWN[name]) if name in KNOWN else st.just(value)
        for name, value in path_parameters.items()
    }
    return st.one_of(st.just(path_parameters), st.fixed_dictionaries(real))


@schema.hook
def flatmap_case(context: Any, case: Any) -> Any:
    """Half of the moves posted are legal ones in alice's game, so that it goes on."""
    if context.operation.label != PLAY or not TABLE:
        return st.just(case)
    return st.one_of(st.just(case), _a_legal_move(case))


@st.composite
def _a_legal_move(draw: Any, case: Any) -> Any:
    game = Match.objects.get(pk=TABLE["match"]).current_game
    moves = legal(game, 0) if game is not None else []
    if moves:  # else the bot is to move, or the match is over: the generated case stays
        case.path_parameters = {"game_id": game.pk}
        case.body = {
            "move": draw(st.sampled_from(moves)),
            "version": game.version,
            "id": draw(st.sampled_from(["", "retry-1", "retry-2"])),
        }
    return case


@pytest.fixture
def world(alice, bob, human_starts):
    """alice's API key, with KNOWN filled with what she can reach."""
    carol = UserFactory(username="carol", display_name="Carol")
    league = make_league("north")
    for user in (alice, bob, carol):
        join(league, user)
    table = human_starts(alice)
    cup = tournaments.tournament_create(
        league=league, name="North Cup", slug="north-cup", format="swiss", rounds=2
    )
    tournaments.tournament_open_registration(tournament=cup)
    for user in (alice, bob, carol):
        tournaments.tournament_register(tournament=cup, user=user)
    tournaments.tournament_start(tournament=cup)
    to_alice = challenge_create(challenger=bob, challenged_username="alice", league=league)
    from_alice = challenge_create(challenger=alice, challenged_username="carol", rules=SMALL)
    matches = list(Match.objects.order_by("pk"))
    KNOWN.update(
        {
            "game_id": [m.current_game.pk for m in matches if m.current_game],
            "match_id": [m.pk for m in matches],
            "slug": [league.slug],
            "tournament_id": [cup.pk],
            "challenge_id": [to_alice.pk, from_alice.pk],
        }
    )
    TABLE["match"] = table.pk
    yield api_token_create(user=alice, name="fuzz")[1]
    KNOWN.clear()
    TABLE.clear()


@pytest.fixture(autouse=True)
def _no_throttles(monkeypatch):
    """Every scope far above what a run sends: 429 is tested elsewhere (test_games.py)."""
    from rest_framework.throttling import SimpleRateThrottle

    rates = {scope: "100000/minute" for scope in SimpleRateThrottle.THROTTLE_RATES}
    monkeypatch.setattr(SimpleRateThrottle, "THROTTLE_RATES", rates)


@pytest.fixture
def wsgi_requests(django_capture_on_commit_callbacks):
    """Calls into the WSGI application inside the test's transaction.

    The WSGI handler closes the connection when a request starts and ends; like Django's test
    client, keep it (and the transaction) open instead. The transaction never commits, so
    what a commit would run (broadcasts to sockets) runs after each request.
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    def call(case: Any, headers: dict[str, str]) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            case.call_and_validate(headers=headers, checks=CHECKS)

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield call
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_a_player_gets_no_server_error_and_answers_as_documented(
    case, world, wsgi_requests
) -> None:
    wsgi_requests(case, {"Authorization": f"Bearer {world}"})


@pytest.mark.django_db
@schema.parametrize()
@settings(FUZZ, max_examples=max(MAX_EXAMPLES // 2, 1))
def test_anyone_gets_no_server_error_and_answers_as_documented(case, world, wsgi_requests) -> None:
    wsgi_requests(case, {})


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/", "/api/v1/nothing/", "/api/v1/games/abc/moves/"])
@pytest.mark.parametrize("method", ["get", "post", "delete", "options"])
def test_an_address_that_names_no_endpoint_answers_the_json_404(api, path, method) -> None:
    """What the fuzzing found first: ``games/abc/`` (no int) used to get Django's HTML page."""
    response = getattr(api, method)(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
def test_an_address_without_its_final_slash_is_still_redirected(api) -> None:
    response = api.get("/api/v1/me")
    assert response.status_code == 301
    assert response["Location"] == "/api/v1/me/"


#: Views that name DRF's own JSONParser in ``parser_classes`` instead of api.parsers.JSONParser
#: (/tmp/api-docs/schemathesis-findings.md, finding 4): still a 500 there.
def _posts() -> list[Any]:
    operations = (result.ok() for result in schema.get_all_operations())
    return sorted(op.path for op in operations if op.method == "post")


@pytest.mark.django_db
@pytest.mark.parametrize("path", _posts())
def test_json_nested_too_deep_is_never_a_server_error(api, world, path) -> None:
    """Found beside the fuzzing: DRF's parser let RecursionError out (a 500)."""
    for name, values in KNOWN.items():
        path = path.replace("{" + name + "}", str(values[0]))
    body = "[" * 100_000 + "]" * 100_000
    response = api.post(
        path, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {world}"
    )
    assert response.status_code < 500
    if response.status_code == 400:  # views that read no body answer as without one
        assert response.json()["code"] == "bad_message"
