"""Where bots think: a pool of worker processes, so a bot's search never holds the server's GIL.

The expert bot's search is CPU-bound Python. Run in a thread of the server process it holds the
GIL and starves the event loop that serves every table (docs/performance.md). So
``games.bot_runner.turns`` hands the choice to ``think`` / ``think_async``, which run
``bot_choose`` in a ``ProcessPoolExecutor``:
``GAMES_BOT_WORKERS`` processes, started with ``spawn`` (the server has threads; it is never
forked) when the first bot thinks, each lowered by ``os.nice(GAMES_BOT_NICE)`` so a busy bot
yields the cores to the people's tables.

This module imports only ``engine`` and the standard library, so a worker imports neither
Django nor the site. A worker exits when its server process dies, however it died. If the pool
breaks (a worker killed), it is replaced and the choice tried once more; if that fails too the
bot thinks in a thread of this process, and the fact is logged. See docs/games.md.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import engine

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_executor: ProcessPoolExecutor | None = None
_atexit_registered = False


def bot_choose(level: str, seed: int, state: dict[str, Any], seat: int) -> str:
    """The move the ``level`` bot with ``seed`` plays as ``seat`` in the game ``state``."""
    position = engine.Game.from_dict(state)
    return str(engine.bot(level, seed=seed).choose(position, seat))


def _worker_start(nice: int) -> None:
    """In each worker, once: lower its priority and tie its life to the server process's."""
    if nice:
        os.nice(nice)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with_parent, args=(parent.sentinel,), name="bot-parent", daemon=True
        ).start()


def _exit_with_parent(sentinel: int) -> None:
    # The sentinel turns readable when the parent is gone (even SIGKILLed); a worker would
    # otherwise wait on its call queue forever.
    multiprocessing.connection.wait([sentinel])
    os._exit(0)


def _pool() -> ProcessPoolExecutor:
    global _executor, _atexit_registered
    with _lock:
        if _executor is None:
            from django.conf import settings

            _executor = ProcessPoolExecutor(
                max_workers=max(1, int(settings.GAMES_BOT_WORKERS)),
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(int(settings.GAMES_BOT_NICE),),
            )
            if not _atexit_registered:
                atexit.register(shutdown)
                _atexit_registered = True
        return _executor


def _drop(pool: ProcessPoolExecutor) -> None:
    """Forget a broken pool (once, whoever notices first) so the next call makes a new one."""
    global _executor
    with _lock:
        if _executor is pool:
            _executor = None
    pool.shutdown(wait=False, cancel_futures=True)


def _submit(pool: ProcessPoolExecutor, *args: Any) -> Future[str] | None:
    """The choice under way in ``pool``; None if the pool was shut down (the server stops)."""
    try:
        return pool.submit(bot_choose, *args)
    except BrokenProcessPool:
        raise
    except RuntimeError:
        return None


def think(level: str, seed: int, state: dict[str, Any], seat: int) -> str:
    """``bot_choose`` in the process pool, for sync callers (blocks this thread, not the GIL)."""
    for _ in range(2):
        pool = _pool()
        try:
            future = _submit(pool, level, seed, state, seat)
            if future is None:
                break
            return future.result()
        except BrokenProcessPool:
            logger.warning("a bot worker process died; starting a new pool")
            _drop(pool)
    logger.error("bot worker processes unavailable; thinking in this thread")
    return bot_choose(level, seed, state, seat)


async def think_async(level: str, seed: int, state: dict[str, Any], seat: int) -> str:
    """``bot_choose`` in the process pool, awaited on the event loop. The fallback thinks in a
    thread of the loop's default executor, never on the loop itself."""
    for _ in range(2):
        pool = _pool()
        try:
            future = _submit(pool, level, seed, state, seat)
            if future is None:
                break
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            logger.warning("a bot worker process died; starting a new pool")
            _drop(pool)
    logger.error("bot worker processes unavailable; thinking in a thread")
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(None, bot_choose, level, seed, state, seat)


def shutdown() -> None:
    """Stop the worker processes (waiting for choices under way); the next think starts anew."""
    global _executor
    with _lock:
        pool, _executor = _executor, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
