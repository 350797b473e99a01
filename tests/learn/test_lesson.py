"""The lesson's server side (learn/): every step's shown moves do the step through the engine,
the move endpoint keeps on-the-way moves, nudges legal moves that are not the point without
keeping them, passes the engine's reason for an illegal one, remembers a step done for a
visitor (the session) and a player (rows, the session's moved over), and refuses bad input."""

from __future__ import annotations

import json

import pytest

import engine
from learn.models import LessonStepDone
from learn.progress import SESSION_KEY
from learn.steps import DONE, NUDGE, ON, STEPS
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db


def post(client, slug: str, moves: list[str], move: str | None = None, **extra):
    body = {"moves": moves, **({"move": move} if move else {}), **extra}
    return client.post(f"/learn/{slug}/move/", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("step", STEPS, ids=[s.slug for s in STEPS])
def test_each_steps_shown_moves_do_it_and_every_other_legal_move_is_judged(step) -> None:
    game = step.start()
    for n, text in enumerate(step.shows):
        before = game.copy()
        game.play(text)
        verdict = step.judge(before, engine.Move.parse(text), game)
        assert verdict.kind == (DONE if n == len(step.shows) - 1 else ON), (step.slug, text)
    start = step.start()
    for move in start.legal_moves():
        after = start.copy()
        after.play(move)
        verdict = step.judge(start, move, after)
        assert verdict.kind in (DONE, ON, NUDGE)
        if verdict.kind == NUDGE:
            assert str(verdict.words)  # a kind word, never silence


def test_a_visitor_plays_a_step_through_and_it_is_remembered_in_the_session(client) -> None:
    page = client.get("/learn/build/")
    assert page.status_code == 200 and "Build a center stack" in page.content.decode()
    first = post(client, "build", [], "h:AC-c1").json()
    assert first["verdict"]["kind"] == "on"
    (state,) = first["frames"]
    assert state["type"] == "state" and state["version"] == 1
    assert state["lesson"]["shows"] == "h:2H-c1"
    assert state["view"]["center"][0]["stands_for"] == 1
    assert state["view"]["players"][1]["hand"] is None  # the opponent's hand stays hidden
    post(client, "build", ["h:AC-c1"], "h:2H-c1")
    done = post(client, "build", ["h:AC-c1", "h:2H-c1"], "h:3S-c1").json()
    assert done["verdict"] == {"kind": "done", "words": str(STEPS[1].praise)}
    assert client.session[SESSION_KEY] == ["build"]
    index = client.get("/learn/").content.decode()
    assert index.count("learn-step is-done") == 1


def test_a_legal_move_that_is_not_the_point_is_nudged_and_not_kept(client) -> None:
    answer = post(client, "payoff", [], "h:9S-s1").json()
    assert answer["frames"] == []
    assert (
        answer["verdict"]["kind"] == "nudge"
        and "pay-off pile is how you win" in (answer["verdict"]["words"])
    )
    keep = post(client, "keep", [], "h:6S-c1").json()
    assert keep["verdict"]["kind"] == "nudge" and "Keep your 6" in keep["verdict"]["words"]
    assert SESSION_KEY not in client.session


def test_an_illegal_move_gets_the_engines_reason_with_its_id(client) -> None:
    answer = post(client, "payoff", [], "h:9S-c2", id="m1").json()
    (error,) = answer["frames"]
    assert error["type"] == "error" and error["code"] == "illegal_move"
    assert error["engine_code"] == "wrong_rank" and error["id"] == "m1"
    assert error["message"] and answer["verdict"] is None


def test_moves_out_of_step_start_the_step_again_and_bad_input_is_refused(client) -> None:
    restart = post(client, "build", ["h:AC-s1"], "h:2H-c1").json()  # a nudged move is no kept one
    assert restart["frames"][0]["version"] == 0 and restart["verdict"] is None
    assert post(client, "build", "h:AC-c1").status_code == 400  # type: ignore[arg-type]
    bad = client.post("/learn/build/move/", "{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["frames"][0]["code"] == "bad_message"
    assert post(client, "build", ["x"] * 50).status_code == 400
    assert (
        client.post("/learn/nope/move/", "{}", content_type="application/json").status_code == 404
    )
    assert client.get("/learn/nope/").status_code == 404
    assert client.get("/learn/build/move/").status_code == 405


def test_a_players_steps_are_rows_and_a_visitors_session_moves_over_at_log_in(client) -> None:
    post(client, "payoff", [], "p-c1")
    assert client.session[SESSION_KEY] == ["payoff"]
    user = UserFactory(username="learner")
    client.force_login(user)
    post(client, "discard", [], "h:9S-s1")
    client.get("/learn/")
    assert set(LessonStepDone.objects.filter(user=user).values_list("step", flat=True)) == {
        "payoff",
        "discard",
    }
    assert SESSION_KEY not in client.session


def test_the_last_step_leads_to_a_quick_game_against_the_random_bot(client) -> None:
    for step in STEPS:
        moves: list[str] = []
        for move in step.shows:
            post(client, step.slug, moves, move)
            moves.append(move)
    index = client.get("/learn/").content.decode()
    assert index.count("learn-step is-done") == len(STEPS)
    assert 'name="bot" value="random"' in index and 'name="preset" value="quick"' in index
    started = client.post("/play/", {"bot": "random", "preset": "quick"})
    assert started.status_code == 302 and "/play/games/" in started["Location"]


def test_a_guests_steps_are_kept_as_a_players_are(client) -> None:
    """A visitor who started a guest game is a guest account: their steps are rows, and a
    reload (a new request of the same session) still shows them."""
    client.post("/play/", {"bot": "random", "preset": "quick"})  # becomes a guest
    guest = client.get("/learn/").wsgi_request.user
    assert guest.is_guest
    post(client, "payoff", [], "p-c1")
    assert list(LessonStepDone.objects.filter(user=guest).values_list("step", flat=True)) == [
        "payoff"
    ]
    assert client.get("/learn/").content.decode().count("learn-step is-done") == 1
