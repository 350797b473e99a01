"""A small seeded generator whose whole state is one integer.

SplitMix64 (Steele, Lea and Flood, 2014), in pure Python, so a game's
shuffles are the same on every machine and its state fits in JSON.

>>> rng = Rng(7)
>>> rng.below(10), rng.below(10)
(7, 4)
>>> Rng.from_state(rng.state).below(10) == rng.below(10)
True
"""

from __future__ import annotations

import hashlib
from typing import TypeVar

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_TWO64 = 1 << 64

T = TypeVar("T")


def seed_to_state(seed: int) -> int:
    """The generator state for ``seed`` (any non-negative int).

    Seeds below 2**64 are used as they are; larger ones are folded with SHA-256
    so that distinct large seeds still give distinct streams.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed must be a non-negative integer, not {seed!r}")
    if seed <= MASK64:
        return seed
    digest = hashlib.sha256(str(seed).encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


class Rng:
    """SplitMix64: ``next64`` words, unbiased ``below``, Fisher-Yates ``shuffle``."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed_to_state(seed)

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """The generator whose state is ``state`` (as read from ``.state``)."""
        if isinstance(state, bool) or not isinstance(state, int) or not 0 <= state <= MASK64:
            raise ValueError(f"a generator state must be an integer in [0, 2**64), not {state!r}")
        rng = cls.__new__(cls)
        rng.state = state
        return rng

    def copy(self) -> Rng:
        rng = Rng.__new__(Rng)
        rng.state = self.state
        return rng

    def next64(self) -> int:
        """The next 64-bit word."""
        self.state = s = (self.state + _GAMMA) & MASK64
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & MASK64
        return s ^ (s >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, by rejection (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            r = self.next64()
            if r < limit:
                return r % n

    def choice(self, items: list[T]) -> T:
        """One element of a non-empty list, uniformly."""
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, from the end).

        The same draws as ``below(i + 1)`` for i from the end, inlined for speed.
        """
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _TWO64 - _TWO64 % n
            while True:
                s = (s + _GAMMA) & MASK64
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = s
