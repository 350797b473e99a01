"""The rules of a match as a form, and the bot lobby's form.

``KnobsForm`` is the one set of knob fields the site has: a ``preset`` radio and one labelled
field per knob of ``engine.Rules``, with its help text and the allowed range, validated by the
engine, its refusals in the reader's words (``games.refusals.rules_refusal_message``). The bot
lobby (``MatchCreateForm``), the people lobby (``lobby.forms``), the API (``RulesSerializer``)
and the admin (``games.admin_rules``) all build on it.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import engine
from core.errors import lazy_format
from engine.rules import LIMITS
from games.models import BotLevel
from games.presets import CUSTOM, PRESETS, QUICK, preset_for
from games.refusals import KNOB_LABELS, rules_refusal_message

_HOUSE = engine.Rules()

#: The range the site offers for a number knob, where it is narrower than the engine's
#: ``LIMITS`` (a match must fit a screen and an evening); the engine's bounds hold elsewhere.
SITE_RANGES: dict[str, tuple[int, int]] = {
    "payoff_size": (5, 30),
    "hand_size": (3, 8),
    "side_stacks": (1, 6),
    "center_stacks": (1, 6),
    "match_target": (1, 500),
}

#: Knobs a form may leave empty or out: the house rule's value is taken.
OPTIONAL_KNOBS = frozenset({"decks"})

#: Each number knob's help text; %(minimum)d and %(maximum)d are its range.
_HELP = {
    "payoff_size": _("Cards dealt to each pay-off pile (%(minimum)d to %(maximum)d)."),
    "hand_size": _("Cards in a full hand (%(minimum)d to %(maximum)d)."),
    "decks": _("52-card decks shuffled together (%(minimum)d to %(maximum)d)."),
    "side_stacks": _("Side stacks per player (%(minimum)d to %(maximum)d)."),
    "center_stacks": _("Shared center stacks (%(minimum)d to %(maximum)d)."),
    "match_target": _("The first to reach this many points wins (%(minimum)d to %(maximum)d)."),
}


def knob_range(knob: str) -> tuple[int, int]:
    """The values the site's forms accept for a number knob: the engine's limits, narrowed by
    ``SITE_RANGES``."""
    least, most = LIMITS[knob]
    low, high = SITE_RANGES.get(knob, (least, most))
    if high is None:
        raise KeyError(f"{knob} has no upper bound in the engine: give it one in SITE_RANGES")
    return max(least, low), high if most is None else min(most, high)


def knob_error_messages(knob: str) -> dict[str, Any]:
    """A number knob's refusals for a value out of its range, in the engine's words (the same
    message as ``engine.RulesError`` with code ``too_small`` or ``too_large``)."""
    low, high = knob_range(knob)
    return {
        "min_value": rules_refusal_message(
            engine.RulesError(
                "too_small",
                f"rule {knob!r} must be at least {low}",
                knob=knob,
                minimum=low,
            )
        ),
        "max_value": rules_refusal_message(
            engine.RulesError(
                "too_large",
                f"rule {knob!r} must be at most {high}",
                knob=knob,
                maximum=high,
            )
        ),
    }


def knob_field(knob: str, *, required: bool | None = None) -> forms.Field:
    """A knob's labelled field with its help text and range (``required``: default, every knob
    but ``OPTIONAL_KNOBS``)."""
    house = getattr(_HOUSE, knob)
    if isinstance(house, bool):
        return forms.BooleanField(label=KNOB_LABELS[knob], required=False, initial=house)
    low, high = knob_range(knob)
    return forms.IntegerField(
        label=KNOB_LABELS[knob],
        required=knob not in OPTIONAL_KNOBS if required is None else required,
        min_value=low,
        max_value=high,
        initial=house,
        help_text=lazy_format(_HELP[knob], minimum=low, maximum=high),
        error_messages=knob_error_messages(knob),
    )


class KnobsForm(forms.Form):
    """A ``preset`` and every knob; ``cleaned_data["rules"]`` is the ``engine.Rules``.

    A named preset sets every knob (what was posted for them is replaced); ``custom``, or no
    preset at all as from the API, takes the knobs as sent. A knob of ``OPTIONAL_KNOBS`` left
    empty or out is the house rule's (a form that never offered ``decks`` still deals two).
    Unbound, the form shows ``rules`` (default: the initial preset's) and checks the preset
    they are, or "Custom"."""

    #: Every knob, in the order the form shows them.
    KNOBS = (
        "payoff_size",
        "hand_size",
        "decks",
        "side_stacks",
        "center_stacks",
        "king_on_empty",
        "refill_empty_hand",
        "match_target",
    )

    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[*((p.key, p.label) for p in PRESETS.values()), (CUSTOM, _("Custom"))],
        required=False,
        initial=QUICK.key,
        widget=forms.RadioSelect,
    )
    payoff_size = knob_field("payoff_size")
    hand_size = knob_field("hand_size")
    decks = knob_field("decks")
    side_stacks = knob_field("side_stacks")
    center_stacks = knob_field("center_stacks")
    king_on_empty = knob_field("king_on_empty")
    refill_empty_hand = knob_field("refill_empty_hand")
    match_target = knob_field("match_target")

    def __init__(
        self, data: Any = None, *args: Any, rules: engine.Rules | None = None, **kwargs: Any
    ) -> None:
        super().__init__(data, *args, **kwargs)
        if data is not None:
            chosen = PRESETS.get(str(data.get(self.add_prefix("preset")) or ""))
            if chosen is not None:
                self.data = data.copy()
                for name in self.KNOBS:
                    self.data[self.add_prefix(name)] = self._as_posted(getattr(chosen.rules, name))
            return
        if rules is None:
            rules = PRESETS[self.fields["preset"].initial].rules
        else:
            shown = preset_for(rules)
            self.fields["preset"].initial = shown.key if shown is not None else CUSTOM
        for name in self.KNOBS:
            self.fields[name].initial = getattr(rules, name)

    def preset_choices(self) -> list[dict[str, Any]]:
        """The preset radios as the template draws them: value, label, description, checked."""
        chosen = str(self["preset"].value() or CUSTOM)
        described = [(p.key, p.label, p.description) for p in PRESETS.values()]
        custom = (CUSTOM, _("Custom"), _("Set every knob yourself, below."))
        return [
            {"value": key, "label": label, "description": text, "checked": key == chosen}
            for key, label, text in [*described, custom]
        ]

    @staticmethod
    def presets_rules() -> str:
        """Each preset's knobs as JSON, for static/js/presets.js."""
        return json.dumps({p.key: p.rules.to_dict() for p in PRESETS.values()})

    @staticmethod
    def _as_posted(value: bool | int) -> str:
        """A knob's value as a browser posts it (a checkbox left unchecked sends nothing: "")."""
        if isinstance(value, bool):
            return "on" if value else ""
        return str(value)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in OPTIONAL_KNOBS:
            if name in cleaned and cleaned[name] is None:
                cleaned[name] = getattr(_HOUSE, name)
        if all(name in cleaned for name in self.KNOBS):
            try:
                cleaned["rules"] = engine.Rules(**{name: cleaned[name] for name in self.KNOBS})
            except engine.RulesError as exc:
                message = rules_refusal_message(exc)
                if exc.code == "deck_too_small" or exc.knob not in self.fields:
                    # The deal needs three knobs at once: the rules as a whole are refused.
                    raise forms.ValidationError(message, code="rules") from exc
                self.add_error(exc.knob, forms.ValidationError(message, code=exc.code))
        return cleaned


class MatchCreateForm(KnobsForm):
    """A match against a bot: the bot and the rules (``KnobsForm``), the Quick preset first."""

    bot = forms.ChoiceField(
        label=_("Opponent"), choices=BotLevel.choices, initial=BotLevel.GREEDY.value
    )

    field_order = ["preset", "bot", *KnobsForm.KNOBS]

    def clean_bot(self) -> str:
        level: str = self.cleaned_data["bot"]
        try:
            engine.bot(level, seed=0)
        except ValueError:
            raise forms.ValidationError(
                _("The %(bot)s is not available yet; please choose another opponent."),
                code="unavailable",
                params={"bot": BotLevel(level).label},
            ) from None
        return level
