"""Moves and the error a refused move raises.

A move is written ``<from>-<to>``: ``p-c1`` (pay-off top to center stack 1),
``s3-c2`` (side stack 3 to center stack 2), ``h:7D-c3`` (the 7D from the hand
to center stack 3), ``h:QH-s4`` (the QH from the hand to side stack 4, which
ends the turn). Stack numbers count from 1.

>>> m = Move.parse("h:KS-c2")
>>> m
Move.parse('h:KS-c2')
>>> str(m), m.origin, m.card, m.target, m.target_index
('h:KS-c2', 'hand', 'KS', 'center', 1)
>>> Move.parse("x-c1")
Traceback (most recent call last):
...
engine.moves.IllegalMove: 'x-c1' is not a move; write it like p-c1, s2-c3, h:7D-c1 or h:QH-s4
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.cards import ORDER

#: The whole move grammar (ENGINE.md).
GRAMMAR = r"(p|s[1-9][0-9]*|h:[A2-9TJQK][SHDC])-(c[1-9][0-9]*|s[1-9][0-9]*)"
_PATTERN = re.compile(GRAMMAR)

# Move kinds, for the rules code. The last two no game allows (bad_target).
PAYOFF_TO_CENTER = 0
SIDE_TO_CENTER = 1
HAND_TO_CENTER = 2
HAND_TO_SIDE = 3
PAYOFF_TO_SIDE = 4
SIDE_TO_SIDE = 5

_ORIGINS = ("payoff", "side", "hand", "hand", "payoff", "side")
_TARGETS = ("center", "center", "center", "side", "side", "side")
_GROUP = (0, 1, 2, 2, 3, 4)
_TARGET_BIAS = (0, 0, 0, 1000, 1000, 1000)


class IllegalMove(ValueError):
    """A move that is not well formed, or that the position does not allow.

    ``code`` is a stable snake_case code, ``params`` names what the message
    names (card, stack, needed rank, …) so that it can be translated, and
    ``str(err)`` is the message in English.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = params
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r}, **{self.params!r})"


@dataclass(frozen=True, slots=True, repr=False)
class Move:
    """One move of the player to move, by its text; equal when the texts are equal.

    ``Move(text)`` is the same as ``Move.parse(text)``. The parsed parts are
    ``origin`` ("payoff", "side" or "hand"), ``origin_index`` (side stack,
    counted from 0), ``card`` (hand moves), ``target`` ("center" or "side")
    and ``target_index`` (counted from 0).
    """

    text: str
    kind: int = field(init=False, compare=False)
    origin_index: int = field(init=False, compare=False)
    card: str | None = field(init=False, compare=False)
    target_index: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        text = self.text
        match = _PATTERN.fullmatch(text) if isinstance(text, str) else None
        if match is None:
            raise IllegalMove(
                "bad_notation",
                f"{text!r} is not a move; write it like p-c1, s2-c3, h:7D-c1 or h:QH-s4",
                text=text if isinstance(text, str) else repr(text),
            )
        src, dst = match.group(1), match.group(2)
        to_side = dst[0] == "s"
        origin_index = -1
        card: str | None = None
        if src == "p":
            kind = PAYOFF_TO_SIDE if to_side else PAYOFF_TO_CENTER
        elif src[0] == "s":
            kind = SIDE_TO_SIDE if to_side else SIDE_TO_CENTER
            origin_index = int(src[1:]) - 1
        else:
            kind = HAND_TO_SIDE if to_side else HAND_TO_CENTER
            card = src[2:]
        set_ = object.__setattr__
        set_(self, "kind", kind)
        set_(self, "origin_index", origin_index)
        set_(self, "card", card)
        set_(self, "target_index", int(dst[1:]) - 1)

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move ``text`` stands for; IllegalMove ``bad_notation`` if it is not a move."""
        move = _CACHE.get(text) if isinstance(text, str) else None
        if move is None:
            move = cls(text)
            if len(_CACHE) < _CACHE_LIMIT:
                _CACHE[text] = move
        return move

    @property
    def origin(self) -> str:
        """Where the card comes from: "payoff", "side" or "hand"."""
        return _ORIGINS[self.kind]

    @property
    def target(self) -> str:
        """Where the card goes: "center" or "side"."""
        return _TARGETS[self.kind]

    @property
    def source_name(self) -> str:
        """The origin as written in the move: "p", "s2", "h:7D"."""
        return self.text.split("-", 1)[0]

    @property
    def target_name(self) -> str:
        """The target as written in the move: "c1", "s4"."""
        return self.text.split("-", 1)[1]

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """The canonical order: pay-off, side stacks, then hand cards by rank and suit.

        Within one origin, center stacks come before side stacks, each by number.
        """
        second = self.origin_index if self.card is None else ORDER[self.card]
        return (_GROUP[self.kind], second, _TARGET_BIAS[self.kind] + self.target_index)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move.parse({self.text!r})"


_CACHE: dict[str, Move] = {}
_CACHE_LIMIT = 20_000
