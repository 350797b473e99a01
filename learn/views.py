"""The lesson's pages (docs/learn.md): the list of steps, one step at the real table, and the
move a step's table sends.

The table is the live table's own component (static/js/table.js) with another way to the
server: ``lesson.js`` posts each move here with the moves already kept, and gets back the table
frames the game socket would send (``state``, or an ``error`` with the engine's reason) and the
lesson's word on it. Nothing of a step is stored but whether it was done (learn/progress.py):
its position is rebuilt from the step and the moves the page sends.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST

import engine
from core.errors import BAD_MESSAGE, ILLEGAL_MOVE
from games.refusals import refusal_message
from learn.progress import step_done_mark, steps_done
from learn.steps import BY_SLUG, DONE, NUDGE, ON, STEPS, Step

#: The most moves a step's page may send (no step needs more than a few).
MAX_MOVES = 12
NO_STEP = gettext_lazy("There is no such step in the lesson.")


def _step(slug: str) -> Step:
    step = BY_SLUG.get(slug)
    if step is None:
        raise Http404(NO_STEP)
    return step


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The lesson's steps, those done ticked, and the way on."""
    done = steps_done(request)
    rows = [
        {"step": step, "number": n, "done": step.slug in done} for n, step in enumerate(STEPS, 1)
    ]
    first_open = next((row for row in rows if not row["done"]), None)
    context = {"rows": rows, "next": first_open, "all_done": first_open is None}
    return render(request, "learn/index.html", context)


def _frame(step: Step, game: engine.Game, moves: list[str]) -> dict[str, Any]:
    """The ``state`` frame the table draws (docs/protocol.md's shape), seat 0, with the
    lesson's part: the move the board shows next."""
    shows = step.shows[len(moves)] if len(moves) < len(step.shows) else None
    return {
        "type": "state",
        "game": {"id": 0, "number": 1, "status": "active", "outcome": None, "first_player": 0},
        "version": len(moves),
        "last_moves": [
            {"ply": ply, "seat": 0, "kind": "move", "move": move, "undoes": 0}
            for ply, move in enumerate(moves)
        ],
        "match": {
            "id": 0,
            "seats": [
                {"name": _("You"), "kind": "person"},
                {"name": _("Your opponent"), "kind": "person"},
            ],
            "scores": [0, 0],
            "target": 1,
            "status": "active",
            "ranked": False,
            "next_game": None,
        },
        "spectators": 0,
        "clock": None,
        "presence": None,
        "view": game.view(0),
        "you": 0,
        "can_undo": False,
        "can_abort": False,
        "can_hint": False,
        "lesson": {"shows": shows},
    }


def _replayed(step: Step, moves: list[str]) -> engine.Game | None:
    """The step's position after ``moves``, each legal and kept by the step; None if not."""
    game = step.start()
    for text in moves:
        before = game.copy()
        try:
            game.play(text)
        except engine.IllegalMove:
            return None
        if step.judge(before, engine.Move.parse(text), game).kind != ON:
            return None
    return game


@require_GET
@ensure_csrf_cookie
def step_page(request: HttpRequest, slug: str) -> HttpResponse:
    step = _step(slug)
    number = STEPS.index(step) + 1
    following = STEPS[number] if number < len(STEPS) else None
    context = {
        "step": step,
        "number": number,
        "count": len(STEPS),
        "following": following,
        "done": step.slug in steps_done(request),
        "initial_state": _frame(step, step.start(), []),
        "steps": STEPS,
    }
    return render(request, "learn/step.html", context)


def _bad(message: str) -> JsonResponse:
    return JsonResponse(
        {"frames": [{"type": "error", "code": BAD_MESSAGE, "message": message}]}, status=400
    )


@require_POST
def step_move(request: HttpRequest, slug: str) -> JsonResponse:
    """``{"moves": [kept moves], "move": "h:7D-c2", "id": "…"}`` (no ``move``: the state
    again). Answers ``{"frames": [...], "verdict": {"kind", "words"}}``."""
    step = _step(slug)
    try:
        body = json.loads(request.body.decode("utf-8") or "{}")
    except (UnicodeDecodeError, json.JSONDecodeError):
        return _bad(_("Send the lesson's moves as JSON."))
    moves, move, move_id = body.get("moves", []), body.get("move"), body.get("id")
    if (
        not isinstance(body, dict)
        or not isinstance(moves, list)
        or len(moves) > MAX_MOVES
        or not all(isinstance(m, str) for m in moves)
        or (move is not None and not isinstance(move, str))
    ):
        return _bad(_("Send the lesson's moves as a list of moves, and the new one."))
    game = _replayed(step, moves)
    if game is None:
        # A page out of step with the lesson (an older copy of it): start the step again.
        return JsonResponse({"frames": [_frame(step, step.start(), [])], "verdict": None})
    if move is None:
        return JsonResponse({"frames": [_frame(step, game, moves)], "verdict": None})
    before = game.copy()
    try:
        game.play(move)
    except engine.IllegalMove as exc:
        error = {
            "type": "error",
            "code": ILLEGAL_MOVE,
            "engine_code": exc.code,
            "message": str(refusal_message(exc, king_on_empty=game.rules.king_on_empty)),
            "id": move_id if isinstance(move_id, str) else None,
        }
        return JsonResponse({"frames": [error], "verdict": None})
    verdict = step.judge(before, engine.Move.parse(move), game)
    if verdict.kind == NUDGE:
        return JsonResponse({"frames": [], "verdict": {"kind": NUDGE, "words": str(verdict.words)}})
    kept = [*moves, move]
    words = step.praise if verdict.kind == DONE else verdict.words
    if verdict.kind == DONE:
        step_done_mark(request, step.slug)
    return JsonResponse(
        {
            "frames": [_frame(step, game, kept)],
            "verdict": {"kind": verdict.kind, "words": None if words is None else str(words)},
        }
    )
