"""core.sockets.DirectDispatch: every socket of the site hands a message straight to its
handler, without channels' per-message hop to the database thread (docs/performance.md)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.consumer import AsyncConsumer

from benchfloor.consumers import CommitConsumer, EchoConsumer
from core.sockets import DirectDispatch, JsonSocket
from games.consumers import GameConsumer
from leagues.consumers import QueueConsumer
from lobby.consumers import NotificationConsumer
from tests.live_server import run_async


@pytest.mark.parametrize(
    "consumer", [GameConsumer, NotificationConsumer, QueueConsumer, EchoConsumer, CommitConsumer]
)
def test_every_socket_dispatches_directly(consumer: type) -> None:
    """Straight to its handler: DirectDispatch's, or JsonSocket's, which answers a database
    outage (core/outages.py) around DirectDispatch's."""
    assert consumer.dispatch in (DirectDispatch.dispatch, JsonSocket.dispatch)
    mro = consumer.__mro__
    assert mro.index(DirectDispatch) < mro.index(AsyncConsumer)


class _Recorder(DirectDispatch):
    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    async def game_event(self, message: dict[str, Any]) -> None:
        self.seen.append(message)


def test_a_message_reaches_its_handler_without_the_database_thread(monkeypatch) -> None:
    def no_hop() -> None:
        raise AssertionError("dispatch went through the database thread")

    monkeypatch.setattr("channels.consumer.aclose_old_connections", no_hop)
    monkeypatch.setattr("channels.db.close_old_connections", no_hop)
    recorder = _Recorder()
    run_async(recorder.dispatch({"type": "game.event", "version": 3}))
    assert recorder.seen == [{"type": "game.event", "version": 3}]


def test_a_message_without_a_handler_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"No handler for message type game\.nothing"):
        run_async(_Recorder().dispatch({"type": "game.nothing"}))
