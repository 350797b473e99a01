"""What a seat may do now beyond a move: take back its turn (undo) or call off the match
(abort). The services decide with these; the frames tell the page whether to show the buttons.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from games.models import Game, Match, Move
from games.selectors.replay import LogRow, _in_force_after, deal, game_log


def _reveals(before: dict[str, Any], after: dict[str, Any], seat: int) -> bool:
    """Whether a move showed ``seat`` a card it had not seen: new hand cards (a refill of an
    empty hand) or a new pay-off top. Views of ``seat`` before and after the move."""
    was, now = before["players"][seat], after["players"][seat]
    if Counter(now["hand"] or []) - Counter(was["hand"] or []):
        return True
    return now["payoff_top"] is not None and now["payoff_size"] < was["payoff_size"]


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """What an undo would do now: take back ``moves`` moves and restore ``state``."""

    moves: int
    state: dict[str, Any]


def game_undo_plan(game: Game, seat: int) -> UndoPlan | None:
    """What ``seat`` may take back now, or None: the moves of its current turn since cards last
    came into view for it (the turn's draw, a refill of an emptied hand, a new pay-off top —
    cards once seen cannot be unseen). Checks only the log; who may undo at all (a casual
    match against a bot, the human's turn) is the service's business."""
    if not game.is_active or game.to_move != seat:
        return None
    in_force: list[LogRow] = []
    for row in game_log(game):
        in_force = _in_force_after(in_force, row)
    turn = 0
    while turn < len(in_force) and in_force[len(in_force) - 1 - turn].seat == seat:
        turn += 1
    if not turn:
        return None
    start = len(in_force) - turn
    replayed = deal(game)
    for row in in_force[:start]:
        replayed.play(row.text)
    snapshot, cut = replayed.to_dict(), start
    for index in range(start, len(in_force)):
        before = replayed.view(seat)
        replayed.play(in_force[index].text)
        if _reveals(before, replayed.view(seat), seat):
            snapshot, cut = replayed.to_dict(), index + 1
    if cut == len(in_force):
        return None
    return UndoPlan(moves=len(in_force) - cut, state=snapshot)


def _may_undo(game: Game, seat: int | None) -> bool:
    match = game.match
    return (
        seat is not None
        and undo_allowed(match)
        and not match.is_bot(seat)
        and game.is_active
        and match.status == Match.Status.ACTIVE
        and game.to_move == seat
    )


def undo_allowed(match: Match) -> bool:
    """Undo exists only in casual matches of a person against a bot."""
    return match.against_bot and not match.ranked


def hint_allowed(match: Match) -> bool:
    """Hints, like undo, only in casual matches of a person against a server bot (guests'
    games are such matches): never in ranked play, never against a person."""
    return match.against_bot and not match.ranked


def game_may_hint(game: Game, seat: int | None) -> bool:
    """Whether ``seat`` may ask for a hint in ``game`` now: a person's seat, in its turn."""
    match = game.match
    return (
        seat is not None
        and hint_allowed(match)
        and not match.is_bot(seat)
        and game.is_active
        and match.status == Match.Status.ACTIVE
        and game.to_move == seat
    )


def game_seats_moved(game: Game) -> set[int]:
    """The seats that have played a move in ``game`` (taken-back moves count too)."""
    moved = Move.objects.filter(game_id=game.pk, kind=Move.Kind.MOVE)
    return set(moved.values_list("seat", flat=True).distinct())


def game_may_abort(game: Game, seat: int | None, moved: set[int] | None = None) -> bool:
    """Whether ``seat`` may abort ``game`` now: a person's seat, the match's first game, in
    play, and not both seats have moved yet."""
    if seat is None or game.match.is_bot(seat) or game.number != 1 or not game.is_active:
        return False
    if game.match.status != Match.Status.ACTIVE:
        return False
    return len(game_seats_moved(game) if moved is None else moved) < 2
