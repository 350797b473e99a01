"""The "greedy" bot: plays toward its pay-off, keeps Kings, discards without burying.

Each choice, from the view alone:

1. play the pay-off top if it fits somewhere;
2. else, if some run of plays to the center (hand cards and side-stack tops)
   makes the pay-off top playable, play the first move of the shortest such
   run that spends the fewest Kings (a King is played only to unblock);
3. else play whatever else it can to the center, side-stack tops first, then
   hand cards (never a King): it empties its hand to draw fresh cards;
4. else discard: never a King when another card will do, preferably onto a
   side stack whose top is one rank higher or equal (descending runs that
   play back in order) or onto an empty one, never burying a lower card
   when it can help it, higher cards before lower ones.
"""

from __future__ import annotations

from typing import Any

from engine.bots.base import BaseBot, register
from engine.bots.planning import CHANCE, WIN, explore, feeds
from engine.cards import KING, RANK
from engine.game import Game
from engine.moves import HAND_TO_CENTER, PAYOFF_TO_CENTER, SIDE_TO_CENTER, Move


def discard_score(card_rank: int, side: list[str]) -> float:
    """How good it is to put a card of ``card_rank`` on ``side`` (higher is better)."""
    score = 0.3 * card_rank
    if card_rank == KING:
        score -= 100.0
    if not side:
        return score + 1.0
    top = RANK[side[-1]]
    if top == card_rank + 1:
        return score + 6.0
    if top == card_rank:
        return score + 4.0
    if card_rank < top or top == KING:
        return score + 2.0
    return score - 5.0 - 0.2 * (card_rank - top)


def best_discard(game: Game) -> Move:
    """The greedy discard of the player to move."""
    p = game.to_move
    best: Move | None = None
    best_score = -1e9
    for m in game.legal_moves():
        if m.target != "side":
            continue
        assert m.card is not None
        score = discard_score(RANK[m.card], game.sides[p][m.target_index])
        if score > best_score:
            best, best_score = m, score
    assert best is not None
    return best


@register("greedy")
class GreedyBot(BaseBot):
    """Plays toward its pay-off, keeps its Kings, discards without burying (see the module)."""

    def __init__(self, seed: int = 0, nodes: int = 400, careful: bool = False) -> None:
        super().__init__(seed)
        self.nodes = nodes
        #: Never play a card that leaves a center stack just below the opponent's pay-off top
        #: (step 3): the reviews' rollouts play this way (engine/coach.py).
        self.careful = careful

    def choose_from_view(self, view: dict[str, Any]) -> Move:
        game = Game.from_view(view, self.rng_for(view).next64())
        p = game.to_move
        legal = game.legal_moves()
        for m in legal:
            if m.kind == PAYOFF_TO_CENTER:
                return m
        nodes, _ = explore(game, self.nodes)
        runs = [
            n
            for n in nodes
            if n.kind in (CHANCE, WIN) and n.moves and n.moves[-1].kind == PAYOFF_TO_CENTER
        ]
        if runs:
            best = min(runs, key=lambda n: (n.kings, len(n.moves)))
            return best.moves[0]
        heights = [len(c) for c in game.center]
        top = game.payoffs[1 - p][-1] if game.payoffs[1 - p] else None

        def safe(m: Move) -> bool:
            return not (self.careful and feeds(heights, top, m))

        for m in legal:
            kind = m.kind
            if (
                kind == SIDE_TO_CENTER
                and RANK[game.sides[p][m.origin_index][-1]] != KING
                and safe(m)
            ):
                return m
        for m in legal:
            if m.kind == HAND_TO_CENTER and m.card is not None and RANK[m.card] != KING and safe(m):
                return m
        return best_discard(game)
