"""The seeded shuffler: engine/rng.py."""

from collections import Counter

import pytest

from engine.rng import MASK64, Rng, seed_to_state


def test_splitmix64_reference_vectors() -> None:
    rng = Rng(1234567)
    assert [rng.next64() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]
    assert Rng(0).next64() == 0xE220A8397B1DCDAF


def test_state_is_one_int_and_restores_the_stream() -> None:
    rng = Rng(99)
    for _ in range(5):
        rng.next64()
    copy = Rng.from_state(rng.state)
    assert [copy.next64() for _ in range(10)] == [rng.next64() for _ in range(10)]
    clone = rng.copy()
    assert clone.below(1000) == rng.below(1000)


def test_below_is_in_range_and_roughly_uniform() -> None:
    rng = Rng(5)
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(800 < n < 1200 for n in counts.values())
    assert Rng(3).below(1) == 0
    with pytest.raises(ValueError):
        rng.below(0)


def test_below_rejects_the_biased_tail() -> None:
    # With n = 2**64 - 1 the word 2**64 - 1 lies in the rejected tail.
    class Scripted(Rng):
        words = [MASK64, 7]

        def next64(self) -> int:
            return self.words.pop(0)

    assert Scripted(0).below(MASK64) == 7


def test_shuffle_is_a_seeded_permutation() -> None:
    items = list(range(50))
    a, b = items[:], items[:]
    Rng(11).shuffle(a)
    Rng(11).shuffle(b)
    assert a == b
    assert sorted(a) == items
    assert a != items
    c = items[:]
    Rng(12).shuffle(c)
    assert c != a


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3", None])
def test_bad_seeds_are_refused(seed: object) -> None:
    with pytest.raises(ValueError):
        Rng(seed)  # type: ignore[arg-type]


def test_large_seeds_are_folded_not_truncated() -> None:
    assert seed_to_state(2**64 - 1) == 2**64 - 1
    assert seed_to_state(2**64) != seed_to_state(0)
    assert seed_to_state(2**70) != seed_to_state(2**70 + 2**64)


def test_bad_states_are_refused() -> None:
    for state in (-1, 2**64, True, "1"):
        with pytest.raises(ValueError):
            Rng.from_state(state)  # type: ignore[arg-type]


def test_shuffle_makes_the_same_draws_as_below() -> None:
    items = list(range(80))
    slow, rng = items[:], Rng(2024)
    for i in range(len(slow) - 1, 0, -1):
        j = rng.below(i + 1)
        slow[i], slow[j] = slow[j], slow[i]
    fast, fast_rng = items[:], Rng(2024)
    fast_rng.shuffle(fast)
    assert fast == slow and fast_rng.state == rng.state
