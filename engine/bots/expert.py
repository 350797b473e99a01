"""The "expert" bot: plans whole turns over resampled deals.

At the start of a turn, and again whenever something it could not foresee
happens (the card under its pay-off top turns up, its hand is refilled, or
the view differs from the one its plan predicted), the expert:

1. deals ``samples`` worlds consistent with its view (``sampling.worlds``):
   the opponent's hand, the cards under both pay-off tops and the stock
   order are drawn at random from the cards it cannot see;
2. enumerates its turn plans (``planning.explore``): every distinct run of
   plays to the center up to the first surprise, each ended by every
   distinct discard, or by the play that shows a hidden card;
3. scores each plan's end state: its own pay-off progress (100 a card; a
   win beats everything), minus the opponent's expected pay-off run next
   turn, estimated in every world from the opponent's sampled hand (plus
   their draw), side tops and sampled pay-off cards (90 a card, and a heavy
   penalty when that could empty their pile), plus the shape of its own
   side stacks (descending runs, nothing buried, empty stacks), Kings kept,
   a small hand, and how few cards it lacks to reach its pay-off top;
4. for the most promising plans that end in a surprise, looks past it in
   every world: applies the plan there, sees the card that turns up and
   plans the rest of the turn in that world (``depth`` surprises deep),
   averaging the best values over the worlds;
5. plays the first move of the best plan and keeps the rest, keyed by the
   view it expects to see before each later move; a later choice reuses
   the plan only when the view is exactly that one.

It reads nothing but ``game.view(player)``; its randomness comes from
``rng_for(view)``; every budget is a count (worlds, states expanded), never
a time, so it is deterministic for a seed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from engine.bots.base import BaseBot, register, view_digest
from engine.bots.planning import (
    CHANCE,
    INNER,
    OVER,
    WIN,
    discards,
    explore,
    missing_for,
    payoff_run,
    rank_counts,
)
from engine.bots.sampling import worlds
from engine.cards import KING, RANK
from engine.game import Game
from engine.moves import HAND_TO_CENTER, PAYOFF_TO_CENTER, Move

PAYOFF_CARD = 100.0
THREAT_CARD = 90.0
THREAT_LOSS = 5000.0
KING_IN_HAND = 10.0
KING_ON_SIDE = 6.0
EMPTY_SIDE = 3.0
HAND_CARD = 1.5
SIDE_CARD = 0.5
MISSING = 5.0
CHANCE_BONUS = 10.0
WIN_VALUE = 1e9


def stack_score(ranks: tuple[int, ...]) -> float:
    """The shape of one side stack (ranks bottom to top): descending runs good, burying bad."""
    if not ranks:
        return EMPTY_SIDE
    score = 0.0
    for below, above in pairwise(ranks):
        if above == below - 1:
            score += 2.0
        elif above == below:
            score += 0.5
        elif above == KING:
            score -= 1.0
        elif above > below:
            score -= 4.0
    if ranks[-1] == KING:
        score += KING_ON_SIDE
    return score


@dataclass
class _Context:
    me: int
    roots: list[Game]
    root_payoff: int
    opp_counts: list[list[int]]
    opp_payoff: list[list[int]]
    opp_size: int
    budget: int
    threat_memo: dict[tuple[int, tuple[int, ...]], float] = field(default_factory=dict)
    stack_memo: dict[tuple[int, ...], float] = field(default_factory=dict)
    reach_memo: dict[tuple[object, ...], int] = field(default_factory=dict)


@register("expert")
class ExpertBot(BaseBot):
    """Samples the hidden cards, plans whole turns, plays the best plan on average."""

    def __init__(
        self,
        seed: int = 0,
        samples: int = 10,
        nodes: int = 1500,
        sub_nodes: int = 120,
        depth: int = 2,
        continuations: int = 6,
        budget: int = 6000,
    ) -> None:
        super().__init__(seed)
        for name, value in (
            ("samples", samples),
            ("nodes", nodes),
            ("sub_nodes", sub_nodes),
            ("budget", budget),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        if depth < 0 or continuations < 0:
            raise ValueError("depth and continuations must not be negative")
        self.samples = samples
        self.nodes = nodes
        self.sub_nodes = sub_nodes
        self.depth = depth
        self.continuations = continuations
        self.budget = budget
        #: The rest of the current plan: expected view digest -> move to play then.
        self._plan: dict[bytes, Move] = {}

    # ------------------------------------------------------------------ choosing

    def choose_from_view(self, view: dict[str, Any]) -> Move:
        legal: list[str] = view["legal_moves"]
        digest = view_digest(view)
        planned = self._plan.pop(digest, None)
        if planned is not None and planned.text in legal:
            return planned
        self._plan.clear()
        moves, world = self._line(view)
        if world is not None:
            self._remember(world, view["seat"], moves)
        return moves[0]

    def plan(self, view: dict[str, Any]) -> tuple[Move, ...]:
        """The moves the expert means to play from ``view`` (whose viewer is to move), up to
        its discard or the first play that shows a hidden card: ``choose`` of a fresh bot
        plays the first. Reads the view alone, like ``choose``; keeps no plan."""
        if view["outcome"] is not None or view["to_move"] != view["seat"]:
            raise ValueError("the viewer is not to move")
        return self._line(view)[0]

    def _line(self, view: dict[str, Any]) -> tuple[tuple[Move, ...], Game | None]:
        """The best plan from ``view`` and one of the worlds it was searched in (None when
        there was nothing to search: one legal move, or the pay-off top to play)."""
        legal: list[str] = view["legal_moves"]
        if len(legal) == 1:
            return (Move.parse(legal[0]),), None
        me: int = view["seat"]
        payoff = [Move.parse(t) for t in legal if t.startswith("p-")]
        if payoff:
            heights = {view["center"][m.target_index]["stands_for"] for m in payoff}
            if len(heights) == 1:
                return (payoff[0],), None
        rng = self.rng_for(view)
        roots = worlds(view, rng, self.samples)
        ctx = self._context(me, roots)
        _, moves = self._search(ctx, roots[0], list(range(len(roots))), self.depth, self.nodes)
        return moves, roots[0]

    def _context(self, me: int, roots: list[Game]) -> _Context:
        opp = 1 - me
        hand_size = roots[0].rules.hand_size
        counts: list[list[int]] = []
        payoffs: list[list[int]] = []
        for g in roots:
            hand = g.hands[opp]
            draw = max(0, hand_size - len(hand))
            cards = hand + (g.stock[len(g.stock) - draw :] if draw else [])
            cards += [s[-1] for s in g.sides[opp] if s]
            counts.append(rank_counts(cards))
            payoffs.append([RANK[c] for c in reversed(g.payoffs[opp][-6:])])
        return _Context(
            me=me,
            roots=roots,
            root_payoff=len(roots[0].payoffs[me]),
            opp_counts=counts,
            opp_payoff=payoffs,
            opp_size=len(roots[0].payoffs[opp]),
            budget=self.budget,
        )

    def _remember(self, game: Game, me: int, moves: tuple[Move, ...]) -> None:
        """Key the plan's later moves by the views expected before them."""
        g = game.copy()
        for i, m in enumerate(moves[:-1]):
            surprise = m.kind == PAYOFF_TO_CENTER or (
                m.kind == HAND_TO_CENTER and len(g.hands[me]) == 1
            )
            g.push_unchecked(m)
            if surprise or g.outcome is not None or g.to_move != me:
                return
            self._plan[view_digest(g.view(me))] = moves[i + 1]

    # ------------------------------------------------------------------ search

    def _search(
        self, ctx: _Context, game: Game, ids: list[int], depth: int, cap: int
    ) -> tuple[float, tuple[Move, ...]]:
        nodes, used = explore(game, max(1, min(cap, ctx.budget)))
        ctx.budget -= used
        best_value = -1e18
        best_moves: tuple[Move, ...] = ()
        chances: list[tuple[float, int]] = []
        for index, n in enumerate(nodes):
            moves = n.moves
            if n.kind == WIN:
                value = WIN_VALUE - len(moves)
            elif n.kind == OVER:
                value = PAYOFF_CARD * (ctx.root_payoff - len(n.game.payoffs[ctx.me])) - 50.0
            else:
                value, discard = self._evaluate(ctx, n.game, ids)
                if n.kind == INNER:
                    moves = (*moves, discard)
                else:
                    value += CHANCE_BONUS
                    chances.append((value, index))
            if value > best_value and moves:
                best_value, best_moves = value, moves
        if depth > 0 and chances:
            chances.sort(key=lambda c: -c[0])
            for _, index in chances[: self.continuations]:
                if ctx.budget <= 0:
                    break
                n = nodes[index]
                assert n.kind == CHANCE
                total = 0.0
                for i in ids:
                    if len(ids) == 1:
                        g = n.game
                    else:
                        g = ctx.roots[i].copy()
                        for m in n.moves:
                            g.push_unchecked(m)
                    if g.outcome is not None:
                        total += WIN_VALUE if g.outcome.winner == ctx.me else 0.0
                        continue
                    value, _ = self._search(ctx, g, [i], depth - 1, self.sub_nodes)
                    total += value
                value = total / len(ids)
                if value > best_value:
                    best_value, best_moves = value, n.moves
        return best_value, best_moves

    def _evaluate(self, ctx: _Context, game: Game, ids: list[int]) -> tuple[float, Move]:
        """The value of ending the turn here with the best discard, and that discard."""
        me = ctx.me
        heights = tuple([len(c) for c in game.center])
        threat = 0.0
        for i in ids:
            key = (i, heights)
            t = ctx.threat_memo.get(key)
            if t is None:
                run = payoff_run(heights, ctx.opp_payoff[i], ctx.opp_counts[i][:])
                t = THREAT_CARD * run + (THREAT_LOSS if run >= ctx.opp_size else 0.0)
                ctx.threat_memo[key] = t
            threat += t
        threat /= len(ids)
        hand = game.hands[me]
        sides = game.sides[me]
        side_ranks = [tuple([RANK[c] for c in s]) for s in sides]
        memo = ctx.stack_memo
        scores = []
        for ranks in side_ranks:
            s = memo.get(ranks)
            if s is None:
                s = memo[ranks] = stack_score(ranks)
            scores.append(s)
        total_scores = sum(scores)
        hand_kings = sum(1 for c in hand if RANK[c] == KING)
        base = (
            PAYOFF_CARD * (ctx.root_payoff - len(game.payoffs[me]))
            - threat
            - HAND_CARD * (len(hand) - 1)
            - SIDE_CARD * sum(len(s) for s in sides)
        )
        top = RANK[game.payoffs[me][-1]]
        counts = rank_counts(hand + [s[-1] for s in sides if s])
        best = -1e18
        best_move: Move | None = None
        reach: dict[int, int] = {}
        for m in discards(game):
            assert m.card is not None
            r = RANK[m.card]
            j = m.target_index
            old = side_ranks[j]
            new = (*old, r)
            s = memo.get(new)
            if s is None:
                s = memo[new] = stack_score(new)
            buried = old[-1] if old else 0
            lack = reach.get(buried)
            if lack is None:
                c = counts[:]
                if buried:
                    c[buried] -= 1
                rkey = (heights, top, tuple(c))
                lack = ctx.reach_memo.get(rkey)
                if lack is None:
                    lack = ctx.reach_memo[rkey] = missing_for(heights, top, c)
                reach[buried] = lack
            value = (
                base
                + total_scores
                - scores[j]
                + s
                + KING_IN_HAND * (hand_kings - (r == KING))
                - MISSING * min(lack, 5)
            )
            if value > best:
                best, best_move = value, m
        assert best_move is not None
        return best, best_move
