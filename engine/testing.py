"""Building small positions by hand, for tests (here and in the rest of the project).

>>> game = position(hands=[["AS", "7D"], ["2C"]], payoffs=[["KD"], ["4D"]],
...                 center=[["AH", "2S"]], stock=["5D", "QC"])
>>> [str(m) for m in game.legal_moves() if m.target == "center"]
['p-c1', 'p-c2', 'p-c3', 'h:AS-c2', 'h:AS-c3']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game import Game
from engine.rules import Rules


def _pad(stacks: Sequence[Sequence[str]] | None, count: int) -> list[list[str]]:
    out = [list(s) for s in stacks or ()]
    return out + [[] for _ in range(count - len(out))]


def position(
    *,
    hands: Sequence[Sequence[str]] = (("AS",), ("2C",)),
    payoffs: Sequence[Sequence[str]] = (("9C",), ("9D",)),
    sides: Sequence[Sequence[Sequence[str]] | None] = (None, None),
    center: Sequence[Sequence[str]] | None = None,
    stock: Sequence[str] = (),
    to_move: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    seed: int = 0,
) -> Game:
    """A game through ``Game.from_dict`` (so fully checked); stacks not given are empty."""
    if not isinstance(rules, Rules):
        rules = Rules.from_dict(rules)
    return Game.from_dict(
        {
            "to_move": to_move,
            "players": [
                {
                    "hand": list(hands[p]),
                    "payoff": list(payoffs[p]),
                    "sides": _pad(sides[p], rules.side_stacks),
                }
                for p in (0, 1)
            ],
            "center": _pad(center, rules.center_stacks),
            "stock": list(stock),
            "rules": rules.to_dict(),
            "seed": seed,
        }
    )
