"""The engine's refusals in the player's language.

The engine (no Django) explains an illegal move in English and names what it speaks of in
``IllegalMove.params`` (card codes, stack names such as ``c1``, ranks). ``refusal_message``
turns its ``code`` and ``params`` into a translatable sentence, read lazily: it comes out in the
language active when the error frame or response is built. Cards are shown without words
("7♦", "10♠", "K♥"); stacks and ranks are words to translate. A code this module does not
know keeps the engine's English text.

Rules the engine refuses (``engine.RulesError``: an unknown knob, a value out of range, a deal
the deck cannot hold) read the same way through ``rules_refusal_message``, which names the knob
by its label (``KNOB_LABELS``, the labels of the rules form's fields) and gives the numbers.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from core.errors import lazy_format
from engine.cards import KING, RANKS
from engine.rules import KNOBS

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

#: A rank as a player names the top of a stack: "it stands at a Queen" uses RANK_PHRASES.
RANK_NAMES: dict[int, Promise | str] = {
    1: pgettext_lazy("card rank", "Ace"),
    11: pgettext_lazy("card rank", "Jack"),
    12: pgettext_lazy("card rank", "Queen"),
    13: pgettext_lazy("card rank", "King"),
}

#: A rank with its article, as in "needs an Ace", "needs a 7".
RANK_PHRASES: dict[int, Promise] = {
    1: pgettext_lazy("needs …", "an Ace"),
    2: pgettext_lazy("needs …", "a 2"),
    3: pgettext_lazy("needs …", "a 3"),
    4: pgettext_lazy("needs …", "a 4"),
    5: pgettext_lazy("needs …", "a 5"),
    6: pgettext_lazy("needs …", "a 6"),
    7: pgettext_lazy("needs …", "a 7"),
    8: pgettext_lazy("needs …", "an 8"),
    9: pgettext_lazy("needs …", "a 9"),
    10: pgettext_lazy("needs …", "a 10"),
    11: pgettext_lazy("needs …", "a Jack"),
    12: pgettext_lazy("needs …", "a Queen"),
    13: pgettext_lazy("needs …", "a King"),
}


def card_label(code: Any) -> str:
    """A card code as players see it: "7D" → "7♦", "TS" → "10♠"; anything else as it is."""
    if not isinstance(code, str) or len(code) != 2 or code[1] not in SUITS:
        return str(code)
    rank = "10" if code[0] == "T" else code[0]
    return rank + SUITS[code[1]]


def _number(stack: str) -> int | None:
    try:
        return int(stack[1:])
    except (TypeError, ValueError):
        return None


def stack_label(stack: Any) -> Promise | str:
    """A stack as the move names it (``p``, ``s2``, ``c1``) in words: "side stack 2"."""
    if stack == "p":
        return _("your pay-off pile")
    if isinstance(stack, str) and stack[:1] in ("s", "c"):
        number = _number(stack)
        if number is not None:
            if stack[0] == "s":
                # Translators: one of a player's own stacks, numbered from 1.
                return lazy_format(_("side stack %(number)d"), number=number)
            # Translators: one of the shared stacks in the middle, numbered from 1.
            return lazy_format(_("center stack %(number)d"), number=number)
    return str(stack)


def _rank(letter: Any) -> int | None:
    if isinstance(letter, str) and len(letter) == 1 and letter in RANKS:
        return RANKS.index(letter) + 1
    return None


def _rank_name(rank: int) -> Promise | str:
    return RANK_NAMES.get(rank, str(rank))


def _bad_notation(params: dict[str, Any], **_options: Any) -> Promise:
    return lazy_format(
        # Translators: %(text)s is what the player sent as a move; the examples are move
        # notation (pay-off, side stack, hand card to center or side stack): keep them as is.
        _('"%(text)s" is not a move: write it like p-c1, s2-c3, h:7D-c1 or h:QH-s4.'),
        text=params["text"],
    )


def _game_over(params: dict[str, Any], **_options: Any) -> Promise:
    return _("The game is over: no more moves can be played.")


def _bad_target(params: dict[str, Any], **_options: Any) -> Promise:
    stack = stack_label(params["stack"])
    if params["origin"] == "p":
        return lazy_format(
            # Translators: %(stack)s is "side stack 2" and the like.
            _("Your pay-off card cannot go on %(stack)s: only cards from your hand go there."),
            stack=stack,
        )
    return lazy_format(
        # Translators: %(origin)s and %(stack)s are "side stack 2" and the like.
        _("The top card of %(origin)s cannot go on %(stack)s: only cards from your hand go there."),
        origin=stack_label(params["origin"]),
        stack=stack,
    )


def _no_such_stack(params: dict[str, Any], **_options: Any) -> Promise:
    stack, count = params["stack"], int(params["count"])
    if stack[:1] == "s":
        message = ngettext_lazy(
            "There is no side stack %(number)d: you have %(count)d side stack.",
            "There is no side stack %(number)d: you have %(count)d side stacks.",
            "count",
        )
    else:
        message = ngettext_lazy(
            "There is no center stack %(number)d: there is %(count)d center stack.",
            "There is no center stack %(number)d: there are %(count)d center stacks.",
            "count",
        )
    number = _number(stack)
    if number is None:
        raise KeyError("stack")
    return lazy_format(message, number=number, count=count)


def _empty_stack(params: dict[str, Any], **_options: Any) -> Promise:
    number = _number(params["stack"])
    if number is None:
        raise KeyError("stack")
    return lazy_format(
        _("Side stack %(number)d is empty: there is no card to play from it."), number=number
    )


def _not_in_hand(params: dict[str, Any], **_options: Any) -> Promise:
    # Translators: %(card)s is a card such as 7♦ or K♥.
    return lazy_format(_("%(card)s is not in your hand."), card=card_label(params["card"]))


def _king_not_allowed(params: dict[str, Any], **_options: Any) -> Promise:
    return lazy_format(
        # Translators: %(card)s is a King such as K♥, %(stack)s "center stack 1" and the like.
        _(
            "%(card)s cannot start %(stack)s: under these rules an empty center stack takes "
            "only an Ace."
        ),
        card=card_label(params["card"]),
        stack=stack_label(params["stack"]),
    )


def _wrong_rank(params: dict[str, Any], *, king_on_empty: bool = False, **_options: Any) -> Promise:
    stands_for = int(params["stands_for"])
    needed = _rank(params.get("needed")) or stands_for + 1
    values = {
        "card": card_label(params["card"]),
        "stack": stack_label(params["stack"]),
        "needed": RANK_PHRASES[needed],
    }
    if stands_for == 0:
        if king_on_empty:
            # Translators: %(card)s is a card such as 7♦, %(stack)s "center stack 1" and the
            # like, %(needed)s "an Ace".
            message = _(
                "%(card)s cannot go on %(stack)s: it is empty and needs %(needed)s (or a King)."
            )
        else:
            # Translators: %(card)s is a card such as 7♦, %(stack)s "center stack 1" and the
            # like, %(needed)s "an Ace".
            message = _("%(card)s cannot go on %(stack)s: it is empty and needs %(needed)s.")
        return lazy_format(message, **values)
    if needed == KING:
        # Translators: %(card)s is a card such as 7♦, %(stack)s "center stack 1" and the like,
        # %(top)s the rank on top of that stack ("Queen"), %(needed)s "a King".
        message = _("%(card)s cannot go on %(stack)s: it stands at %(top)s and needs %(needed)s.")
    else:
        # Translators: %(card)s is a card such as 7♦, %(stack)s "center stack 1" and the like,
        # %(top)s the rank on top of that stack ("Ace", "7", "Jack"), %(needed)s the rank it
        # takes next with its article ("an 8", "a Queen").
        message = _(
            "%(card)s cannot go on %(stack)s: it stands at %(top)s and needs %(needed)s "
            "(or a King)."
        )
    return lazy_format(message, top=_rank_name(stands_for), **values)


#: Every code the engine raises (engine/moves.py, engine/game.py) → its message.
MESSAGES = {
    "bad_notation": _bad_notation,
    "game_over": _game_over,
    "bad_target": _bad_target,
    "no_such_stack": _no_such_stack,
    "empty_stack": _empty_stack,
    "not_in_hand": _not_in_hand,
    "king_not_allowed": _king_not_allowed,
    "wrong_rank": _wrong_rank,
}


def refusal_message(exc: Any, *, king_on_empty: bool = False) -> Promise | str:
    """The message for ``exc`` (an ``engine.IllegalMove``), lazy; the engine's own English
    text for a code or params this module does not know. ``king_on_empty``: the game's rule
    (an empty center stack takes a King), which the engine's params do not carry."""
    build = MESSAGES.get(getattr(exc, "code", ""))
    if build is None:
        return str(exc)
    try:
        return build(dict(getattr(exc, "params", {}) or {}), king_on_empty=king_on_empty)
    except (KeyError, TypeError, ValueError, IndexError):
        return str(exc)


# --- rules --------------------------------------------------------------------------------------

#: Each knob of the rules as players read its name: the rules form's labels, the Rules page's
#: Variants table and the rules' refusals.
KNOB_LABELS: dict[str, Promise] = {
    "payoff_size": _("Pay-off pile"),
    "hand_size": _("Hand"),
    # Translators: a rule setting: how many 52-card decks are shuffled together.
    "decks": _("Decks"),
    "side_stacks": _("Side stacks"),
    "center_stacks": _("Center stacks"),
    "king_on_empty": _("A King may start an empty center stack"),
    "refill_empty_hand": _("An empty hand draws a new hand at once"),
    "match_target": _("Points to win the match"),
}


def knob_label(knob: Any) -> Promise | str:
    """A knob's label; a name that is no knob as it was given."""
    return KNOB_LABELS.get(knob, str(knob)) if isinstance(knob, str) else str(knob)


def _unknown_knob(knob: Any, params: dict[str, Any]) -> Promise:
    return lazy_format(
        # Translators: %(knob)s is a name a program sent as a rule setting; %(knobs)s lists the
        # settings' names (API field names, kept in English).
        _("“%(knob)s” is not a knob: choose from %(knobs)s."),
        knob=knob,
        knobs=", ".join(params.get("knobs") or KNOBS),
    )


def _not_mapping(knob: Any, params: dict[str, Any]) -> Promise:
    return _("The rules must name each knob with its value.")


def _not_bool(knob: Any, params: dict[str, Any]) -> Promise:
    # Translators: %(knob)s is a rule setting's name, e.g. "A King may start an empty center stack".
    return lazy_format(_("“%(knob)s” must be yes or no."), knob=knob_label(knob))


def _not_int(knob: Any, params: dict[str, Any]) -> Promise:
    # Translators: %(knob)s is a rule setting's name, e.g. "Pay-off pile".
    return lazy_format(_("“%(knob)s” must be a whole number."), knob=knob_label(knob))


def _too_small(knob: Any, params: dict[str, Any]) -> Promise:
    return lazy_format(
        # Translators: %(knob)s is a rule setting's name, e.g. "Pay-off pile".
        _("“%(knob)s” must be at least %(minimum)d."),
        knob=knob_label(knob),
        minimum=int(params["minimum"]),
    )


def _too_large(knob: Any, params: dict[str, Any]) -> Promise:
    return lazy_format(
        # Translators: %(knob)s is a rule setting's name, e.g. "Pay-off pile".
        _("“%(knob)s” must be at most %(maximum)d."),
        knob=knob_label(knob),
        maximum=int(params["maximum"]),
    )


def _deck_too_small(knob: Any, params: dict[str, Any]) -> Promise:
    return lazy_format(
        # Translators: the deck has %(cards)d cards in all (52 per deck); dealing takes
        # %(needed)d: two pay-off piles of %(payoff_size)d cards and two hands of %(hand_size)d.
        _(
            "The deck is too small: it has %(cards)d cards, and two pay-off piles of "
            "%(payoff_size)d and two hands of %(hand_size)d need %(needed)d. Add a deck, or "
            "deal smaller piles or hands."
        ),
        cards=int(params["cards"]),
        payoff_size=int(params["payoff_size"]),
        hand_size=int(params["hand_size"]),
        needed=int(params["needed"]),
    )


#: Every code of ``engine.RulesError`` → its message.
RULES_MESSAGES = {
    "unknown": _unknown_knob,
    "not_mapping": _not_mapping,
    "not_bool": _not_bool,
    "not_int": _not_int,
    "too_small": _too_small,
    "too_large": _too_large,
    "deck_too_small": _deck_too_small,
}


def rules_refusal_message(exc: Any) -> Promise | str:
    """Why the rules were refused (``exc``, an ``engine.RulesError``), lazy, in the words of
    the reader's language: the knob by its label, with the numbers. The engine's own English
    text for a code or params this module does not know. The site's own narrower ranges (the
    rules form's) are refused with the same words: an error built with the same code, knob and
    params reads the same."""
    build = RULES_MESSAGES.get(getattr(exc, "code", ""))
    if build is None:
        return str(exc)
    try:
        return build(getattr(exc, "knob", None), dict(getattr(exc, "params", {}) or {}))
    except (KeyError, TypeError, ValueError):
        return str(exc)
