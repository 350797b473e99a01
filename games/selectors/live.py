"""Games in play: a player's matches in progress, and the watch list."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, Q, QuerySet

from games.models import Game, Match
from games.spectators import spectator_counts


def matches_in_progress(*, user: object) -> list[Match]:
    """The active matches where ``user`` sits, newest first, each with ``current_game`` set."""
    if not getattr(user, "is_authenticated", False):
        return []
    pk = getattr(user, "pk", None)
    matches = list(
        Match.objects.filter(status=Match.Status.ACTIVE)
        .filter(Q(user0_id=pk) | Q(user1_id=pk))
        .select_related("user0", "user1")
        .prefetch_related(Prefetch("games", queryset=Game.objects.order_by("-number")))
    )
    for match in matches:
        games = list(match.games.all())
        match.current_game = games[0] if games else None
    return matches


def game_versions(game_ids: list[int]) -> dict[int, int]:
    """The committed version of each of ``game_ids`` that exists, in one query (the game
    sockets' convergence check, ``core.convergence``)."""
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


def games_live() -> QuerySet[Game]:
    """Games in play (neither over nor aborted, in a match still going on), newest first, with
    their matches and seated users: the "watch" list."""
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, match__status=Match.Status.ACTIVE)
        .select_related("match__user0", "match__user1")
        .order_by("-created_at", "-pk")
    )


@dataclass(frozen=True)
class LiveGame:
    """One line of the watch list."""

    game: Game
    names: tuple[str, str]
    scores: tuple[int, int]
    spectators: int


def live_game_rows(games: list[Game]) -> list[LiveGame]:
    """The watch list's lines for ``games`` (a page of ``games_live()``), spectators counted."""
    counts = spectator_counts(g.pk for g in games)
    return [
        LiveGame(
            game=g,
            names=(g.match.seat_name(0), g.match.seat_name(1)),
            scores=(g.match.score0, g.match.score1),
            spectators=counts.get(g.pk, 0),
        )
        for g in games
    ]
