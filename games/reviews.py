"""Reviews (docs/games.md, "Reviews"): when a game with a person in it ends, the expert reviews
each turn of each person from their view at the time (``engine.coach.review_turns``).

``_game_finish`` calls ``review_enqueue`` in the transaction that ends the game: a ``Review``
row and the job ``review_run`` exist exactly when the end committed. The job runs on the
background queue (nobody waits on it; a hint never queues behind it), stores each turn as it
goes and the whole review once at the end; a job whose worker died is taken again by another
(docs/jobs.md) and resumes after the last turn stored. Its cost is bounded by
``GAMES_REVIEW_PLAYOUTS`` playouts a turn and the expert's counted budget.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core import jobs
from engine import coach
from games.hints import HINT_SEED, hint_options
from games.models import SEATS, Game, Review
from games.reasons import reason_text
from games.selectors.replay import deal, in_force_rows, moves_in_force

logger = logging.getLogger(__name__)


def review_enqueue(game: Game) -> None:
    """Ask for ``game``'s review (in the caller's transaction) when a person played in it
    (and ``GAMES_REVIEWS`` is on)."""
    match = game.match
    if not settings.GAMES_REVIEWS or all(match.is_bot(seat) for seat in SEATS):
        return
    _review, created = Review.objects.get_or_create(game=game)
    if created:
        jobs.enqueue(review_run, game.pk, queue=jobs.BACKGROUND)


def review_run(game_id: int) -> bool:
    """The job: review the game's remaining turns, storing each, then the whole review. True
    if this run finished it; nothing when it is done already or the game is gone."""
    review = Review.objects.select_related("game__match").filter(game_id=game_id).first()
    if review is None or review.status == Review.Status.DONE:
        return False
    game = review.game
    seats = [seat for seat in SEATS if not game.match.is_bot(seat)]
    playouts = int(settings.GAMES_REVIEW_PLAYOUTS)
    turns: list[dict[str, Any]] = list(review.data.get("turns", []))
    started = time.process_time()
    spent = review.cpu_seconds
    for turn in coach.review_turns(
        deal(game),
        moves_in_force(game),
        seats=seats,
        playouts_per_turn=playouts,
        seed=HINT_SEED,
        expert=hint_options(),
        skip=len(turns),
    ):
        turns.append(turn.to_dict())
        review.data = {"turns": turns}
        review.cpu_seconds = spent + time.process_time() - started
        review.save(update_fields=["data", "cpu_seconds"])
    whole = coach.Review(
        seats=tuple(seats),
        turns=tuple(coach.Turn.from_dict(t) for t in turns),
        playouts_per_turn=playouts,
    )
    with transaction.atomic():
        review.data = whole.to_dict()
        review.status = Review.Status.DONE
        review.cpu_seconds = spent + time.process_time() - started
        review.finished_at = timezone.now()
        review.save(update_fields=["data", "status", "cpu_seconds", "finished_at"])
    logger.info(
        "review of game %s: %s turns in %.1f s of CPU", game_id, len(turns), review.cpu_seconds
    )
    return True


def review_for(game: Game) -> dict[str, Any] | None:
    """``game``'s review as the replay and the API show it, or None when it has none (no
    person played, reviews were off, it was aborted): ``{"status": "pending", "turns_done"}``
    while the job works, else the stored review with, on every decision, ``frame`` (the
    replay's position after the move, undo rows counted) and the reasons in words in the
    active language (``reason_text``, ``warning_text``)."""
    review = Review.objects.filter(game=game).first()
    if review is None:
        return None
    if review.status != Review.Status.DONE:
        return {"status": review.status, "turns_done": len(review.data.get("turns", []))}
    rows = in_force_rows(game)
    turns = []
    for turn in review.data.get("turns", []):
        decisions = [
            {
                **d,
                "frame": rows[d["ply"]].ply + 1,
                "reason_text": reason_text(d.get("reason")),
                "warning_text": reason_text(d.get("warning")),
            }
            for d in turn["decisions"]
        ]
        turns.append({**turn, "frame": rows[turn["first_ply"]].ply, "decisions": decisions})
    return {"status": review.status, **review.data, "turns": turns}
