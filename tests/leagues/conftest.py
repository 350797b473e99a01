"""Fixtures for the leagues tests: players, a league with small knobs, members, and helpers
that finish a ranked match through the games services."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from games import services as game_services
from games.models import Match
from leagues.models import League, Membership
from tests.accounts.factories import UserFactory
from tests.games.helpers import a_side_move

#: Small knobs, so a ranked match ends after a resigned game or two (ARCHITECTURE.md).
SMALL = engine.Rules(payoff_size=5, match_target=10)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def alice(db):
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def carol(db):
    return UserFactory(username="carol", display_name="Carol")


def make_league(slug: str = "north", **fields: Any) -> League:
    fields.setdefault("name", slug.title() + " League")
    fields.setdefault("rules", SMALL.to_dict())
    return League.objects.create(slug=slug, **fields)


def join(league: League, user: Any, **fields: Any) -> Membership:
    return Membership.objects.create(league=league, user=user, **fields)


@pytest.fixture
def league(db) -> League:
    return make_league()


@pytest.fixture
def members(league, alice, bob) -> tuple[Membership, Membership]:
    return join(league, alice), join(league, bob)


def play_turns(match: Match, turns: int | None = None) -> None:
    """Each seat plays at least ``turns`` turns (``LEAGUES_RATED_MIN_TURNS``: enough for the
    match to be rated), each a discard of a hand card; a bot's seat too, unless its jobs
    already played it."""
    from django.conf import settings

    from games.models import Move
    from leagues.services import DISCARD

    turns = settings.LEAGUES_RATED_MIN_TURNS if turns is None else turns
    played = Move.objects.filter(game__match=match, kind=Move.Kind.MOVE, text__regex=DISCARD)
    while min(played.filter(seat=seat).count() for seat in (0, 1)) < turns:
        game = match.games.order_by("-number").first()
        assert game is not None and game.is_active
        seat = game.to_move
        game_services.game_play_move(
            game_id=game.pk,
            move=a_side_move(game, seat),
            version=game.version,
            user=match.user_at(seat),
            bot=match.is_bot(seat),
            seat=seat if match.is_bot(seat) else None,
        )


def resign_match(match: Match, loser: Any, *, turns: int | None = None) -> Match:
    """``loser`` resigns the whole match (it ends for the opponent, ``resigned``) after each
    seat played ``turns`` turns (``play_turns``: by default the match is rated; 0: at once)."""
    play_turns(match, turns)
    game = match.current_game
    assert game is not None
    game_services.game_resign(game_id=game.pk, user=loser, scope="match")
    match.refresh_from_db()
    return match


def win_by_target(match: Match, loser: Any) -> Match:
    """``loser`` resigns game after game (the opponent scores the pay-off pile each time) until
    the opponent reaches the target: the match ends ``target_reached``."""
    while True:
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        game = match.games.order_by("-number").first()
        assert game is not None
        game_services.game_resign(game_id=game.pk, user=loser, scope="game")
