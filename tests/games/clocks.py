"""Helpers for the clock and presence tests: a clock the test moves by hand, a ranked league
match between two people with a turn limit and a disconnect grace, and that match forfeited on
time or for absence through the real services.

Import the fixtures into a test module: ``from tests.games.clocks import fake_clock  # noqa``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

import engine
from games.clocks import turn as clock
from games.clocks.attendance import presence_join
from games.clocks.timeouts import disconnect_forfeit, turn_timeout
from games.models import Game, Match
from games.services import game_play_move
from leagues.models import League, Membership
from tests.games.helpers import SMALL, seed_where

LIMIT = 30  # seconds a ranked turn may take in these tests
GRACE = 20  # seconds a disconnected player is waited for


@dataclass
class FakeClock:
    """``games.clocks.turn.now`` while a test runs: stands still until ``advance``d."""

    at: datetime = field(default_factory=timezone.now)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> datetime:
        self.at += timedelta(seconds=seconds)
        return self.at


@pytest.fixture
def fake_clock(monkeypatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(clock, "now", fake)
    return fake


@pytest.fixture(autouse=True)
def _presence_knobs(settings):
    """Presence rows never go stale while the fake clock jumps ahead, and sockets' timers do not
    wake by themselves during a test (their first check, on connect, still runs)."""
    settings.GAMES_PRESENCE_TTL = 10**6
    settings.GAMES_PRESENCE_REFRESH = 3600


def ranked_league(slug: str = "clocked", **fields: Any) -> League:
    fields.setdefault("name", slug.title() + " League")
    fields.setdefault("rules", SMALL.to_dict())
    fields.setdefault("turn_time_limit", LIMIT)
    fields.setdefault("disconnect_grace", GRACE)
    return League.objects.create(slug=slug, **fields)


def ranked_match(
    league: League, user0: Any, user1: Any, *, starter: int = 0, seeds: Any = None
) -> Match:
    """A ranked match of ``league``, ``user0`` in seat 0; ``seeds`` (the games fixture) makes
    ``starter`` begin game 1."""
    from leagues.services import ranked_match_create

    for user in (user0, user1):
        Membership.objects.get_or_create(league=league, user=user)
    if seeds is not None:
        seeds(seed_where(starter, engine.Rules.from_dict(league.rules)), 4242)
    return ranked_match_create(league=league, user0=user0, user1=user1)


def game_of(match: Match) -> Game:
    """The match's game in play (or its last), fresh from the database."""
    return Game.objects.select_related("match__league").filter(match=match).order_by("-number")[0]


def side_move(game: Game) -> str:
    """A legal move of the seat to move that ends its turn (a hand card onto a side stack)."""
    seat = game.to_move
    legal = engine.Game.from_dict(game.state).view(seat)["legal_moves"]
    return next(m for m in legal if m.startswith("h:") and "-s" in m)


def center_move(game: Game) -> str | None:
    seat = game.to_move
    legal = engine.Game.from_dict(game.state).view(seat)["legal_moves"]
    return next((m for m in legal if "-c" in m), None)


def forfeit_on_time(match: Match, fake_clock: FakeClock) -> int:
    """The seat to move lets its time run out turn after turn (the other seat ends its own
    turns) until the server forfeits the match for it; returns that seat."""
    while True:
        game = game_of(match)
        fake_clock.at = game.turn_deadline
        result = turn_timeout(game_id=game.pk, now=fake_clock.at)
        assert result is not None
        if result.forfeited:
            return result.seat
        game = game_of(match)
        seat = game.to_move
        game_play_move(
            game_id=game.pk, move=side_move(game), version=game.version, user=match.user_at(seat)
        )


def forfeit_away(match: Match, fake_clock: FakeClock, *, present: int) -> int:
    """Only ``present`` ever opens the table: the other seat's grace runs out and it forfeits
    the match (``abandoned``); returns that seat."""
    presence_join(game_id=game_of(match).pk, match_id=match.pk, seat=present, channel="here")
    fake_clock.at = match.created_at + timedelta(seconds=GRACE)
    seat = disconnect_forfeit(match_id=match.pk)
    assert seat == 1 - present
    return seat
