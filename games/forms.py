"""The lobby's form: a match against a bot, with a preset or the knobs for casual play."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import engine
from games.models import BotLevel
from games.presets import CUSTOM, PRESETS, QUICK

_HOUSE = engine.Rules()


class MatchCreateForm(forms.Form):
    """The bot and the rules. A named ``preset`` sets every knob (what was posted for them is
    replaced); ``custom``, or no preset at all as from the API, takes the knobs as sent."""

    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[*((p.key, p.label) for p in PRESETS.values()), (CUSTOM, _("Custom"))],
        required=False,
        initial=QUICK.key,
        widget=forms.RadioSelect,
    )
    bot = forms.ChoiceField(
        label=_("Opponent"), choices=BotLevel.choices, initial=BotLevel.GREEDY.value
    )
    payoff_size = forms.IntegerField(
        label=_("Pay-off pile"),
        min_value=5,
        max_value=30,
        initial=_HOUSE.payoff_size,
        help_text=_("Cards dealt to each pay-off pile (5 to 30)."),
    )
    hand_size = forms.IntegerField(
        label=_("Hand"),
        min_value=3,
        max_value=8,
        initial=_HOUSE.hand_size,
        help_text=_("Cards in a full hand (3 to 8)."),
    )
    side_stacks = forms.IntegerField(
        label=_("Side stacks"),
        min_value=1,
        max_value=6,
        initial=_HOUSE.side_stacks,
        help_text=_("Side stacks per player (1 to 6)."),
    )
    center_stacks = forms.IntegerField(
        label=_("Center stacks"),
        min_value=1,
        max_value=6,
        initial=_HOUSE.center_stacks,
        help_text=_("Shared center stacks (1 to 6)."),
    )
    king_on_empty = forms.BooleanField(
        label=_("A King may start an empty center stack"),
        required=False,
        initial=_HOUSE.king_on_empty,
    )
    refill_empty_hand = forms.BooleanField(
        label=_("An empty hand draws a new hand at once"),
        required=False,
        initial=_HOUSE.refill_empty_hand,
    )
    match_target = forms.IntegerField(
        label=_("Points to win the match"),
        min_value=1,
        max_value=500,
        initial=_HOUSE.match_target,
        help_text=_("The first to reach this many points wins (1 to 500)."),
    )

    KNOBS = (
        "payoff_size",
        "hand_size",
        "side_stacks",
        "center_stacks",
        "king_on_empty",
        "refill_empty_hand",
        "match_target",
    )

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(data, *args, **kwargs)
        if data is not None:
            chosen = PRESETS.get(str(data.get(self.add_prefix("preset")) or ""))
            if chosen is not None:
                self.data = data.copy()
                for name in self.KNOBS:
                    self.data[self.add_prefix(name)] = self._as_posted(getattr(chosen.rules, name))
        else:
            chosen = PRESETS[self.fields["preset"].initial]
            for name in self.KNOBS:
                self.fields[name].initial = getattr(chosen.rules, name)

    def preset_choices(self) -> list[dict[str, Any]]:
        """The preset radios as the template draws them: value, label, description, checked."""
        chosen = str(self["preset"].value() or CUSTOM)
        described = [(p.key, p.label, p.description) for p in PRESETS.values()]
        custom = (CUSTOM, _("Custom"), _("Set every knob yourself, below."))
        return [
            {"value": key, "label": label, "description": text, "checked": key == chosen}
            for key, label, text in [*described, custom]
        ]

    def presets_rules(self) -> str:
        """Each preset's knobs as JSON, for static/js/presets.js."""
        return json.dumps({p.key: p.rules.to_dict() for p in PRESETS.values()})

    @staticmethod
    def _as_posted(value: bool | int) -> str:
        """A knob's value as a browser posts it (a checkbox left unchecked sends nothing: "")."""
        if isinstance(value, bool):
            return "on" if value else ""
        return str(value)

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

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if all(name in cleaned for name in self.KNOBS):
            try:
                cleaned["rules"] = engine.Rules(**{name: cleaned[name] for name in self.KNOBS})
            except ValueError as exc:
                # The engine's reason is English, for programs; people read this.
                raise forms.ValidationError(
                    _(
                        "These rules cannot be dealt: two pay-off piles and two hands need "
                        "more cards than the deck holds."
                    ),
                    code="rules",
                ) from exc
        return cleaned
