"""Games in play: a player's matches in progress, and the Watch list."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import engine
from core.i18n import spoken_list, time_ago
from engine.cards import KING, RANK, RANKS
from games.clocks import turn as clock
from games.models import Game, Match, Move
from games.refusals import RANK_NAMES, SUITS
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


def games_live(*, now: datetime | None = None) -> QuerySet[Game]:
    """The Watch list: games in play (neither over nor aborted, in a match still going on)
    moved in the last ``GAMES_WATCH_RECENT`` seconds before ``now`` (default: the clock's
    now), most recently moved first, each with ``moved_at`` (its log's latest row, or its deal
    if it has none) and its match's seated users.

    ``moved_at`` is a subquery per game over the log's unique (game, ply) index: the row of
    highest ply is the latest one (rows are appended under the game's lock), so each game costs
    one index probe and a move costs nothing more (docs/games.md, "The Watch page")."""
    since = (now or clock.now()) - timedelta(seconds=float(settings.GAMES_WATCH_RECENT))
    latest = Move.objects.filter(game=OuterRef("pk")).order_by("-ply").values("created_at")[:1]
    return (
        Game.objects.filter(status=Game.Status.ACTIVE, match__status=Match.Status.ACTIVE)
        .annotate(moved_at=Coalesce(Subquery(latest), F("created_at")))
        .filter(moved_at__gte=since)
        .select_related("match__user0", "match__user1")
        .order_by("-moved_at", "-pk")
    )


@dataclass(frozen=True)
class CenterCard:
    """One center stack in the Watch list's picture: its top card as the spectator view shows
    it, or an empty place (``rank`` ""). ``stands_for`` is the rank a King on top stands for."""

    x: int
    rank: str
    suit: str
    red: bool
    stands_for: str


@dataclass(frozen=True)
class CenterPicture:
    """The center stacks of a game, drawn small: the cards, the picture's width, and its text
    ("Center stacks: 7, Jack, and empty")."""

    cards: tuple[CenterCard, ...]
    width: int
    text: str


@dataclass(frozen=True)
class LiveGame:
    """One game of the Watch list."""

    game: Game
    names: tuple[str, str]
    scores: tuple[int, int]
    spectators: int
    moved_at: datetime
    moved_ago: str
    center: CenterPicture


CARD_WIDTH, CARD_GAP, PICTURE_PAD = 40, 6, 4  # includes/svg_card.html's cards are 40 by 56


def _rank_label(rank: int) -> str:
    """A rank as a card's corner shows it: "A", "7", "10", "Q"."""
    return "10" if rank == 10 else RANKS[rank - 1]


def _rank_name(rank: int) -> str:
    """A rank in words: "Ace", "7", "Jack"."""
    return str(RANK_NAMES.get(rank, rank))


def center_picture(view: dict[str, Any]) -> CenterPicture:
    """The picture of the center stacks in ``view``, an engine view (the spectator's: no hand,
    no hidden card; only the center's tops are drawn)."""
    cards, words = [], []
    for i, stack in enumerate(view["center"]):
        x = PICTURE_PAD + i * (CARD_WIDTH + CARD_GAP)
        if not stack["cards"]:
            cards.append(CenterCard(x, "", "", False, ""))
            words.append(pgettext("label of an empty center stack in a picture", "empty"))
            continue
        top, at = stack["cards"][-1], int(stack["stands_for"])
        king = RANK[top] == KING and at != KING
        cards.append(
            CenterCard(
                x,
                _rank_label(RANK[top]),
                SUITS[top[1]],
                top[1] in "HD",
                _rank_label(at) if king else "",
            )
        )
        if king:
            # Translators: the top of a center stack in the Watch list's picture, read by
            # screen readers: "Center stacks: 7, a King standing for 5, and empty".
            words.append(_("a King standing for %(rank)s") % {"rank": _rank_name(at)})
        else:
            words.append(_rank_name(RANK[top]))
    count = len(cards)
    width = 2 * PICTURE_PAD + count * CARD_WIDTH + max(count - 1, 0) * CARD_GAP
    # Translators: the text of the Watch list's picture of a game's center stacks, each named
    # by its top card: "Center stacks: 7, Jack, and empty".
    text = _("Center stacks: %(stacks)s") % {"stacks": spoken_list(words)}
    return CenterPicture(tuple(cards), width, text)


def live_game_rows(games: list[Game], *, now: datetime | None = None) -> list[LiveGame]:
    """The Watch list's games for ``games`` (a page of ``games_live()``, so each has
    ``moved_at``): spectators counted, the last move's time said in the active language as
    seen at ``now``, the center stacks drawn from the spectator view."""
    now = now or clock.now()
    counts = spectator_counts(g.pk for g in games)
    return [
        LiveGame(
            game=g,
            names=(g.match.seat_name(0), g.match.seat_name(1)),
            scores=(g.match.score0, g.match.score1),
            spectators=counts.get(g.pk, 0),
            moved_at=g.moved_at,
            moved_ago=time_ago(g.moved_at, now=now),
            center=center_picture(engine.Game.from_dict(g.state).view(None)),
        )
        for g in games
    ]
