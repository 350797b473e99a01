"""The queue's pairing, a pure function of (entries, now)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from leagues.ranked_queue import Waiting, Window, pairs

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
WINDOW = Window(base=100, step=50, every=10, cap=600)


def waiting(user_id: int, rating: float, waited: float = 0) -> Waiting:
    return Waiting(user_id, rating, NOW - timedelta(seconds=waited))


def ids(result) -> list[tuple[int, int]]:
    return [(a.user_id, b.user_id) for a, b in result]


def test_the_window_widens_with_the_wait_up_to_the_cap() -> None:
    assert [WINDOW.at(s) for s in (0, 9.9, 10, 25, 60)] == [100, 100, 150, 200, 400]
    assert WINDOW.at(10_000) == 600
    assert WINDOW.at(-5) == 100


def test_the_closest_rating_is_chosen() -> None:
    queue = [waiting(1, 1500, 30), waiting(2, 1560), waiting(3, 1520), waiting(4, 1475)]
    # 1 waited longest: served first, gets 3 (20 away) over 4 (25) and 2 (60); 2 and 4 (85)
    assert ids(pairs(queue, NOW, WINDOW)) == [(1, 3), (2, 4)]


def test_nobody_is_paired_outside_the_window() -> None:
    queue = [waiting(1, 1500), waiting(2, 1650)]
    assert pairs(queue, NOW, WINDOW) == []
    assert pairs([waiting(1, 1500), waiting(2, 1600)], NOW, WINDOW) != []  # 100 is within


def test_the_window_widening_with_time_pairs_them_later() -> None:
    queue = [waiting(1, 1500, 0), waiting(2, 1650, 0)]
    later = NOW + timedelta(seconds=20)  # both have waited 20 s: windows of 200
    assert ids(pairs(queue, later, WINDOW)) == [(1, 2)]


def test_both_windows_must_hold() -> None:
    # 1 waited a minute (window 400); 2 just came (window 100): 250 apart is too far for 2
    queue = [waiting(1, 1500, 60), waiting(2, 1750, 0)]
    assert pairs(queue, NOW, WINDOW) == []
    assert ids(pairs(queue, NOW + timedelta(seconds=30), WINDOW)) == [(1, 2)]  # 2's window: 250


def test_ties_are_deterministic() -> None:
    # 2 and 3 are both 50 from 1: the one who waited longer wins; on equal waits, the lower id
    queue = [waiting(1, 1500, 30), waiting(3, 1550, 5), waiting(2, 1450, 5)]
    assert ids(pairs(queue, NOW, WINDOW)) == [(1, 2)]
    queue = [waiting(1, 1500, 30), waiting(3, 1550, 5), waiting(2, 1450, 9)]
    assert ids(pairs(queue, NOW, WINDOW)) == [(1, 2)]
    queue = [waiting(1, 1500, 30), waiting(3, 1550, 9), waiting(2, 1450, 5)]
    assert ids(pairs(queue, NOW, WINDOW)) == [(1, 3)]
    for _ in range(3):  # the input order never matters
        assert ids(pairs(list(reversed(queue)), NOW, WINDOW)) == [(1, 3)]


def test_nobody_is_paired_twice_and_alone_waits() -> None:
    queue = [waiting(i, 1500 + i, 60 - i) for i in range(1, 6)]
    result = pairs(queue, NOW, WINDOW)
    seen = [e.user_id for pair in result for e in pair]
    assert len(seen) == len(set(seen)) == 4
    assert pairs([waiting(1, 1500)], NOW, WINDOW) == []
    assert pairs([], NOW, WINDOW) == []


def test_players_kept_apart_are_never_paired_and_others_still_are() -> None:
    queue = [waiting(1, 1500, 30), waiting(2, 1510), waiting(3, 1540)]
    assert ids(pairs(queue, NOW, WINDOW, apart={frozenset((1, 2))})) == [(1, 3)]
    assert pairs(queue[:2], NOW, WINDOW, apart={frozenset((1, 2))}) == []
