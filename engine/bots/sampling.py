"""Resampling the hidden cards consistently with a view (OpenSpiel's ``resample_from_infostate``).

A bot sees ``game.view(player)``: its own hand, every pay-off top and size,
every side and center stack, the opponent's hand size and the stock size.
``worlds`` deals the cards it cannot see (the opponent's hand, the cards
under both pay-off tops, the stock order) at random from the cards the view
does not show, once per world, each with its own seed drawn from ``rng``.
Every world therefore gives the viewer exactly the view it was built from.

>>> from engine import Game
>>> from engine.rng import Rng
>>> game = Game.new(seed=3)
>>> view = game.view(game.to_move)
>>> all(w.view(game.to_move) == view for w in worlds(view, Rng(1), 3))
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.cards import CARDS
from engine.game import Game
from engine.rng import Rng


def worlds(view: Mapping[str, Any], rng: Rng, count: int) -> list[Game]:
    """``count`` games consistent with ``view``, the unseen cards dealt at random."""
    return [Game.from_view(view, rng.next64()) for _ in range(count)]


def disagreements(view: Mapping[str, Any], game: Game) -> list[str]:
    """Why ``game`` is not a deal consistent with ``view`` (empty when it is).

    Checks the counts (hands, pay-offs, stock), the visible cards (the
    viewer's hand, pay-off tops, side and center stacks) and that the whole
    deck is there: every code exactly ``decks`` times.
    """
    problems: list[str] = []
    seat = view["seat"]
    for p, info in enumerate(view["players"]):
        if len(game.hands[p]) != info["hand_size"]:
            problems.append(f"player {p} holds {len(game.hands[p])} cards, not {info['hand_size']}")
        if p == seat and sorted(game.hands[p]) != sorted(info["hand"]):
            problems.append(f"player {p}'s own hand changed")
        payoff = game.payoffs[p]
        if len(payoff) != info["payoff_size"]:
            problems.append(f"player {p}'s pay-off holds {len(payoff)}, not {info['payoff_size']}")
        if (payoff[-1] if payoff else None) != info["payoff_top"]:
            problems.append(f"player {p}'s pay-off top changed")
        if game.sides[p] != info["sides"]:
            problems.append(f"player {p}'s side stacks changed")
    if game.center != [s["cards"] for s in view["center"]]:
        problems.append("the center stacks changed")
    if len(game.stock) != view["stock_size"]:
        problems.append(f"the stock holds {len(game.stock)} cards, not {view['stock_size']}")
    if game.to_move != view["to_move"]:
        problems.append("the player to move changed")
    cards: Counter[str] = Counter(game.stock)
    for stack in game.center:
        cards.update(stack)
    for p in (0, 1):
        cards.update(game.hands[p])
        cards.update(game.payoffs[p])
        for side in game.sides[p]:
            cards.update(side)
    decks = game.rules.decks
    wrong = sorted(c for c in CARDS if cards[c] != decks)
    if wrong or sum(cards.values()) != decks * len(CARDS):
        problems.append(f"the deck is not whole: wrong counts for {', '.join(wrong) or 'none'}")
    return problems
