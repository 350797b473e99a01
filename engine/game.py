"""The state of one game, its legal moves, and the rules that change it.

>>> game = Game.new(seed=3)
>>> len(game.legal_moves()) > 0, game.is_over
(True, False)
>>> game.play(game.legal_moves()[0])
>>> Game.from_dict(game.to_dict()).to_dict() == game.to_dict()
True

Two paths change a game, sharing one rule implementation: ``play`` checks the
move (raising IllegalMove, the state untouched) and then calls
``push_unchecked``, which search code may call directly with moves taken from
``legal_moves()``. ``copy()`` is cheap, for search that tries moves out.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.cards import KING, ORDER, QUEEN, RANK, rank_letter, rank_name, rank_phrase
from engine.moves import (
    HAND_TO_CENTER,
    HAND_TO_SIDE,
    PAYOFF_TO_CENTER,
    PAYOFF_TO_SIDE,
    SIDE_TO_CENTER,
    SIDE_TO_SIDE,
    IllegalMove,
    Move,
)
from engine.rng import Rng
from engine.rules import Rules

PAYOFF_EMPTIED = "payoff_emptied"
STOCK_DEPLETED = "stock_depleted"
REASONS = (PAYOFF_EMPTIED, STOCK_DEPLETED)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winner`` 0 or 1 (None for a tie), the winner's ``points``,
    and the ``reason``, "payoff_emptied" or "stock_depleted"."""

    winner: int | None
    points: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "points": self.points, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: object) -> Outcome:
        if not isinstance(data, Mapping):
            raise ValueError("'outcome' must be null or an object with winner, points, reason")
        winner, points, reason = data.get("winner"), data.get("points"), data.get("reason")
        if reason not in REASONS:
            raise ValueError(f"outcome reason must be one of {', '.join(REASONS)}, not {reason!r}")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise ValueError(f"outcome points must be a non-negative integer, not {points!r}")
        if reason == STOCK_DEPLETED:
            if winner is not None or points != 0:
                raise ValueError("a game ended by a depleted stock is a tie: no winner, 0 points")
        elif winner not in (0, 1) or isinstance(winner, bool):
            raise ValueError(f"outcome winner must be 0 or 1, not {winner!r}")
        return cls(winner, points, reason)


class _Tables:
    """Every Move object a game of one shape can need, built once and shared."""

    __slots__ = ("h2c", "h2s", "p2c", "s2c")

    def __init__(self, centers: int, sides: int) -> None:
        from engine.cards import CARDS

        self.p2c = [Move(f"p-c{i + 1}") for i in range(centers)]
        self.s2c = [[Move(f"s{j + 1}-c{i + 1}") for i in range(centers)] for j in range(sides)]
        self.h2c = {c: [Move(f"h:{c}-c{i + 1}") for i in range(centers)] for c in CARDS}
        self.h2s = {c: [Move(f"h:{c}-s{j + 1}") for j in range(sides)] for c in CARDS}


@lru_cache(maxsize=64)
def _tables(centers: int, sides: int) -> _Tables:
    return _Tables(centers, sides)


def _stack(kind: str, index: int) -> str:
    return f"{kind}{index + 1}"


class Game:
    """One game of Spite & Malice between players 0 and 1.

    The state is public, plain data (lists of card codes, bottom to top):
    ``hands[p]``, ``payoffs[p]``, ``sides[p][j]``, ``center[i]``, ``stock``,
    plus ``to_move``, ``outcome``, ``ply`` (moves played), ``seed`` and ``rng``
    (the shuffler). Treat it as read-only outside the engine and search code.
    """

    __slots__ = (
        "_t",
        "center",
        "hands",
        "outcome",
        "payoffs",
        "ply",
        "rng",
        "rules",
        "seed",
        "sides",
        "stock",
        "to_move",
    )

    rules: Rules
    hands: list[list[str]]
    payoffs: list[list[str]]
    sides: list[list[list[str]]]
    center: list[list[str]]
    stock: list[str]
    to_move: int
    outcome: Outcome | None
    seed: int
    rng: Rng
    ply: int

    def __init__(
        self,
        *,
        rules: Rules,
        hands: list[list[str]],
        payoffs: list[list[str]],
        sides: list[list[list[str]]],
        center: list[list[str]],
        stock: list[str],
        to_move: int,
        seed: int = 0,
        rng: Rng | None = None,
        ply: int = 0,
        outcome: Outcome | None = None,
    ) -> None:
        """Build a game from its parts, WITHOUT any check and without copying the lists.

        For search code that deals hidden cards itself; everyone else uses
        ``Game.new`` or ``Game.from_dict``.
        """
        self.rules = rules
        self.hands = hands
        self.payoffs = payoffs
        self.sides = sides
        self.center = center
        self.stock = stock
        self.to_move = to_move
        self.seed = seed
        self.rng = rng if rng is not None else Rng(seed)
        self.ply = ply
        self.outcome = outcome
        self._t = _tables(rules.center_stacks, rules.side_stacks)

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls, seed: int | None = None, rules: Rules | None = None, first_player: int | None = None
    ) -> Game:
        """Shuffle and deal a new game.

        ``seed`` drives the deal and every later shuffle (a random 64-bit seed
        when None; it is kept in ``to_dict``). Who starts follows RULES.md (the
        higher face-up pay-off card, player 0 on equal ranks) unless
        ``first_player`` says.
        """
        if seed is None:
            seed = secrets.randbits(64)
        rules = rules if rules is not None else Rules()
        if not isinstance(rules, Rules):
            raise ValueError("rules must be a Rules")
        if first_player is not None and (
            isinstance(first_player, bool) or first_player not in (0, 1)
        ):
            raise ValueError(f"first_player must be 0, 1 or None, not {first_player!r}")
        rng = Rng(seed)
        from engine.cards import full_deck

        deck = full_deck(rules.decks)
        rng.shuffle(deck)
        p, h = rules.payoff_size, rules.hand_size
        payoffs = [deck[-p:], deck[-2 * p : -p]]
        del deck[-2 * p :]
        hands = [deck[-h:], deck[-2 * h : -h]]
        del deck[-2 * h :]
        if first_player is None:
            first_player = 1 if RANK[payoffs[1][-1]] > RANK[payoffs[0][-1]] else 0
        return cls(
            rules=rules,
            hands=hands,
            payoffs=payoffs,
            sides=[[[] for _ in range(rules.side_stacks)] for _ in range(2)],
            center=[[] for _ in range(rules.center_stacks)],
            stock=deck,
            to_move=first_player,
            seed=seed,
            rng=rng,
        )

    def copy(self) -> Game:
        """An independent copy (shuffler included); cheap enough for search."""
        g = Game.__new__(Game)
        g.rules = self.rules
        g.hands = [self.hands[0][:], self.hands[1][:]]
        g.payoffs = [self.payoffs[0][:], self.payoffs[1][:]]
        g.sides = [[s[:] for s in self.sides[0]], [s[:] for s in self.sides[1]]]
        g.center = [s[:] for s in self.center]
        g.stock = self.stock[:]
        g.to_move = self.to_move
        g.seed = self.seed
        g.rng = self.rng.copy()
        g.ply = self.ply
        g.outcome = self.outcome
        g._t = self._t
        return g

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def stands_for(self, stack: int) -> int:
        """The rank center stack ``stack`` (from 0) stands at: its card count."""
        return len(self.center[stack])

    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make, each once, in canonical order
        (pay-off, side stacks, then hand cards by rank and suit; center before side)."""
        if self.outcome is not None:
            return []
        p = self.to_move
        t = self._t
        kings: list[int] = []
        by_rank: dict[int, list[int]] = {}
        king_on_empty = self.rules.king_on_empty
        for i, stack in enumerate(self.center):
            n = len(stack)
            by_rank.setdefault(n + 1, []).append(i)
            if n or king_on_empty:
                kings.append(i)
        none: list[int] = []
        moves: list[Move] = []
        append = moves.append
        rank = RANK[self.payoffs[p][-1]]
        for i in kings if rank == KING else by_rank.get(rank, none):
            append(t.p2c[i])
        for j, side in enumerate(self.sides[p]):
            if side:
                rank = RANK[side[-1]]
                row = t.s2c[j]
                for i in kings if rank == KING else by_rank.get(rank, none):
                    append(row[i])
        hand = self.hands[p]
        cards = sorted(set(hand), key=ORDER.__getitem__) if len(hand) > 1 else hand
        for card in cards:
            rank = RANK[card]
            row = t.h2c[card]
            for i in kings if rank == KING else by_rank.get(rank, none):
                append(row[i])
            moves.extend(t.h2s[card])
        return moves

    def check(self, move: Move | str) -> Move:
        """The move, parsed, if the player to move may make it; else IllegalMove."""
        m = move if isinstance(move, Move) else Move.parse(move)
        if self.outcome is not None:
            raise IllegalMove("game_over", "the game is over: no more moves can be played")
        p = self.to_move
        kind = m.kind
        rules = self.rules
        if kind in (PAYOFF_TO_SIDE, SIDE_TO_SIDE):
            what = "your pay-off card" if kind == PAYOFF_TO_SIDE else "a side-stack card"
            raise IllegalMove(
                "bad_target",
                f"{what} cannot go on a side stack: only cards from your hand go there",
                origin=m.source_name,
                stack=m.target_name,
            )
        if kind == SIDE_TO_CENTER and m.origin_index >= rules.side_stacks:
            raise self._no_such_stack("s", m.origin_index, rules.side_stacks)
        if kind == HAND_TO_SIDE:
            if m.target_index >= rules.side_stacks:
                raise self._no_such_stack("s", m.target_index, rules.side_stacks)
        elif m.target_index >= rules.center_stacks:
            raise self._no_such_stack("c", m.target_index, rules.center_stacks)
        if kind == PAYOFF_TO_CENTER:
            card = self.payoffs[p][-1]
        elif kind == SIDE_TO_CENTER:
            side = self.sides[p][m.origin_index]
            if not side:
                name = _stack("s", m.origin_index)
                raise IllegalMove(
                    "empty_stack",
                    f"side stack {m.origin_index + 1} is empty: there is no card to play from it",
                    stack=name,
                )
            card = side[-1]
        else:
            assert m.card is not None
            card = m.card
            if card not in self.hands[p]:
                raise IllegalMove("not_in_hand", f"{card} is not in your hand", card=card)
            if kind == HAND_TO_SIDE:
                return m
        self._check_center(card, m.target_index)
        return m

    def _no_such_stack(self, kind: str, index: int, count: int) -> IllegalMove:
        noun = "center" if kind == "c" else "side"
        return IllegalMove(
            "no_such_stack",
            f"there is no {noun} stack {index + 1}: the {noun} stacks are {kind}1 to {kind}{count}",
            stack=_stack(kind, index),
            count=count,
        )

    def _check_center(self, card: str, index: int) -> None:
        n = len(self.center[index])
        rank = RANK[card]
        if rank == n + 1:
            return
        stack = _stack("c", index)
        if rank == KING:
            if n:
                return
            if self.rules.king_on_empty:
                return
            raise IllegalMove(
                "king_not_allowed",
                f"{card} cannot start center stack {index + 1}: under these rules an empty "
                "center stack takes only an Ace",
                card=card,
                stack=stack,
            )
        where = "it is empty" if n == 0 else f"it stands at {rank_name(n)}"
        king = " (or a King)" if n or self.rules.king_on_empty else ""
        raise IllegalMove(
            "wrong_rank",
            f"{card} cannot go on center stack {index + 1}: {where} and needs "
            f"{rank_phrase(n + 1)}{king}",
            card=card,
            stack=stack,
            stands_for=n,
            needed=rank_letter(n + 1),
        )

    # ------------------------------------------------------------------ changes

    def play(self, move: Move | str) -> None:
        """Make ``move`` (a Move or its text) for the player to move.

        Raises IllegalMove (with ``code``, ``params`` and a message) and changes
        nothing when the move is not well formed or not allowed.
        """
        self.push_unchecked(self.check(move))

    def push_unchecked(self, move: Move) -> None:
        """Make ``move`` WITHOUT checking it: the fast path for search.

        ``move`` must come from ``legal_moves()`` (or have passed ``check``);
        anything else leaves the state undefined.
        """
        p = self.to_move
        kind = move.kind
        self.ply += 1
        if kind == HAND_TO_SIDE:
            card = move.card
            assert card is not None
            self.hands[p].remove(card)
            self.sides[p][move.target_index].append(card)
            self._end_turn()
            return
        if kind == PAYOFF_TO_CENTER:
            card = self.payoffs[p].pop()
        elif kind == SIDE_TO_CENTER:
            card = self.sides[p][move.origin_index].pop()
        else:
            card = move.card
            assert card is not None
            self.hands[p].remove(card)
        stack = self.center[move.target_index]
        stack.append(card)
        if len(stack) == QUEEN:
            self.stock.extend(stack)
            stack.clear()
            self.rng.shuffle(self.stock)
        if kind == PAYOFF_TO_CENTER:
            if not self.payoffs[p]:
                self.outcome = Outcome(p, len(self.payoffs[1 - p]), PAYOFF_EMPTIED)
        elif kind == HAND_TO_CENTER and not self.hands[p]:
            if self.rules.refill_empty_hand:
                self._draw(p)
            else:
                self._end_turn()

    def _end_turn(self) -> None:
        self.to_move = p = 1 - self.to_move
        self._draw(p)

    def _draw(self, p: int) -> None:
        """Draw one card at a time up to a full hand; a card owed from an empty stock is a tie."""
        hand = self.hands[p]
        stock = self.stock
        for _ in range(self.rules.hand_size - len(hand)):
            if not stock:
                self.outcome = Outcome(None, 0, STOCK_DEPLETED)
                return
            hand.append(stock.pop())

    # ------------------------------------------------------------------ data

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data (see ENGINE.md, "State data")."""
        return {
            "to_move": self.to_move,
            "players": [
                {
                    "hand": self.hands[p][:],
                    "payoff": self.payoffs[p][:],
                    "sides": [s[:] for s in self.sides[p]],
                }
                for p in (0, 1)
            ],
            "center": [s[:] for s in self.center],
            "stock": self.stock[:],
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "rng": self.rng.state,
            "ply": self.ply,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """A game from ``to_dict`` data or the minimal form of ENGINE.md; ValueError if invalid.

        Keys this engine does not know are ignored.
        """
        from engine.state import parse_state

        return parse_state(cls, data)

    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` (0 or 1; None for a spectator) may see, as JSON-able data."""
        from engine.views import build_view

        return build_view(self, player)

    @classmethod
    def from_view(cls, view: Mapping[str, Any], seed: int = 0) -> Game:
        """A game consistent with ``view``: the cards the viewer cannot see are dealt
        at random (seeded) from the cards the view does not show. For search."""
        from engine.views import sample_game

        return sample_game(view, seed)

    def __repr__(self) -> str:
        state = "over" if self.outcome is not None else f"to_move={self.to_move}"
        return f"<Game seed={self.seed} ply={self.ply} {state}>"
