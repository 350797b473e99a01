"""Building small positions by hand, for tests (here and in the rest of the project).

>>> game = position(hands=[["AS", "7D"], ["2C"]], payoffs=[["KD"], ["4D"]],
...                 center=[["AH", "2S"]], stock=["5D", "QC"])
>>> [str(m) for m in game.legal_moves() if m.target == "center"]
['p-c1', 'p-c2', 'p-c3', 'h:AS-c2', 'h:AS-c3']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from engine.cards import CARDS
from engine.game import Game
from engine.rng import Rng
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
    stock: Sequence[str] | str = (),
    to_move: int = 0,
    rules: Rules | dict[str, Any] | None = None,
    seed: int = 0,
) -> Game:
    """A game through ``Game.from_dict`` (so fully checked); stacks not given are empty.
    ``stock="rest"``: every card of the decks not placed elsewhere, shuffled with ``seed``."""
    if not isinstance(rules, Rules):
        rules = Rules.from_dict(rules)
    if stock == "rest":
        placed = Counter([c for p in (0, 1) for c in [*hands[p], *payoffs[p]]])
        placed.update(c for p in (0, 1) for s in sides[p] or () for c in s)
        placed.update(c for s in center or () for c in s)
        stock = [c for c in CARDS for _ in range(rules.decks - placed[c])]
        Rng(seed).shuffle(stock)
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


# --- positions that tell a good play from a bad one (engine/coach.py's estimates, bench/coach.py)


def missed_win() -> Game:
    """Player 0 wins by playing the pay-off top (``p-c1``); any discard lets player 1 play
    theirs on center stack 2 and win."""
    return position(
        hands=[["9S", "JD", "KC", "QH", "8D"], ["2C", "2D", "5S", "8H", "JH"]],
        payoffs=[["3H"], ["4D"]],
        center=[["AH", "2S"], ["AS", "2D", "3C"]],
        stock="rest",
        seed=1,
    )


def feeding_the_last_card() -> Game:
    """Player 1's last pay-off card is the 7♥ and center stack 1 stands at 5: player 0's
    ``h:6S-c1`` hands them the game, a discard (``h:9D-s1``) does not. Every other 6 and
    every King is in sight, buried in player 0's side stacks, so player 1 cannot find one."""
    return position(
        hands=[["6S", "9D", "JC", "2H", "TD"], ["2C", "2D", "5S", "8H", "JH"]],
        payoffs=[["QC", "8C"], ["7H"]],
        sides=[
            [
                ["KS", "KH", "KD", "KC", "TC"],
                ["KS", "KH", "KD", "KC", "TH"],
                ["6S", "6H", "6H", "6D", "9C"],
                ["6D", "6C", "6C", "JS"],
            ],
            None,
        ],
        center=[["AH", "2S", "3D", "4C", "5H"]],
        stock="rest",
        seed=1,
    )
