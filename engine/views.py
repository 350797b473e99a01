"""What a player may see, and games rebuilt from what a player sees.

``build_view`` is ``Game.view``; ``sample_game`` is ``Game.from_view``: it
deals the cards a view hides (the opponent's hand, the cards under the pay-off
tops, the stock) at random from the cards it does not show, which is how a
fair bot searches without peeking (OpenSpiel's ``resample_from_infostate``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.cards import CARDS, sort_cards
from engine.rng import Rng
from engine.rules import Rules

if TYPE_CHECKING:
    from engine.game import Game


def build_view(game: Game, player: int | None) -> dict[str, Any]:
    """The body of ``Game.view``."""
    if player is not None and (isinstance(player, bool) or player not in (0, 1)):
        raise ValueError(f"a viewer is player 0, player 1 or None, not {player!r}")
    yours = player is not None and game.outcome is None and game.to_move == player
    players = []
    for p in (0, 1):
        payoff = game.payoffs[p]
        players.append(
            {
                "hand": sort_cards(game.hands[p]) if p == player else None,
                "hand_size": len(game.hands[p]),
                "payoff_top": payoff[-1] if payoff else None,
                "payoff_size": len(payoff),
                "sides": [s[:] for s in game.sides[p]],
            }
        )
    return {
        "seat": player,
        "to_move": game.to_move,
        "legal_moves": [m.text for m in game.legal_moves()] if yours else [],
        "players": players,
        "center": [{"cards": s[:], "stands_for": len(s)} for s in game.center],
        "stock_size": len(game.stock),
        "outcome": None if game.outcome is None else game.outcome.to_dict(),
        "rules": game.rules.to_dict(),
        "ply": game.ply,
    }


def sample_game(view: Mapping[str, Any], seed: int = 0) -> Game:
    """A game that gives ``view`` to its viewer, hidden cards dealt at random.

    The unseen cards are the whole deck less every card the view shows; they
    are shuffled with ``Rng(seed)`` and dealt to the hidden places (a hidden
    hand, the cards under each pay-off top, the stock). The new game's later
    shuffles continue that generator. ValueError if too few cards are unseen.
    """
    from engine.game import Game, Outcome

    rules = Rules.from_dict(view.get("rules"))
    counts = dict.fromkeys(CARDS, rules.decks)
    players = view["players"]
    seen: list[str] = [c for stack in view["center"] for c in stack["cards"]]
    for info in players:
        if info["hand"] is not None:
            seen += info["hand"]
        if info["payoff_top"] is not None:
            seen.append(info["payoff_top"])
        for side in info["sides"]:
            seen += side
    for card in seen:
        counts[card] -= 1
    if any(n < 0 for n in counts.values()):
        raise ValueError("the view shows more copies of a card than the decks hold")
    pool = [card for card in CARDS for _ in range(counts[card])]
    rng = Rng(seed)
    rng.shuffle(pool)

    def deal(n: int) -> list[str]:
        if n > len(pool):
            raise ValueError("the view hides more cards than the deck has left unseen")
        cards = pool[len(pool) - n :]
        del pool[len(pool) - n :]
        return cards

    hands = [
        list(info["hand"]) if info["hand"] is not None else deal(info["hand_size"])
        for info in players
    ]
    payoffs = []
    for info in players:
        size = info["payoff_size"]
        payoffs.append([*deal(size - 1), info["payoff_top"]] if size else [])
    stock = deal(view["stock_size"])
    outcome = view.get("outcome")
    return Game(
        rules=rules,
        hands=hands,
        payoffs=payoffs,
        sides=[[list(s) for s in info["sides"]] for info in players],
        center=[list(s["cards"]) for s in view["center"]],
        stock=stock,
        to_move=view["to_move"],
        seed=seed,
        rng=rng,
        ply=view.get("ply", 0),
        outcome=None if outcome is None else Outcome.from_dict(outcome),
    )
