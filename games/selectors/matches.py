"""Matches for anyone to read (the public API's list and detail): filters, and one match with
its games. Matches are public, as the history pages are; nothing here reads a seed or a hand."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.utils.translation import gettext_lazy as _

from core.errors import NOT_FOUND, GameError
from games.models import Game, Match
from games.selectors.frames import _rematch_info


def _current_game_id() -> Subquery:
    return Subquery(
        Game.objects.filter(match_id=OuterRef("pk")).order_by("-number").values("pk")[:1]
    )


def matches_public(
    *,
    player: str = "",
    league: str = "",
    status: str = "",
    ranked: bool | None = None,
    seated: Any = None,
) -> QuerySet[Match]:
    """Every match, newest first, narrowed by the filters given: ``player`` (a username, any
    case, in either seat; an unknown or closed account matches nothing), ``league`` (a slug),
    ``status`` (a ``Match.Status`` value), ``ranked``, ``seated`` (a user sitting in it).
    Each match carries ``current_game_id`` (its highest-numbered game)."""
    matches = Match.objects.select_related("user0", "user1", "league").annotate(
        current_game_id=_current_game_id()
    )
    if player:
        named = Q(username__iexact=player, is_active=True)
        matches = matches.filter(
            Q(user0__in=_users(named)) | Q(user1__in=_users(named)),
        )
    if league:
        matches = matches.filter(league__slug=league)
    if status:
        matches = matches.filter(status=status)
    if ranked is not None:
        matches = matches.filter(ranked=ranked)
    if seated is not None:
        pk = getattr(seated, "pk", None)
        matches = matches.filter(Q(user0_id=pk) | Q(user1_id=pk))
    return matches.order_by("-created_at", "-pk")


def _users(condition: Q) -> QuerySet[Any]:
    from accounts.models import User

    return User.objects.filter(condition).values("pk")


def match_public_get(*, match_id: int) -> Match:
    """One match with its seated users, league and games (in order, each with ``log_rows``:
    the rows of its move log); ``current_game_id`` and ``rematch_info`` (``{offered_by,
    match, game}`` once finished, else None) set. GameError ``not_found`` if none."""
    games = (
        Game.objects.order_by("number")
        .defer("state", "seed", "bot_seed")
        .annotate(log_rows=Count("moves"))
    )
    match = (
        matches_public()
        .prefetch_related(Prefetch("games", queryset=games))
        .filter(pk=match_id)
        .first()
    )
    if match is None:
        raise GameError(NOT_FOUND, _("There is no such match."))
    match.rematch_info = _rematch_info(match)
    return match
