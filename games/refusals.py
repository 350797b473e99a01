"""The engine's refusals in the player's language.

The engine (no Django) explains an illegal move in English and names what it speaks of in
``IllegalMove.params`` (card codes, stack names such as ``c1``, ranks). ``refusal_message``
turns its ``code`` and ``params`` into a translatable sentence, read lazily: it comes out in the
language active when the error frame or response is built. Cards are shown without words
("7♦", "10♠", "K♥"); stacks and ranks are words to translate. A code this module does not
know keeps the engine's English text.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from core.errors import lazy_format
from engine.cards import KING, RANKS

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
