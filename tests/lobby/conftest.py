"""Fixtures for the lobby tests: players, and an outbox that records what the services send
over the channel layer once their transaction commits."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from lobby import online, services
from tests.accounts.factories import UserFactory

#: Small knobs, so a match is short (ARCHITECTURE.md).
SMALL = engine.Rules(payoff_size=5, match_target=10)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_online_process():
    """This process's who-is-online bookkeeping starts empty in each test (user ids come back
    after a test's rows are gone)."""
    online.PROCESS.sockets.clear()
    online.PROCESS.written.clear()
    online.PROCESS.refreshed_at = None
    yield
    online.PROCESS.sockets.clear()
    online.PROCESS.written.clear()
    online.PROCESS.refreshed_at = None


@pytest.fixture
def alice(db):
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", display_name="Bob")


@pytest.fixture
def carol(db):
    return UserFactory(username="carol", display_name="Carol")


@dataclass
class Outbox:
    """Frames sent per user id, and how often the lobby's doorbell rang."""

    frames: dict[int, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    rings: int = 0

    def user_frames_send(self, frames: dict[int, list[dict[str, Any]]]) -> None:
        for user_id, sent in frames.items():
            self.frames[user_id].extend(sent)

    def seeks_changed_send(self) -> None:
        self.rings += 1

    def types(self, user: Any) -> list[str]:
        return [frame["type"] for frame in self.frames.get(user.pk, [])]

    def clear(self) -> None:
        self.frames.clear()
        self.rings = 0


@pytest.fixture
def outbox(monkeypatch, django_capture_on_commit_callbacks) -> Outbox:
    """Record the services' sends instead of ringing the channel layer. Use it with
    ``committed`` (below) so on-commit callbacks run inside the test's transaction."""
    box = Outbox()
    monkeypatch.setattr(services, "user_frames_send", box.user_frames_send)
    monkeypatch.setattr(services, "seeks_changed_send", box.seeks_changed_send)
    return box


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """``committed(service, **kwargs)``: call a service and run its on-commit callbacks, as a
    real commit would (pytest-django wraps each test in a transaction that never commits)."""

    def call(service: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return call
