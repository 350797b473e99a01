"""The expert as a teacher: hints with a reason, win-chance estimates, and game reviews.

Everything here reads a player's view and nothing else, as the bots do (docs/bots.md): a hint
is the expert's ``plan`` for the view; an estimate plays sampled worlds consistent with the
view to their end; a review walks a finished game and asks both at every move of the players
it reviews, from their view at the time. Budgets are counts (the expert's worlds and states,
playouts), never seconds, so every answer is the same for the same view, options and seed.

Reasons are message keys with parameters (``Reason``), never sentences: the site translates
them (``games/reasons.py``). Cards are codes ("7D"), ranks numbers (1 Ace … 13 King), stacks
numbers counted from 1.

>>> from engine import Game
>>> game = Game.from_dict({
...     "to_move": 0,
...     "players": [
...         {"hand": ["9S", "JD"], "payoff": ["4C", "3H"], "sides": [[], [], [], []]},
...         {"hand": ["2C"], "payoff": ["QD"], "sides": [[], [], [], []]},
...     ],
...     "center": [["AH", "2S"], [], []],
...     "stock": ["5D", "QC", "6H", "8S", "TD"],
... })
>>> advice = hint(game.view(0), samples=4)
>>> str(advice.move), advice.reason
('p-c1', Reason(key='payoff_top', params={'left': 1}))
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.bots.base import Bot, bot, view_digest
from engine.bots.expert import ExpertBot
from engine.bots.planning import feeds
from engine.cards import KING, QUEEN, RANK
from engine.game import Game
from engine.moves import (
    HAND_TO_CENTER,
    HAND_TO_SIDE,
    PAYOFF_TO_CENTER,
    SIDE_TO_CENTER,
    Move,
)
from engine.rng import Rng

#: A rollout that has not ended after this many plies counts as a tie (greedy games end long
#: before: about 190 plies for a whole game of the house rules).
ROLLOUT_PLIES = 1000
#: A turn whose moves lost at least this much of the player's winning chances (the expert's
#: estimate, 0 to 1) is marked: a mistake, or from ``BLUNDER`` on a blunder.
MISTAKE = 0.08
BLUNDER = 0.2


@dataclass(frozen=True)
class Reason:
    """Why, as a message key and what the message names (cards, ranks, counts, stacks)."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Reason | None:
        return None if data is None else cls(str(data["key"]), dict(data.get("params") or {}))


# --- reasons ----------------------------------------------------------------------------------


def _card_of(view: Mapping[str, Any], move: Move) -> str:
    """The card ``move`` takes, as the mover sees it."""
    mine = view["players"][view["seat"]]
    if move.kind in (PAYOFF_TO_CENTER,):
        return str(mine["payoff_top"])
    if move.card is not None:
        return move.card
    return str(mine["sides"][move.origin_index][-1])


def _stands_after(view: Mapping[str, Any], move: Move) -> int:
    """What the center stack ``move`` plays to stands for afterwards (a King: one more)."""
    return int(view["center"][move.target_index]["stands_for"]) + 1


def _feeds(view: Mapping[str, Any], move: Move) -> bool:
    """Whether ``move`` leaves a center stack just below the opponent's pay-off top, where
    no stack stood before: they could play it next turn (``planning.feeds``)."""
    heights = [int(c["stands_for"]) for c in view["center"]]
    return feeds(heights, view["players"][1 - view["seat"]]["payoff_top"], move)


def explain(view: Mapping[str, Any], line: Sequence[Move]) -> Reason | None:
    """Why the expert plays ``line[0]`` from ``view``, where ``line`` is its plan
    (``ExpertBot.plan``); None when no short reason says it better than the move itself."""
    me = view["seat"]
    mine = view["players"][me]
    first = line[0]
    card = _card_of(view, first)
    if first.kind == PAYOFF_TO_CENTER:
        left = int(mine["payoff_size"]) - 1
        return Reason("wins") if left == 0 else Reason("payoff_top", {"left": left})
    if first.target == "center":
        if any(m.kind == PAYOFF_TO_CENTER for m in line[1:]):
            top = str(mine["payoff_top"])
            if RANK[card] == KING:
                return Reason("king_for_payoff", {"rank": _stands_after(view, first), "top": top})
            return Reason("opens_payoff", {"top": top})
        if _stands_after(view, first) == QUEEN:
            return Reason("completes_stack", {"stack": first.target_index + 1})
        hand = mine["hand"] or []
        if first.kind == HAND_TO_CENTER and len(hand) == 1:
            return Reason("refill")
        hand_plays = sum(1 for m in line if m.kind == HAND_TO_CENTER)
        if hand and hand_plays == len(hand):
            return Reason("plays_out_hand")
        if first.kind == SIDE_TO_CENTER:
            return Reason("frees_side", {"stack": first.origin_index + 1})
        return None
    # a discard: it ends the turn
    held = sorted(
        {_card_of(view, Move.parse(t)) for t in view["legal_moves"] if _feeds(view, Move.parse(t))},
        key=lambda c: RANK[c],
    )
    opponent_top = view["players"][1 - me]["payoff_top"]
    if held:
        return Reason("holds_back", {"card": held[0], "top": opponent_top})
    side = mine["sides"][first.target_index]
    if first.kind == HAND_TO_SIDE and side and RANK[side[-1]] == RANK[card] + 1:
        return Reason("discard_run", {"card": card, "onto": side[-1]})
    if first.kind == HAND_TO_SIDE and not side:
        return Reason("discard_empty", {"card": card, "stack": first.target_index + 1})
    return None


def warn(view: Mapping[str, Any], move: Move) -> Reason | None:
    """What a player's ``move`` gave away, when the expert can say it in a line."""
    if _feeds(view, move):
        return Reason("feeds_opponent", {"top": view["players"][1 - view["seat"]]["payoff_top"]})
    mine = view["players"][view["seat"]]
    payoff_plays = [t for t in view["legal_moves"] if t.startswith("p-")]
    if move.target == "side" and payoff_plays:
        return Reason("missed_payoff", {"top": mine["payoff_top"]})
    return None


def line_cards(view: Mapping[str, Any], line: Sequence[Move]) -> tuple[str, ...]:
    """The card each move of ``line`` (a plan from ``view``) takes: the player sees them all,
    since a plan stops at the first card it cannot foresee."""
    game = Game.from_view(view, 0)
    seat = view["seat"]
    cards = []
    for move in line:
        if move.kind == PAYOFF_TO_CENTER:
            cards.append(game.payoffs[seat][-1])
        elif move.card is not None:
            cards.append(move.card)
        else:
            cards.append(game.sides[seat][move.origin_index][-1])
        game.play(move)
    return tuple(cards)


# --- hints ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """The expert's move for a view, the plan it starts, and why."""

    move: Move
    line: tuple[Move, ...]
    reason: Reason | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move.text,
            "line": [m.text for m in self.line],
            "reason": None if self.reason is None else self.reason.to_dict(),
        }


def hint(view: Mapping[str, Any], *, seed: int = 0, **options: Any) -> Hint:
    """What ``bot("expert", seed, **options).choose`` plays from ``view``, with its plan and
    the reason. ValueError when the viewer is not to move."""
    line = ExpertBot(seed, **options).plan(dict(view))
    return Hint(line[0], line, explain(view, line))


# --- estimates --------------------------------------------------------------------------------


#: How a rollout plays both seats: "careful" is the greedy bot that never leaves a center
#: stack just below the opponent's pay-off top (so holding a card back shows its worth).
POLICIES: dict[str, Callable[[int], Bot]] = {
    "careful": lambda seed: bot("greedy", seed, careful=True),
    "greedy": lambda seed: bot("greedy", seed),
    "random": lambda seed: bot("random", seed),
}


def _roll_out(game: Game, seed: int, policy: str = "careful") -> Game:
    """Play ``game`` to its end with the ``policy`` bot in both seats."""
    make = POLICIES[policy]
    bots = (make(seed), make(seed + 1))
    for _ in range(ROLLOUT_PLIES):
        if game.outcome is not None:
            break
        game.push_unchecked(bots[game.to_move].choose(game, game.to_move))
    return game


def _score(game: Game, seat: int) -> float:
    outcome = game.outcome
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == seat else 0.0


def _outcomes(
    view: Mapping[str, Any],
    lines: Sequence[Sequence[Move]],
    playouts: int,
    seed: int,
    policy: str,
) -> list[list[float]]:
    """Each line's score (1 a win, 0.5 a tie, 0 a loss) in each of ``playouts`` worlds."""
    if isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1:
        raise ValueError(f"playouts must be a positive integer, not {playouts!r}")
    seat = view["seat"]
    digest = hashlib.sha256(seed.to_bytes(8, "big") + view_digest(dict(view))).digest()
    rng = Rng(int.from_bytes(digest[:8], "big"))
    scores: list[list[float]] = [[] for _ in lines]
    for _ in range(playouts):
        world = Game.from_view(view, rng.next64())
        roll_seed = rng.below(1 << 30)
        for i, line in enumerate(lines):
            game = world.copy()
            for move in line:
                game.play(move)
            scores[i].append(_score(_roll_out(game, roll_seed, policy), seat))
    return scores


def chances(
    view: Mapping[str, Any],
    lines: Sequence[Sequence[Move]],
    *,
    playouts: int,
    seed: int = 0,
    policy: str = "careful",
) -> list[float]:
    """The viewer's chance of winning (a tie counts a half) after each of ``lines``, moves
    legal from ``view`` in turn, estimated over ``playouts`` worlds consistent with the view,
    each played to its end by the ``policy`` (``POLICIES``) in both seats (random playouts
    mostly end in a tie when the stock runs out, and tell little apart). Every line meets
    the same worlds and the same rollout seeds (common random numbers), so their difference
    is what the lines change, not luck."""
    return [sum(s) / playouts for s in _outcomes(view, lines, playouts, seed, policy)]


@dataclass(frozen=True)
class Comparison:
    """Two moves from one view: each one's winning chance, and the standard error of their
    difference (over the same worlds, so the error is the paired one)."""

    first: float
    second: float
    error: float

    @property
    def difference(self) -> float:
        return self.first - self.second


def compare(
    view: Mapping[str, Any], first: Move, second: Move, *, playouts: int, seed: int = 0
) -> Comparison:
    """``chances`` of two moves, with the standard error of their difference."""
    a, b = _outcomes(view, [[first], [second]], playouts, seed, "careful")
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / playouts
    var = sum((d - mean) ** 2 for d in diffs) / (playouts - 1) if playouts > 1 else 0.0
    return Comparison(sum(a) / playouts, sum(b) / playouts, math.sqrt(var / playouts))


# --- reviews ----------------------------------------------------------------------------------


def _shape(game: Game, seat: int) -> tuple[object, ...]:
    """What a position is to its player, up to the suits and the order of equal stacks."""
    return (
        game.to_move,
        game.outcome is not None,
        tuple(sorted(RANK[c] for c in game.hands[seat])),
        tuple(sorted(tuple(RANK[c] for c in s) for s in game.sides[seat])),
        tuple(sorted(len(c) for c in game.center)),
        len(game.payoffs[seat]),
    )


def same_effect(view: Mapping[str, Any], a: Move, b: Move) -> bool:
    """Whether two legal moves leave the same position as far as the game goes: the same
    card rank to center stacks of equal height, equal discards onto equal stacks."""
    if a == b:
        return True
    world = Game.from_view(view, 0)
    after_a, after_b = world.copy(), world.copy()
    after_a.play(a)
    after_b.play(b)
    return _shape(after_a, view["seat"]) == _shape(after_b, view["seat"])


@dataclass(frozen=True)
class Decision:
    """One move of a reviewed player: what they played, what the expert would have, and the
    estimate of both when they differ (``chances``: the expert's move's, the played move's,
    ``error`` the standard error of their difference; None when they agree, or when the
    turn's playouts were spent)."""

    ply: int
    played: str
    best: str
    line: tuple[str, ...]
    agrees: bool
    #: The card the played move took, and the card each move of ``line`` takes (all in sight).
    played_card: str = ""
    line_cards: tuple[str, ...] = ()
    chances: tuple[float, float] | None = None
    error: float = 0.0
    reason: Reason | None = None
    warning: Reason | None = None

    @property
    def loss(self) -> float:
        """What the played move cost by the estimate (negative: it did better)."""
        return 0.0 if self.chances is None else self.chances[0] - self.chances[1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "played": self.played,
            "best": self.best,
            "line": list(self.line),
            "agrees": self.agrees,
            "played_card": self.played_card,
            "line_cards": list(self.line_cards),
            "chances": None if self.chances is None else [round(c, 4) for c in self.chances],
            "error": round(self.error, 4),
            "reason": None if self.reason is None else self.reason.to_dict(),
            "warning": None if self.warning is None else self.warning.to_dict(),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Decision:
        c = d.get("chances")
        return cls(
            ply=int(d["ply"]),
            played=str(d["played"]),
            best=str(d["best"]),
            line=tuple(d["line"]),
            agrees=bool(d["agrees"]),
            played_card=str(d.get("played_card", "")),
            line_cards=tuple(d.get("line_cards", ())),
            chances=None if c is None else (float(c[0]), float(c[1])),
            error=float(d.get("error", 0.0)),
            reason=Reason.from_dict(d.get("reason")),
            warning=Reason.from_dict(d.get("warning")),
        )


@dataclass(frozen=True)
class Turn:
    """A reviewed turn: its player, its decisions (forced moves left out), what it cost."""

    seat: int
    first_ply: int
    last_ply: int
    decisions: tuple[Decision, ...]

    @property
    def loss(self) -> float:
        """The winning chances the turn's moves lost against the expert's (0 to 1)."""
        return max(0.0, sum(d.loss for d in self.decisions))

    @property
    def error(self) -> float:
        """The standard error of ``loss``."""
        return math.sqrt(sum(d.error**2 for d in self.decisions))

    @property
    def mark(self) -> str | None:
        """ "blunder", "mistake" or None: a turn is marked when its loss is large and clear
        (at least two standard errors), so the playouts' luck alone marks nothing."""
        loss = self.loss
        if loss < MISTAKE or loss < 2 * self.error:
            return None
        return "blunder" if loss >= BLUNDER else "mistake"

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "first_ply": self.first_ply,
            "last_ply": self.last_ply,
            "loss": round(self.loss, 4),
            "error": round(self.error, 4),
            "mark": self.mark,
            "decisions": [d.to_dict() for d in self.decisions],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Turn:
        return cls(
            seat=int(d["seat"]),
            first_ply=int(d["first_ply"]),
            last_ply=int(d["last_ply"]),
            decisions=tuple(Decision.from_dict(x) for x in d["decisions"]),
        )


@dataclass(frozen=True)
class Review:
    """A game's review: its reviewed turns and the budget it was made with."""

    seats: tuple[int, ...]
    turns: tuple[Turn, ...]
    playouts_per_turn: int

    def accuracy(self, seat: int) -> float | None:
        """How often ``seat`` chose as the expert would have, 0 to 1 (None: no decision)."""
        decisions = [d for t in self.turns if t.seat == seat for d in t.decisions]
        if not decisions:
            return None
        return sum(1 for d in decisions if d.agrees) / len(decisions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": 1,
            "seats": list(self.seats),
            "playouts_per_turn": self.playouts_per_turn,
            "accuracy": {str(s): self.accuracy(s) for s in self.seats},
            "turns": [t.to_dict() for t in self.turns],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Review:
        return cls(
            seats=tuple(int(s) for s in d["seats"]),
            turns=tuple(Turn.from_dict(t) for t in d["turns"]),
            playouts_per_turn=int(d["playouts_per_turn"]),
        )


def _review_turn(
    views: list[tuple[int, dict[str, Any], Move]],
    *,
    playouts_per_turn: int,
    seed: int,
    expert: Mapping[str, Any],
    pace: Callable[[], None] | None = None,
) -> tuple[Decision, ...]:
    """The decisions of one turn: ``views`` holds each move's ply, the mover's view before it
    and the move. The estimates share ``playouts_per_turn``: each disagreement gets an equal
    part (both of its moves meet those worlds), in order, while the budget lasts."""
    found = []
    for ply, view, played in views:
        if len(view["legal_moves"]) < 2:
            continue  # forced: no choice to review
        line = ExpertBot(seed, **expert).plan(view)
        agrees = same_effect(view, line[0], played)
        found.append((ply, view, played, line, agrees))
        if pace is not None:
            pace()
    differ = sum(1 for *_, agrees in found if not agrees)
    each = max(2, playouts_per_turn // (2 * differ)) if differ else 0
    budget = playouts_per_turn
    out = []
    for ply, view, played, line, agrees in found:
        estimate, error = None, 0.0
        if not agrees and budget >= 2 * each:
            budget -= 2 * each
            found_out = compare(view, line[0], played, playouts=each, seed=seed)
            estimate, error = (found_out.first, found_out.second), found_out.error
            if pace is not None:
                pace()
        out.append(
            Decision(
                ply=ply,
                played=played.text,
                best=line[0].text,
                line=tuple(m.text for m in line),
                agrees=agrees,
                played_card=_card_of(view, played),
                line_cards=line_cards(view, line),
                chances=estimate,
                error=error,
                reason=None if agrees else explain(view, line),
                warning=None if agrees else warn(view, played),
            )
        )
    return tuple(out)


def review_turns(
    start: Game,
    moves: Sequence[Move | str],
    *,
    seats: Sequence[int] = (0, 1),
    playouts_per_turn: int = 64,
    seed: int = 0,
    expert: Mapping[str, Any] | None = None,
    skip: int = 0,
    pace: Callable[[], None] | None = None,
) -> Iterator[Turn]:
    """The turns of ``review``, one at a time, the first ``skip`` of them left out (replayed,
    not reviewed again: a review that stopped resumes after the turns it kept). ``pace`` is
    called after each piece of work (a choice, an estimate): a caller that must share the
    machine may wait there."""
    game = start.copy()
    options = dict(expert or {})
    current: list[tuple[int, dict[str, Any], Move]] = []
    seen = 0

    def close() -> Turn | None:
        nonlocal seen
        if not current:
            return None
        seen += 1
        if seen <= skip:
            current.clear()
            return None
        seat = current[0][1]["seat"]
        decisions = _review_turn(
            current, playouts_per_turn=playouts_per_turn, seed=seed, expert=options, pace=pace
        )
        turn = Turn(seat, current[0][0], current[-1][0], decisions)
        current.clear()
        return turn

    for ply, text in enumerate(moves):
        move = Move.parse(text) if isinstance(text, str) else text
        mover = game.to_move
        if current and current[0][1]["seat"] != mover and (turn := close()) is not None:
            yield turn
        if mover in seats:
            current.append((ply, game.view(mover), move))
        game.play(move)
    if (turn := close()) is not None:
        yield turn


def review(
    start: Game,
    moves: Sequence[Move | str],
    *,
    seats: Sequence[int] = (0, 1),
    playouts_per_turn: int = 64,
    seed: int = 0,
    expert: Mapping[str, Any] | None = None,
) -> Review:
    """Review ``moves`` (the moves in force, in order) played from ``start`` (the deal): every
    turn of each player in ``seats``, from that player's view before each move.
    ``playouts_per_turn`` bounds a turn's estimates; ``expert`` holds the expert's options."""
    turns = review_turns(
        start, moves, seats=seats, playouts_per_turn=playouts_per_turn, seed=seed, expert=expert
    )
    return Review(tuple(seats), tuple(turns), playouts_per_turn)
