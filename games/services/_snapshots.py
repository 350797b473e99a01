"""Each game's latest committed row this process knows, so a move can skip the locked read.

A snapshot is what ``game_row_lock(..., log_tail=True)`` reads: the game row at some version,
its match, the seated users and the log's tail. A process keeps one for each game it moved in
(a turn is several moves by the same player, on the same socket) and reads one ahead for a
player whose turn has come (``game_snapshot_prefetch``, from the socket). A move against the
snapshot's version is played on a copy of it and written by one statement that applies only if
the game and match rows are still as the snapshot holds them
(``games.services._rows.RowWrites.run_if_unchanged``); otherwise nothing is written and the
move takes the locked path. So a stale or wrong snapshot costs one statement, never a wrong
move. PostgreSQL only (the statement is a data-modifying WITH); ``GAMES_MOVE_SNAPSHOTS`` is how
many games a process keeps (0: none).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.models import Game, Match
from games.selectors.frames import LAST_MOVES
from games.services._rows import (
    game_row_copy,
    game_row_loaded,
    game_row_read,
    prefetched_log_tail,
)

_lock = threading.Lock()
_entries: OrderedDict[int, _Snapshot] = OrderedDict()


@dataclass(frozen=True, slots=True)
class _Snapshot:
    game: Game  # never changed: moves play on copies (snapshot_take)
    tail: tuple[dict[str, Any], ...]


def capacity() -> int:
    """How many games' snapshots this process keeps; 0 where moves cannot use them (no
    PostgreSQL). Reads only settings: safe on the event loop."""
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        return 0
    return max(0, int(getattr(settings, "GAMES_MOVE_SNAPSHOTS", 0)))


def snapshot_store(game: Game, tail: list[dict[str, Any]]) -> None:
    """Keep ``game`` (read by ``_rows``, as committed) and its log's tail, for its next move;
    a game over is forgotten instead. Call once the change is committed. ``game`` must not be
    changed afterwards."""
    size = capacity()
    if not size or game_row_loaded(game) is None:
        return
    if not game.is_active or game.match.status != Match.Status.ACTIVE:
        snapshot_forget(game.pk)
        return
    entry = _Snapshot(game, tuple(tail[-LAST_MOVES:]))
    with _lock:
        kept = _entries.get(game.pk)
        if kept is not None and kept.game.version > game.version:
            return  # a later version is already here
        _entries[game.pk] = entry
        _entries.move_to_end(game.pk)
        while len(_entries) > size:
            _entries.popitem(last=False)


def snapshot_take(game_id: int, version: int) -> Game | None:
    """A copy of game ``game_id`` at ``version`` to play a move on, or None (none kept, or at
    another version). Its match and users are shared: never change them."""
    if not capacity():
        return None
    with _lock:
        entry = _entries.get(game_id)
        if entry is None or entry.game.version != version:
            return None
        _entries.move_to_end(game_id)
    return game_row_copy(entry.game, log_tail=list(entry.tail))


def game_snapshot_wanted(*, game_id: int, version: int) -> bool:
    """Whether reading game ``game_id`` ahead (``game_snapshot_prefetch``) would give this
    process a snapshot at ``version`` or later that it lacks. No query: safe on the loop."""
    if not capacity():
        return False
    with _lock:
        entry = _entries.get(game_id)
    return entry is None or entry.game.version < version


def snapshot_forget(game_id: int) -> None:
    with _lock:
        _entries.pop(game_id, None)


def snapshots_clear() -> None:
    """Forget every snapshot (tests: rows of one test are gone in the next)."""
    with _lock:
        _entries.clear()


def game_snapshot_prefetch(*, game_id: int) -> None:
    """Read game ``game_id`` ahead of its next move and keep it (no lock, one round trip): the
    socket of a player whose turn has come calls this, so their first move needs no read."""
    if not capacity():
        return
    game = game_row_read(game_id)
    if game is not None:
        snapshot_store(game, prefetched_log_tail(game) or [])
