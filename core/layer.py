"""Sending on the channel layer from sync code (services' ``transaction.on_commit`` hooks).

In the server, sync code runs in a worker thread (``database_sync_to_async``: one thread per
process does all of its database work). ``async_to_sync(layer.group_send)`` there would hold that
thread until the event loop had run the send, so every other socket's database work waited
behind it. ``group_send_soon`` hands the send to the server's event loop and returns at once;
where no server loop runs (a job worker, a management command, a test without a server) it
hands it to the process's own sender loop (a daemon thread, started at the first send) and
waits for it to be sent: one loop for the process's life, so the Redis layer keeps its
connections instead of opening one per send.

Sends handed over from one thread start in the order they were handed over. The layer is a
doorbell with at-most-once delivery either way (docs/protocol.md): a lost or late event costs a
``sync``, and a socket drops an event older than the version it has.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Awaitable
from concurrent.futures import Future
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings

logger = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None


def attach_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Remember the server's event loop (``spite/asgi.py`` calls this on every connection);
    None forgets it."""
    global _loop
    _loop = loop


_sender: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop) of the sender thread
_sender_lock = threading.Lock()


def sender_loop() -> asyncio.AbstractEventLoop:
    """This process's sender loop, running in a daemon thread (started again in a forked
    child, which inherits the variable but not the thread)."""
    global _sender
    with _sender_lock:
        if _sender is None or _sender[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="layer-sender", daemon=True).start()
            _sender = (os.getpid(), loop)
        return _sender[1]


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The server's event loop if one was attached and still runs, else None."""
    loop = _loop
    return loop if loop is not None and loop.is_running() else None


async def layer_call(call: Awaitable[Any], *, what: str) -> bool:
    """Await a channel-layer call for at most ``CHANNEL_LAYER_TIMEOUT`` seconds. False when it
    failed or timed out (Redis refusing or silent), with one warning naming ``what``: the
    caller goes on without the layer (the database and the convergence check carry the
    state, core.convergence)."""
    try:
        await bounded(call)
    except Exception as exc:  # the layer's own errors, ConnectionError, TimeoutError
        logger.warning("channel layer unavailable, %s: %s", what, exc.__class__.__name__)
        return False
    return True


def group_send_soon(group: str, message: dict[str, Any], *, what: str) -> None:
    """Send ``message`` to ``group``: handed to the server's loop when one runs, else sent now.
    Never raises; a failure is logged with ``what`` (the thing that could not be sent)."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = server_loop()
    if loop is not None:
        future = asyncio.run_coroutine_threadsafe(bounded(layer.group_send(group, message)), loop)
        future.add_done_callback(lambda done: _log_failure(done, what))
        return
    try:
        asyncio.run_coroutine_threadsafe(
            bounded(layer.group_send(group, message)), sender_loop()
        ).result()
    except Exception as exc:
        logger.warning("could not send %s: %s", what, exc.__class__.__name__)


async def bounded(call: Awaitable[Any]) -> Any:
    """``call``'s result, or TimeoutError after ``CHANNEL_LAYER_TIMEOUT`` seconds: every
    channel-layer call is bounded so (a silent Redis holds nothing)."""
    return await asyncio.wait_for(call, timeout=float(settings.CHANNEL_LAYER_TIMEOUT))


def _log_failure(done: Future[None], what: str) -> None:
    if done.cancelled():
        logger.warning("the send of %s was cancelled (the server is stopping)", what)
    elif (exc := done.exception()) is not None:  # the layer away: one line, no traceback
        logger.warning("could not send %s: %s", what, exc.__class__.__name__)
