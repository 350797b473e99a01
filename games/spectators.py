"""Who watches a game: a count of spectator sockets per game, shared by every server process.

The count lives in the cache (Redis in production, the local-memory cache on a laptop), one key
per game holding ``{channel name: last seen}``. A spectator socket adds itself on connect,
refreshes its stamp every ``GAMES_SPECTATORS_REFRESH`` seconds while open, and removes itself
on disconnect. An entry not refreshed for ``GAMES_SPECTATORS_TTL`` seconds no longer counts
and is dropped at the next write: so when a process dies without saying goodbye, its sockets
stop counting within one TTL (and the key itself expires a TTL after the last write).

Writes are read-modify-write on one key, made safe across processes by a short lock taken
with ``cache.add`` (an atomic set-if-absent in Redis and in the local-memory cache). If the
lock cannot be had in time the write goes ahead anyway: the worst case is one entry lost until
that socket's next refresh puts it back. Players never count, only viewers without a seat.
Nothing here ever calls ``cache.clear()`` (on Redis that would empty the whole cache).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.cache import cache

#: Seconds the lock of one game's entry may be held (it is released at once in practice).
LOCK_TIMEOUT = 5
LOCK_TRIES = 50
LOCK_WAIT = 0.01


def _ttl() -> float:
    return float(settings.GAMES_SPECTATORS_TTL)


def _key(game_id: int) -> str:
    prefix = settings.GAMES_SPECTATORS_KEY_PREFIX
    return f"{prefix}:{game_id}"


def _fresh(entries: dict[str, float] | None, now: float) -> dict[str, float]:
    if not isinstance(entries, dict):
        return {}
    oldest = now - _ttl()
    return {name: stamp for name, stamp in entries.items() if stamp > oldest}


def _update(game_id: int, change: Callable[[dict[str, float], float], None]) -> int:
    """Apply ``change`` to the game's fresh entries under the lock; return the new count."""
    key = _key(game_id)
    lock = f"{key}:lock"
    token = uuid.uuid4().hex
    locked = False
    for _ in range(LOCK_TRIES):
        added = cache.add(lock, token, timeout=LOCK_TIMEOUT)
        if added is None:  # the cache is away (django-redis ignores it): no count to keep
            break
        if added:
            locked = True
            break
        time.sleep(LOCK_WAIT)
    try:
        now = time.time()
        entries = _fresh(cache.get(key), now)
        change(entries, now)
        if entries:
            cache.set(key, entries, timeout=int(_ttl()) + 1)
        else:
            cache.delete(key)
        return len(entries)
    finally:
        if locked and cache.get(lock) == token:
            cache.delete(lock)


def spectator_join(*, game_id: int, channel: str) -> int:
    """Count ``channel`` as a spectator of ``game_id`` (or refresh it); the new count."""

    def add(entries: dict[str, float], now: float) -> None:
        entries[channel] = now

    return _update(game_id, add)


#: A refresh is the same write as a join: it puts back an entry a lost write or a TTL dropped.
spectator_touch = spectator_join


def spectator_leave(*, game_id: int, channel: str) -> int:
    """``channel`` stops watching ``game_id``; the new count."""

    def remove(entries: dict[str, float], now: float) -> None:
        entries.pop(channel, None)

    return _update(game_id, remove)


def spectator_count(game_id: int) -> int:
    """How many spectator sockets watch ``game_id`` now (stale entries not counted)."""
    return len(_fresh(cache.get(_key(game_id)), time.time()))


def spectator_counts(game_ids: Iterable[int]) -> dict[int, int]:
    """``spectator_count`` for many games in one cache round trip."""
    ids = list(game_ids)
    found = cache.get_many([_key(pk) for pk in ids])
    now = time.time()
    return {pk: len(_fresh(found.get(_key(pk)), now)) for pk in ids}
