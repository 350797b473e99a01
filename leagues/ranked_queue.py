"""Pairing the ranked queue: a pure function of the waiting entries and the time.

Each waiting player accepts opponents within a rating window that widens the longer they
wait (``Window``). Two players are paired only when each lies within the other's window. The
longest-waiting player is served first and gets the opponent of closest rating; ties go to
the one who has waited longer, then the lower user id, so the same queue always gives the
same pairs. Two players ``apart`` (one blocked the other, say) are never paired.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Window:
    """The rating window after ``waited`` seconds: ``base`` plus ``step`` for every whole
    ``every`` seconds waited, at most ``cap``."""

    base: float = 100.0
    step: float = 50.0
    every: float = 10.0
    cap: float = 600.0

    def at(self, waited: float) -> float:
        steps = int(max(0.0, waited) // self.every) if self.every > 0 else 0
        return min(self.cap, self.base + self.step * steps)


@dataclass(frozen=True, slots=True)
class Waiting:
    """One player in the queue: who, their rating when they joined, and since when."""

    user_id: int
    rating: float
    joined_at: datetime


def pairs(
    entries: Iterable[Waiting],
    now: datetime,
    window: Window | None = None,
    apart: Collection[frozenset[int]] = (),
) -> list[tuple[Waiting, Waiting]]:
    """The pairs to start now. Each pair is (the one who waited longer, their opponent); no
    player is in two pairs; players nobody fits keep waiting; no pair's two user ids make a
    set in ``apart``."""
    window = window or Window()
    queue: Sequence[Waiting] = sorted(entries, key=lambda e: (e.joined_at, e.user_id))
    reach = {e.user_id: window.at((now - e.joined_at).total_seconds()) for e in queue}
    taken: set[int] = set()
    result: list[tuple[Waiting, Waiting]] = []
    for entry in queue:
        if entry.user_id in taken:
            continue
        best: Waiting | None = None
        for other in queue:  # oldest first: on equal distance the longer wait wins
            if other.user_id == entry.user_id or other.user_id in taken:
                continue
            if frozenset((entry.user_id, other.user_id)) in apart:
                continue
            gap = abs(entry.rating - other.rating)
            if gap > reach[entry.user_id] or gap > reach[other.user_id]:
                continue
            if best is None or gap < abs(entry.rating - best.rating):
                best = other
        if best is not None:
            taken.update((entry.user_id, best.user_id))
            result.append((entry, best))
    return result
