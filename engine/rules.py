"""The knobs of RULES.md as one frozen value.

>>> Rules().hand_size
5
>>> Rules(king_on_empty=False).to_dict()["king_on_empty"]
False
>>> Rules(jokers=True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.rules.RulesError: unknown rule 'jokers'; the rules are: decks, hand_size, ...
>>> try:
...     Rules(decks=9)
... except RulesError as err:
...     print(err.knob, err.code, err.params)
decks too_large {'maximum': 8, 'value': 9}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

#: The most side or center stacks a game may have (stack numbers stay two digits).
MAX_STACKS = 99
#: The most decks a game may use.
MAX_DECKS = 8
#: Each number knob's allowed values, smallest and largest (None: no upper bound). Whether
#: the deal fits the deck is checked across knobs (code ``deck_too_small``).
LIMITS: dict[str, tuple[int, int | None]] = {
    "decks": (1, MAX_DECKS),
    "hand_size": (1, None),
    "payoff_size": (1, None),
    "side_stacks": (1, MAX_STACKS),
    "center_stacks": (1, MAX_STACKS),
    "match_target": (1, None),
}


class RulesError(ValueError):
    """An unknown knob or an impossible knob value.

    ``knob`` names the knob (None when the rules as a whole are not a mapping), ``code`` is a
    stable snake_case code and ``params`` holds what the message names, so that it can be
    translated; ``str(err)`` is the message in English.

    ============== ======================================================================
    code           params
    ============== ======================================================================
    unknown        ``knobs``: every knob's name
    not_mapping    ``type``: the name of the type given instead of a mapping
    not_bool       ``value``: what was given for a true/false knob
    not_int        ``value``: what was given for a number knob
    too_small      ``minimum``, ``value``
    too_large      ``maximum``, ``value``
    deck_too_small ``decks``, ``cards`` (in them), ``payoff_size``, ``hand_size``, ``needed``
                   (cards the deal takes); ``knob`` is "decks"
    ============== ======================================================================
    """

    def __init__(self, code: str, message: str, *, knob: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.knob = knob
        self.params: dict[str, Any] = params
        self.message = message

    def __repr__(self) -> str:
        return f"RulesError({self.code!r}, {self.message!r}, knob={self.knob!r}, **{self.params!r})"


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
            raise _unknown(name)
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
                    raise RulesError(
                        "not_bool",
                        f"rule {name!r} must be true or false, not {value!r}",
                        knob=name,
                        value=value,
                    )
            elif isinstance(value, bool) or not isinstance(value, int):
                raise RulesError(
                    "not_int",
                    f"rule {name!r} must be an integer, not {value!r}",
                    knob=name,
                    value=value,
                )
            elif value < LIMITS[name][0]:
                raise RulesError(
                    "too_small",
                    f"rule {name!r} must be at least {LIMITS[name][0]}, not {value}",
                    knob=name,
                    minimum=LIMITS[name][0],
                    value=value,
                )
            object.__setattr__(self, name, value)
        for name, (_least, most) in LIMITS.items():
            value = getattr(self, name)
            if most is not None and value > most:
                # A stack count's refusal names no value (as it always has).
                said = f", not {value}" if name == "decks" else ""
                raise RulesError(
                    "too_large",
                    f"rule {name!r} must be at most {most}{said}",
                    knob=name,
                    maximum=most,
                    value=value,
                )
        needed = 2 * payoff_size + 2 * hand_size
        if decks * 52 < needed:
            raise RulesError(
                "deck_too_small",
                f"{decks} deck(s) hold {decks * 52} cards, too few to deal two pay-off piles "
                f"of {payoff_size} and two hands of {hand_size} ({needed} cards)",
                knob="decks",
                decks=decks,
                cards=decks * 52,
                payoff_size=payoff_size,
                hand_size=hand_size,
                needed=needed,
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
            kind = type(data).__name__
            raise RulesError(
                "not_mapping", f"rules must be a mapping of knobs, not {kind}", type=kind
            )
        for key in data:
            if not isinstance(key, str):
                raise _unknown(key)
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


def _unknown(name: object) -> RulesError:
    return RulesError(
        "unknown",
        f"unknown rule {name!r}; the rules are: {', '.join(KNOBS)}",
        knob=str(name),
        knobs=KNOBS,
    )
