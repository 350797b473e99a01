"""The plumbing every socket shares (core/sockets.py): the throttle, the decoding of frames and
the dispatch by type. The sockets themselves are tested in test_consumers.py (both apps)."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from core import sockets
from core.errors import GameError
from core.sockets import JsonSocket, TokenBucket
from games.consumers import GameConsumer
from lobby.consumers import NotificationConsumer


def test_the_bucket_lets_a_burst_pass_then_refills_over_the_period(monkeypatch) -> None:
    now = [100.0]
    monkeypatch.setattr(sockets, "monotonic", lambda: now[0])
    bucket = TokenBucket(3, 30.0)  # 3 at once, one more every 10 s
    assert [bucket.take() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take() == pytest.approx(10.0)
    now[0] += 5.0
    assert bucket.take() == pytest.approx(5.0)
    now[0] += 5.0
    assert bucket.take() == 0.0
    now[0] += 1000.0  # never more than the burst
    assert [bucket.take() for _ in range(4)][-1] > 0


def _decode_error(socket: JsonSocket, text: str | None) -> GameError:
    with pytest.raises(GameError) as caught:
        socket.decode(text)
    return caught.value


def test_decode_refuses_what_is_not_a_json_object_of_allowed_size(settings) -> None:
    settings.GAMES_WS_MAX_MESSAGE = 40
    settings.GAMES_WS_THROTTLE = (100, 10.0)
    socket = JsonSocket()
    for text in (None, "{not json", "[1, 2]", json.dumps({"type": "x" * 50})):
        assert _decode_error(socket, text).code == "bad_message", text
    assert socket.decode('{"type": "sync"}') == {"type": "sync"}


def test_every_frame_counts_against_the_throttle_and_a_throttled_move_keeps_its_id(
    settings,
) -> None:
    """Junk counts too; past the burst the refusal is ``throttled`` whatever the frame held,
    and a move's refusal echoes its id (docs/protocol.md: every refusal of a move does)."""
    settings.GAMES_WS_THROTTLE = (2, 60.0)
    socket = GameConsumer()
    sent: list[dict] = []

    async def send_json(frame: dict) -> None:
        sent.append(frame)

    async def receive_all() -> None:
        for text in ("{not json", None, "{not json", move):
            await socket.receive(text_data=text)

    socket.send_json = send_json
    move = json.dumps({"type": "move", "move": "h:7D-c2", "version": 3, "id": "m-1"})
    # On a thread of its own: a browser test earlier in the process may hold the main loop.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, receive_all()).result()
    assert [frame["code"] for frame in sent] == ["bad_message", "bad_message"] + ["throttled"] * 2
    assert "id" not in sent[2] and sent[3]["id"] == "m-1"
    assert all(frame["params"]["retry_after"] > 0 for frame in sent[2:])


def test_an_unknown_type_is_answered_with_the_types_each_socket_knows() -> None:
    assert GameConsumer()._known_types() == (
        '"move", "undo", "resign", "abort", "rematch", "hint" or "sync"'
    )
    assert NotificationConsumer()._known_types() == (
        '"challenge_answer", "seek_take", "watch_seeks", "watch_online" or "sync"'
    )
    for consumer in (GameConsumer(), NotificationConsumer()):
        for name in consumer.handlers.values():
            assert callable(getattr(consumer, name)), name
