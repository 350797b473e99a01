"""The expert's reasons in the reader's language.

``engine.coach`` explains a hint or a review mark with a message key and what it names (card
codes, ranks as numbers, stack numbers, counts): ``{"key": "payoff_top", "params": {"left":
2}}``. ``reason_text`` turns that into a sentence of the active language, the way
``games.refusals`` does for the engine's refusals. A key this module does not know gives None
(the hint or mark is shown without a reason), never a made-up sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.refusals import RANK_PHRASES, card_label


def _left(params: Mapping[str, Any]) -> str:
    left = int(params["left"])
    return ngettext(
        "Plays your pay-off top: %(left)s card left to win.",
        "Plays your pay-off top: %(left)s cards left to win.",
        left,
    ) % {"left": left}


def _text(message: Any, **convert: Callable[[Any], Any]) -> Callable[[Mapping[str, Any]], str]:
    """A sentence whose parameters are shown by ``convert`` (a card, a rank, a number)."""

    def render(params: Mapping[str, Any]) -> str:
        shown = {name: how(params[name]) for name, how in convert.items()}
        return str(message) % shown

    return render


def _rank(value: Any) -> str:
    return str(RANK_PHRASES[int(value)])


#: Every key ``engine.coach`` gives, and how its sentence reads.
REASONS: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "wins": _text(_("Plays your last pay-off card: you win the game.")),
    "payoff_top": _left,
    "opens_payoff": _text(
        _("Clears the way to your pay-off top, the %(top)s, this turn."), top=card_label
    ),
    "king_for_payoff": _text(
        # Translators: rank is "a 3", "an 8", "a Jack"; top is a card, "4♥".
        _("Plays a King as %(rank)s on the way to your pay-off top, the %(top)s."),
        rank=_rank,
        top=card_label,
    ),
    "completes_stack": _text(
        _("Completes center stack %(stack)s: its cards go back into the stock."), stack=int
    ),
    "refill": _text(_("Plays your last hand card: you draw a fresh hand.")),
    "plays_out_hand": _text(_("Starts playing out your hand: an empty hand draws a fresh one.")),
    "frees_side": _text(_("Plays from side stack %(stack)s, freeing the card below."), stack=int),
    "holds_back": _text(
        _(
            "Holds back the %(card)s: on the center it would let your opponent play their "
            "pay-off top, the %(top)s."
        ),
        card=card_label,
        top=card_label,
    ),
    "discard_run": _text(
        _("Discards the %(card)s onto the %(onto)s: a run going down plays back in order."),
        card=card_label,
        onto=card_label,
    ),
    "discard_empty": _text(
        _("Discards the %(card)s to empty side stack %(stack)s: it buries nothing."),
        card=card_label,
        stack=int,
    ),
    "feeds_opponent": _text(
        _("This let your opponent play their pay-off top, the %(top)s."), top=card_label
    ),
    "missed_payoff": _text(
        _("Your pay-off top, the %(top)s, could have been played first."), top=card_label
    ),
}


def reason_text(reason: Mapping[str, Any] | None) -> str | None:
    """The sentence for ``{"key", "params"}`` in the active language; None for no reason or
    one this site does not know."""
    if not reason:
        return None
    render = REASONS.get(str(reason.get("key")))
    if render is None:
        return None
    try:
        return render(reason.get("params") or {})
    except (KeyError, ValueError, TypeError):
        return None
