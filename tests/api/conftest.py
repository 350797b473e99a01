"""Fixtures for the API tests: the games tests' players and matches, an API client, tokens."""

from __future__ import annotations

import secrets

import pytest
from rest_framework.test import APIClient

from api.services import api_token_create
from tests.games.conftest import (  # noqa: F401  (fixtures, re-used)
    _fast_password_hashing,
    _own_spectator_keys,
    alice,
    bob,
    bot_starts,
    human_starts,
    seeds,
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each schemathesis item (one an operation of the schema) gets its operation in its node id,
    as its name has: pytest 9 builds a test's id from its ``originalname``, and schemathesis
    passes the bare test's name there, so every operation's item had the same id, and
    pytest-xdist, which keys tests by id, ran one of them a test."""
    for item in items:
        label = getattr(item, "operation_label", None)
        if label and not item.nodeid.endswith("]"):
            item._id = item.id.with_params(label)


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """Throttle counts under keys of this test alone (nothing may call cache.clear(), and
    several runs may share one Redis)."""
    from rest_framework.throttling import SimpleRateThrottle

    prefix = f"test-{secrets.token_hex(6)}-"
    original = SimpleRateThrottle.cache_format
    SimpleRateThrottle.cache_format = prefix + original
    yield
    SimpleRateThrottle.cache_format = original


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def alice_key(alice) -> str:  # noqa: F811  (the imported fixture)
    return api_token_create(user=alice, name="laptop")[1]


@pytest.fixture
def bob_key(bob) -> str:  # noqa: F811  (the imported fixture)
    return api_token_create(user=bob, name="script")[1]


@pytest.fixture
def table_game(alice, human_starts):  # noqa: F811  (the imported fixtures)
    """Game 1 of alice against the greedy bot, alice to move, version 0."""
    from tests.games.helpers import current_game

    return current_game(human_starts(alice))
