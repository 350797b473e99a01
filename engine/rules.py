"""The knobs of RULES.md as one frozen value.

>>> Rules().hand_size
5
>>> Rules(king_on_empty=False).to_dict()["king_on_empty"]
False
>>> Rules(jokers=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown rule 'jokers'; the rules are: decks, hand_size, ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

#: The most side or center stacks a game may have (stack numbers stay two digits).
MAX_STACKS = 99
#: The most decks a game may use.
MAX_DECKS = 8


@dataclass(frozen=True, init=False)
class Rules:
    """The rule variant a game is played under; every keyword is a knob of RULES.md."""

    decks: int
    hand_size: int
    payoff_size: int
    side_stacks: int
    center_stacks: int
    king_on_empty: bool
    refill_empty_hand: bool
    match_target: int

    def __init__(
        self,
        *,
        decks: int = 2,
        hand_size: int = 5,
        payoff_size: int = 20,
        side_stacks: int = 4,
        center_stacks: int = 3,
        king_on_empty: bool = True,
        refill_empty_hand: bool = True,
        match_target: int = 50,
        **unknown: object,
    ) -> None:
        if unknown:
            name = sorted(unknown)[0]
            raise ValueError(f"unknown rule {name!r}; the rules are: {', '.join(KNOBS)}")
        values: dict[str, object] = {
            "decks": decks,
            "hand_size": hand_size,
            "payoff_size": payoff_size,
            "side_stacks": side_stacks,
            "center_stacks": center_stacks,
            "king_on_empty": king_on_empty,
            "refill_empty_hand": refill_empty_hand,
            "match_target": match_target,
        }
        for name, value in values.items():
            if name in _FLAGS:
                if not isinstance(value, bool):
                    raise ValueError(f"rule {name!r} must be true or false, not {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"rule {name!r} must be an integer, not {value!r}")
            elif value < 1:
                raise ValueError(f"rule {name!r} must be at least 1, not {value}")
            object.__setattr__(self, name, value)
        if decks > MAX_DECKS:
            raise ValueError(f"rule 'decks' must be at most {MAX_DECKS}, not {decks}")
        for name in ("side_stacks", "center_stacks"):
            if getattr(self, name) > MAX_STACKS:
                raise ValueError(f"rule {name!r} must be at most {MAX_STACKS}")
        needed = 2 * payoff_size + 2 * hand_size
        if decks * 52 < needed:
            raise ValueError(
                f"{decks} deck(s) hold {decks * 52} cards, too few to deal two pay-off piles "
                f"of {payoff_size} and two hands of {hand_size} ({needed} cards)"
            )

    @property
    def deck_size(self) -> int:
        """Cards in the whole deck."""
        return self.decks * 52

    def to_dict(self) -> dict[str, Any]:
        """Every knob by name."""
        return {name: getattr(self, name) for name in KNOBS}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Rules:
        """Rules from a possibly partial dict; absent knobs take their defaults."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise ValueError(f"rules must be a mapping of knobs, not {type(data).__name__}")
        for key in data:
            if not isinstance(key, str):
                raise ValueError(f"unknown rule {key!r}; the rules are: {', '.join(KNOBS)}")
        return cls(**data)

    def match_winner(self, points: Sequence[int]) -> int | None:
        """The player whose match points reach ``match_target`` first, if any.

        >>> Rules().match_winner([12, 50])
        1
        """
        best = max(range(len(points)), key=lambda p: points[p])
        if points[best] >= self.match_target and points.count(points[best]) == 1:
            return best
        return None


KNOBS: tuple[str, ...] = tuple(f.name for f in fields(Rules))
_FLAGS = frozenset({"king_on_empty", "refill_empty_hand"})
