"""Fixtures for the games tests: players, controlled seeds, matches of a known shape."""

from __future__ import annotations

import secrets
from collections.abc import Callable

import pytest

import engine
from games import services
from games.models import Match
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL, seed_where


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
def seeds(monkeypatch) -> Callable[..., None]:
    """``seeds(7, 99)``: the next secret seeds the services draw (game seed, then bot seed,
    for each game dealt); after those, fresh secret ones again."""

    def use(*values: int) -> None:
        queue = list(values)
        monkeypatch.setattr(
            services, "_new_seed", lambda: queue.pop(0) if queue else secrets.randbits(63)
        )

    return use


@pytest.fixture
def human_starts(seeds) -> Callable[..., Match]:
    """``human_starts(user, bot="greedy")``: a match whose first game the user (seat 0) starts."""

    def make(user, bot: str = "greedy", rules: engine.Rules = SMALL) -> Match:
        seeds(seed_where(0, rules), 4242)
        return services.match_create(user=user, bot=bot, rules=rules)

    return make


@pytest.fixture
def bot_starts(seeds) -> Callable[..., Match]:
    """``bot_starts(user)``: a match whose first game the bot (seat 1) starts."""

    def make(user, bot: str = "greedy", rules: engine.Rules = SMALL) -> Match:
        seeds(seed_where(1, rules), 4242)
        return services.match_create(user=user, bot=bot, rules=rules)

    return make


@pytest.fixture(autouse=True)
def _own_spectator_keys(settings):
    """Spectator counts under keys of this test alone: game ids repeat between tests (and
    between test runs sharing one Redis), and nothing may call cache.clear()."""
    settings.GAMES_SPECTATORS_KEY_PREFIX = f"test-{secrets.token_hex(6)}:spectators"
