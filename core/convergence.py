"""Every open socket converges on the committed state, whatever the doorbell lost.

The channel layer delivers at most once: a process that dies between a commit and its send, a
message Redis dropped, or a layer that is down leaves a socket on another process with an old
state. So each process keeps a ``Watch`` of its open sockets, keyed by what they show (a game's
id, a user's id), and every ``SOCKETS_CONVERGE_INTERVAL`` seconds reads, in one query for all
of them, what the database holds now (``read(keys) -> {key: committed}``: a game's version, a
digest of a user's lists). Each socket is then handed its key's value and decides
(``converge``): a socket that already shows it does nothing; one that is behind reads its state
again. The doorbell stays the fast path; the watch is what makes a lost ring cost seconds,
not a reload. Its cost is one query per process per interval, not one per socket.

A watch may also have a ``beat()``: run in the same hop to the database thread just before
each read (and once more after the last socket closed), for what a process keeps about its open
sockets (the lobby's who-is-online rows, lobby/online.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol

from channels.db import database_sync_to_async
from django.conf import settings

logger = logging.getLogger(__name__)


class Converging(Protocol):
    async def converge(self, committed: Any) -> None:
        """The database holds ``committed`` for this socket's key (None: nothing any more)."""


class Watch:
    """The open sockets of one process for one kind of key, checked on a timer."""

    def __init__(
        self,
        name: str,
        read: Callable[[list[Any]], dict[Any, Any]],
        beat: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.read = read
        self.beat = beat
        self.sockets: dict[Hashable, set[Converging]] = {}
        self.task: asyncio.Task[None] | None = None

    def add(self, key: Hashable, socket: Converging) -> None:
        """Watch ``socket`` under ``key`` (call it once the socket has sent its first state).
        The timer starts with the first socket on this loop; an interval of 0 starts none
        (``check`` is then called by hand, as the tests do)."""
        self.sockets.setdefault(key, set()).add(socket)
        loop = asyncio.get_running_loop()
        running = self.task is not None and not self.task.done() and self.task.get_loop() is loop
        if not running and float(settings.SOCKETS_CONVERGE_INTERVAL) > 0:
            self.task = loop.create_task(self._run())

    def discard(self, key: Hashable, socket: Converging) -> None:
        sockets = self.sockets.get(key)
        if sockets is not None:
            sockets.discard(socket)
            if not sockets:
                del self.sockets[key]

    async def _run(self) -> None:
        """Check every interval while any socket is watched, and once more after the last one
        closed (the beat hears that none is left); then stop (``add`` restarts it)."""
        while (interval := float(settings.SOCKETS_CONVERGE_INTERVAL)) > 0:
            await asyncio.sleep(interval)
            await self.check()
            if not self.sockets:
                break

    async def check(self) -> int:
        """Read the committed values of every watched key once and hand each socket its own;
        the number of sockets handed one. A failed read (the database away) is logged and
        tried again next time."""
        keys = list(self.sockets)
        if not keys and self.beat is None:
            return 0
        try:
            committed = await database_sync_to_async(self._beat_and_read)(keys)
        except Exception as exc:  # the next interval tries again
            logger.warning("convergence check of %s failed: %s", self.name, exc)
            return 0
        handed = 0
        for key in keys:
            for socket in _snapshot(self.sockets.get(key, ())):
                try:
                    await socket.converge(committed.get(key))
                except Exception:
                    logger.exception("a %s socket could not converge on %r", self.name, key)
                handed += 1
        return handed

    def _beat_and_read(self, keys: list[Any]) -> dict[Any, Any]:
        if self.beat is not None:
            try:
                self.beat()
            except Exception as exc:  # the read still runs; the next beat tries again
                logger.warning("the beat of %s failed: %s", self.name, exc)
        return self.read(keys) if keys else {}


def _snapshot(sockets: Iterable[Converging]) -> list[Converging]:
    return list(sockets)  # a socket may close (and leave the set) while another converges
