"""One player's matches, newest first, each seen from that player's seat."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Prefetch, Q, QuerySet

from games.models import Game, Match
from games.selectors.results import match_result_note


def match_history_for(user: object) -> QuerySet[Match]:
    """Every match ``user`` sat in, newest first, with seated users and games read along.
    Turn a page of it into lines with ``match_history_rows``."""
    pk = getattr(user, "pk", None)
    return (
        Match.objects.filter(Q(user0_id=pk) | Q(user1_id=pk))
        .select_related("user0", "user1")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("number")))
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class HistoryEntry:
    """One match seen from one player's seat."""

    match: Match
    seat: int
    opponent: str
    opponent_is_bot: bool
    opponent_username: str  # "" for a bot, or an account no longer active
    result: str  # "won", "lost", "aborted", "in_progress"
    how: str  # how it ended when the scores do not say: "Alice resigned: Bruno wins the match."
    score: int
    opponent_score: int
    target: int
    ranked: bool
    date: datetime
    games: list[Game]
    current_game: Game | None

    @property
    def replayable(self) -> list[Game]:
        """The games of the match that are over and may be replayed."""
        return [g for g in self.games if not g.is_active]


def _result(match: Match, seat: int) -> str:
    if match.status == Match.Status.ACTIVE:
        return "in_progress"
    if match.status == Match.Status.ABORTED or match.winner is None:
        return "aborted"
    return "won" if match.winner == seat else "lost"


def match_history_rows(matches: list[Match], user: object) -> list[HistoryEntry]:
    """Lines for a page of ``match_history_for(user)``."""
    rows = []
    for match in matches:
        seat = match.seat_of(user)
        if seat is None:  # an inactive user's own history: find the seat by id
            seat = 0 if match.user0_id == getattr(user, "pk", None) else 1
        games = list(match.games.all())
        opponent = match.user_at(1 - seat)
        rows.append(
            HistoryEntry(
                match=match,
                seat=seat,
                opponent=match.seat_name(1 - seat),
                opponent_is_bot=match.is_bot(1 - seat),
                opponent_username=opponent.username
                if opponent is not None and opponent.is_active
                else "",
                result=_result(match, seat),
                how=match_result_note(match),
                score=match.scores[seat],
                opponent_score=match.scores[1 - seat],
                target=match.target,
                ranked=match.ranked,
                date=match.finished_at or match.created_at,
                games=games,
                current_game=games[-1] if games else None,
            )
        )
    return rows


def user_has_sat(user: object) -> bool:
    """Whether ``user`` sat at any match, against a person or a bot, finished or not."""
    pk = getattr(user, "pk", None)
    return Match.objects.filter(Q(user0_id=pk) | Q(user1_id=pk)).exists()
