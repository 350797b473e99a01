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
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core import jobs
from engine import coach
from games.hints import HINT_SEED, hint_options
from games.models import SEATS, Game, Review
from games.reasons import reason_text
from games.refusals import card_label, stack_label
from games.selectors.replay import deal, in_force_rows, moves_in_force

logger = logging.getLogger(__name__)

#: The share of the background queue's job timeout a review job works before it hands the rest
#: of the review to a fresh job (paced reviews of long games take minutes).
SLICE = 0.5


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
    started, begun = time.process_time(), time.monotonic()
    spent = review.cpu_seconds
    slice_seconds = SLICE * float(settings.Q_CLUSTER["ALT_CLUSTERS"]["background"]["timeout"])
    for turn in coach.review_turns(
        deal(game),
        moves_in_force(game),
        seats=seats,
        playouts_per_turn=playouts,
        seed=HINT_SEED,
        expert=hint_options(),
        skip=len(turns),
        pace=Pacer(float(settings.GAMES_REVIEW_CPU_SHARE)),
    ):
        turns.append(turn.to_dict())
        review.data = {"turns": turns}
        review.cpu_seconds = spent + time.process_time() - started
        review.save(update_fields=["data", "cpu_seconds"])
        if time.monotonic() - begun > slice_seconds:
            # Well before the job's timeout: a fresh job goes on after the turns kept.
            jobs.enqueue(review_run, game_id, queue=jobs.BACKGROUND)
            return False
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


class Pacer:
    """Keeps a review to ``share`` of one core: called after each piece of its work, it sleeps
    long enough that the work's CPU time is that share of the time gone by. On a small machine
    a review running flat out lengthens every table's slowest moves (docs/performance.md,
    "Hints and reviews"); paced, a review takes longer and the tables do not notice."""

    def __init__(self, share: float) -> None:
        self.share = share
        self.cpu = time.process_time()

    def __call__(self) -> None:
        if not 0 < self.share < 1:
            return
        used = time.process_time() - self.cpu
        time.sleep(used * (1 / self.share - 1))
        self.cpu = time.process_time()


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


@dataclass(frozen=True)
class MarkedTurn:
    """A marked turn as the replay page shows it: where it starts, the mark, what it cost
    (winning chances, 0 to 100), the player's moves and the expert's line in words, why."""

    seat: int
    name: str
    frame: int
    mark: str
    cost: int
    played: list[str]
    expert: list[str]
    reasons: list[str]


def _move_words(move: str, card: str) -> str:
    """A move as the replay's side reads it: "6♠ → center stack 1"."""
    target = move.rsplit("-", 1)[1]
    return f"{card_label(card)} → {stack_label(target)}"


def review_page(game: Game) -> dict[str, Any] | None:
    """What the replay page shows of ``game``'s review: None without one; else its status and,
    once done, each reviewed seat's accuracy (a percentage, with the count of decisions) and
    its marked turns, the worst first within the game's order (``MarkedTurn``); ``marks``
    maps a replay position (after a move) to the mark of the move that cost."""
    shown = review_for(game)
    if shown is None:
        return None
    if shown["status"] != Review.Status.DONE:
        return {"status": shown["status"]}
    seats = []
    for seat in shown["seats"]:
        decisions = [d for t in shown["turns"] if t["seat"] == seat for d in t["decisions"]]
        agreed = sum(1 for d in decisions if d["agrees"])
        accuracy = shown["accuracy"].get(str(seat))
        seats.append(
            {
                "seat": seat,
                "name": game.match.seat_name(seat),
                "accuracy": None if accuracy is None else round(100 * accuracy),
                "agreed": agreed,
                "decisions": len(decisions),
            }
        )
    marked: list[MarkedTurn] = []
    marks: dict[int, str] = {}
    for turn in shown["turns"]:
        if not turn.get("mark"):
            continue
        decisions = turn["decisions"]
        first = next(d for d in decisions if not d["agrees"])
        worst = max(
            decisions,
            key=lambda d: 0 if d["chances"] is None else d["chances"][0] - d["chances"][1],
        )
        marks[worst["frame"]] = turn["mark"]
        before = [d for d in decisions if d["ply"] < first["ply"]]
        played = [_move_words(d["played"], d["played_card"]) for d in decisions]
        expert = [_move_words(d["played"], d["played_card"]) for d in before] + [
            _move_words(m, c) for m, c in zip(first["line"], first["line_cards"], strict=True)
        ]
        reasons = [
            r
            for d in decisions
            if not d["agrees"]
            for r in (d["warning_text"], d["reason_text"])
            if r
        ]
        marked.append(
            MarkedTurn(
                seat=turn["seat"],
                name=game.match.seat_name(turn["seat"]),
                frame=first["frame"] - 1,
                mark=turn["mark"],
                cost=round(100 * turn["loss"]),
                played=played,
                expert=expert,
                reasons=list(dict.fromkeys(reasons)),
            )
        )
    return {"status": shown["status"], "seats": seats, "marked": marked, "marks": marks}
