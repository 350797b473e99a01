"""core.layer.group_send_soon: in a server they hand the send to the server's
loop and return at once (the database thread is not held); without one they send on the
process's own sender loop before returning; a failed send is logged, never raised."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from core import layer


@pytest.fixture
def server_loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop running in its own thread, attached as the server's; detached after."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    layer.attach_loop(loop)
    try:
        yield loop
    finally:
        layer.attach_loop(None)
        asyncio.run_coroutine_threadsafe(_settle(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


async def _settle() -> None:
    """Let the sends still finishing on the loop finish (or time out) before it closes."""
    others = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    if others:
        await asyncio.wait(others, timeout=2)


class _SlowLayer:
    """A layer whose group_send waits until released, recording what it sent."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.release = threading.Event()
        self.done = threading.Event()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.release.wait, 5)
        self.sent.append((group, message))
        self.done.set()


class _BrokenLayer:
    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        raise ConnectionError("redis is down")

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        raise ConnectionError("redis is down")


class _SilentLayer:
    """Redis that accepts the connection and never answers."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        await asyncio.Event().wait()

    send = group_send


def _in_plain_thread(function: Any) -> Any:
    """Run ``function`` in a thread with no event loop, as sync code runs in a server (the
    browser tests leave one running on the main thread)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(function).result()


def test_without_a_server_loop_the_message_is_sent_before_returning(monkeypatch) -> None:
    sent: list[tuple[str, dict[str, Any]]] = []

    class Recording:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            await asyncio.sleep(0.05)  # the caller must wait for this
            sent.append((group, message))

    monkeypatch.setattr(layer, "get_channel_layer", lambda: Recording())

    def send() -> list[tuple[str, dict[str, Any]]]:
        layer.group_send_soon("layer-test", {"type": "ping", "n": 1}, what="a ping")
        return list(sent)

    assert _in_plain_thread(send) == [("layer-test", {"type": "ping", "n": 1})]


def test_without_a_server_loop_every_send_runs_on_one_loop_of_the_process(monkeypatch) -> None:
    """A job worker's sends share one loop, so the Redis layer keeps its connections (a fresh
    loop per send would open one per send); a forked child makes its own."""
    loops: list[asyncio.AbstractEventLoop] = []

    class Recording:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            loops.append(asyncio.get_running_loop())

    monkeypatch.setattr(layer, "get_channel_layer", lambda: Recording())
    for _ in range(3):
        _in_plain_thread(lambda: layer.group_send_soon("g", {"type": "ping"}, what="a ping"))
    assert len(loops) == 3 and len(set(loops)) == 1

    monkeypatch.setattr(layer.os, "getpid", lambda: -1)  # as in a child after fork
    _in_plain_thread(lambda: layer.group_send_soon("g", {"type": "ping"}, what="a ping"))
    assert loops[-1] is not loops[0]


def test_in_a_server_the_send_is_handed_to_its_loop_without_waiting(
    server_loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow = _SlowLayer()
    monkeypatch.setattr(layer, "get_channel_layer", lambda: slow)
    layer.group_send_soon("game-1", {"type": "game.event", "version": 3}, what="version 3")
    assert slow.sent == []  # returned while the send is still waiting
    slow.release.set()
    assert slow.done.wait(5)
    assert slow.sent == [("game-1", {"type": "game.event", "version": 3})]


def test_sends_handed_over_start_in_order(
    server_loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[int] = []
    finished = threading.Event()

    class Recording:
        async def group_send(self, group: str, message: dict[str, Any]) -> None:
            order.append(message["version"])
            if len(order) == 20:
                finished.set()

    monkeypatch.setattr(layer, "get_channel_layer", lambda: Recording())
    for version in range(20):
        layer.group_send_soon("game-1", {"version": version}, what=f"version {version}")
    assert finished.wait(5)
    assert order == list(range(20))


@pytest.mark.parametrize("broken", [_BrokenLayer, _SilentLayer], ids=["refusing", "silent"])
@pytest.mark.parametrize("with_loop", [False, True])
def test_a_failed_send_is_logged_not_raised(
    with_loop: bool,
    broken: type,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    """Redis refusing, or silent past CHANNEL_LAYER_TIMEOUT: one warning line naming what
    was not sent, no traceback, nothing raised."""
    settings.CHANNEL_LAYER_TIMEOUT = 0.2
    if with_loop:
        request.getfixturevalue("server_loop")
    monkeypatch.setattr(layer, "get_channel_layer", lambda: broken())
    records: list[logging.LogRecord] = []
    logged = threading.Event()

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)
            logged.set()

    catch = Catch(logging.WARNING)
    logging.getLogger("core.layer").addHandler(catch)
    try:
        _in_plain_thread(
            lambda: layer.group_send_soon("game-9", {"type": "x"}, what="version 4 of game 9")
        )
        assert logged.wait(5)
    finally:
        logging.getLogger("core.layer").removeHandler(catch)
    error = "ConnectionError" if broken is _BrokenLayer else "TimeoutError"
    assert records[0].getMessage() == f"could not send version 4 of game 9: {error}"
    assert records[0].exc_info is None
