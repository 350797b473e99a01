"""The lesson: a handful of steps, each a position built with the engine (``Game.from_dict``) and
one thing to do there.

A step's ``shows`` are the moves the board makes glow, one after the other (what to click);
its ``judge`` reads each legal move the player makes and says whether it does the step
(``DONE``), goes toward it (``ON``: the move is kept and the next one shown) or is not the
point (``NUDGE``: the move is not kept, and a kind word says why). An illegal move never
reaches the judge: the engine refuses it and says why (``games.refusals``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine
from engine.bots.planning import feeds
from engine.cards import RANK
from engine.moves import PAYOFF_TO_CENTER, Move

DONE, ON, NUDGE = "done", "on", "nudge"


@dataclass(frozen=True)
class Verdict:
    kind: str
    words: Promise | None = None


@dataclass(frozen=True)
class Step:
    slug: str
    title: Promise
    goal: Promise
    why: Promise
    praise: Promise
    state: dict[str, Any]
    shows: tuple[str, ...]
    judge: Callable[[engine.Game, Move, engine.Game], Verdict]

    def start(self) -> engine.Game:
        return engine.Game.from_dict(self.state)


def _state(
    hand: list[str],
    payoff: list[str],
    *,
    sides: list[list[str]] | None = None,
    center: list[list[str]] | None = None,
    their_payoff: list[str] | None = None,
) -> dict[str, Any]:
    """A position for the learner (seat 0, to move) against an opponent holding five cards."""
    return {
        "to_move": 0,
        "players": [
            {
                "hand": hand,
                "payoff": payoff,
                "sides": (sides or []) + [[]] * (4 - len(sides or [])),
            },
            {
                "hand": ["4S", "9H", "JS", "2S", "8D"],
                "payoff": their_payoff or ["QH", "KH", "TS", "JH", "9C", "5D"],
                "sides": [["QS"], [], [], []],
            },
        ],
        "center": (center or []) + [[]] * (3 - len(center or [])),
        "stock": ["3D", "7C", "TH", "5S", "8H", "6C", "2C", "JD", "4H", "9S", "AD", "QC"],
        "seed": 11,
    }


DISCARD_ENDS = _(
    "A card put on a side stack ends your turn. First play what you can to the center."
)


def _payoff(before: engine.Game, move: Move, after: engine.Game) -> Verdict:
    if move.kind == PAYOFF_TO_CENTER:
        return Verdict(DONE)
    return Verdict(
        NUDGE,
        _(
            "That move is allowed, but your pay-off pile is how you win: play its top card, "
            "the glowing one, first."
        ),
    )


def _build(before: engine.Game, move: Move, after: engine.Game) -> Verdict:
    if move.target == "side":
        return Verdict(NUDGE, DISCARD_ENDS)
    if max(after.stands_for(i) for i in range(len(after.center))) >= 3:
        return Verdict(DONE)
    return Verdict(ON, _("Good. Now the next card up, on the same stack."))


KING_AS_FOUR = _(
    "A King can stand for any card. Here it should be the 4 on center stack 1, so your 5 fits next."
)


def _king(before: engine.Game, move: Move, after: engine.Game) -> Verdict:
    if move.kind == PAYOFF_TO_CENTER:
        return Verdict(DONE)
    if move.target == "side":
        return Verdict(NUDGE, DISCARD_ENDS)
    if move.card is not None and RANK[move.card] == 13 and after.stands_for(0) == 4:
        return Verdict(ON, _("The King stands for the 4. Now your 5 fits on it."))
    return Verdict(NUDGE, KING_AS_FOUR)


def _discard(before: engine.Game, move: Move, after: engine.Game) -> Verdict:
    return Verdict(DONE) if move.target == "side" else Verdict(NUDGE, DISCARD_ENDS)


def _complete(before: engine.Game, move: Move, after: engine.Game) -> Verdict:
    if move.target == "center" and before.stands_for(move.target_index) == 11:
        return Verdict(DONE)
    if move.target == "side":
        return Verdict(NUDGE, DISCARD_ENDS)
    return Verdict(NUDGE, _("Center stack 1 needs only its Queen."))


def _feeds(game: engine.Game, move: Move) -> bool:
    """Whether ``move`` leaves a center stack just below the opponent's pay-off top (the rule
    the expert's reasons and careful rollouts use)."""
    return feeds([len(c) for c in game.center], game.payoffs[1][-1], move)


def _keep(before: engine.Game, move: Move, after: engine.Game) -> Verdict:
    if _feeds(before, move):
        return Verdict(
            NUDGE,
            _(
                "Careful: with that stack at 6, your opponent plays their 7 of hearts, their "
                "last pay-off card, and wins. Keep your 6."
            ),
        )
    if move.target == "side":
        return Verdict(DONE)
    return Verdict(ON)


STEPS: tuple[Step, ...] = (
    Step(
        slug="payoff",
        title=_("Play your pay-off top"),
        goal=_(
            "Play the top card of your pay-off pile, the 3, onto center stack 1 (it stands at 2)."
        ),
        why=_("The first player to empty their pay-off pile wins the game."),
        praise=_("Well done! One card fewer to win, and the next card of the pile turns up."),
        state=_state(
            ["9S", "JD", "8C", "QH", "8D"], ["7D", "5C", "4H", "3H"], center=[["AS", "2D"]]
        ),
        shows=("p-c1",),
        judge=_payoff,
    ),
    Step(
        slug="build",
        title=_("Build a center stack"),
        goal=_("Start a center stack with your Ace, then play the 2 and the 3 on it."),
        why=_("Center stacks are shared, start with an Ace and go up in order to the Queen."),
        praise=_("That is how the center grows. Your pay-off cards will need those stacks."),
        state=_state(["AC", "2H", "3S", "9D", "JC"], ["8S", "7S"]),
        shows=("h:AC-c1", "h:2H-c1", "h:3S-c1"),
        judge=_build,
    ),
    Step(
        slug="king",
        title=_("Use a King"),
        goal=_("Play your King on center stack 1 as the 4, then your pay-off top, the 5."),
        why=_("Kings are wild: a King stands for the card the stack needs."),
        praise=_("A King well spent: it opened the way to your pay-off top."),
        state=_state(["KS", "9D", "JC", "QD", "7S"], ["8H", "5H"], center=[["AD", "2C", "3H"]]),
        shows=("h:KS-c1", "p-c1"),
        judge=_king,
    ),
    Step(
        slug="discard",
        title=_("End your turn with a discard"),
        goal=_("Nothing fits the center: put the 9 on your side stack, on the 10."),
        why=_(
            "A card put on one of your side stacks ends your turn. Side stacks that go down "
            "(a 9 on a 10) play back in order later."
        ),
        praise=_("Your turn is over. Next turn you draw up to five cards again."),
        state=_state(["9S", "7D", "5C", "JH", "QS"], ["4C", "8H"], sides=[["TD"]]),
        shows=("h:9S-s1",),
        judge=_discard,
    ),
    Step(
        slug="complete",
        title=_("Complete a stack"),
        goal=_("Center stack 1 stands at the Jack: play your Queen on it."),
        why=_("A stack that reaches the Queen is complete: its cards go back into the stock."),
        praise=_(
            "Complete! Its twelve cards were shuffled into the stock, and the place is free again."
        ),
        state=_state(
            ["QC", "4D", "6S", "8C", "2H"],
            ["7H", "9D"],
            center=[["AS", "2D", "3C", "4S", "5H", "6D", "7S", "8D", "9C", "TS", "JC"]],
        ),
        shows=("h:QC-c1",),
        judge=_complete,
    ),
    Step(
        slug="keep",
        title=_("Keep a card from your opponent"),
        goal=_(
            "Your opponent's last pay-off card is the 7 of hearts, and center stack 1 stands "
            "at 5. Keep your 6: end your turn with a discard."
        ),
        why=_("Watch your opponent's pay-off top: never build a stack up to the card below it."),
        praise=_("Well kept: your opponent cannot reach their 7 from the center."),
        state=_state(
            ["6S", "9D", "JC", "2H", "TD"],
            ["QC", "8C"],
            center=[["AH", "2S", "3D", "4C", "5H"]],
            their_payoff=["7H"],
        ),
        shows=("h:9D-s1",),
        judge=_keep,
    ),
)

BY_SLUG = {step.slug: step for step in STEPS}
