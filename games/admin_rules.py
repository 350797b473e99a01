"""The rules of a model in the admin: a ``rules`` JSON field (``engine.Rules.to_dict()``, every
knob) edited through the site's knob fields (``games.forms.KnobsForm``) instead of raw JSON.

``RulesAdminForm`` shows the presets one click away and one labelled field per knob with its
range; the engine validates them and a refusal reads in the organiser's language
(``games.refusals.rules_refusal_message``); what is stored is ``Rules.to_dict()``. Choosing a
preset and saving stores that preset's knobs (static/js/presets.js fills the fields in at
once; without it the result is the same). ``RulesAdminMixin`` puts the form on a ModelAdmin,
or, where the rules must not change (a match's, or for someone who may only view), shows them
as a list. Leagues and the lobby import it: games owns it, below both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import admin
from django.forms.widgets import Script
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

import engine
from games.forms import KnobsForm
from games.presets import CUSTOM, PRESETS
from games.refusals import KNOB_LABELS

#: The form's fields that stand for the model's ``rules``.
RULES_FIELDS = ("preset", *KnobsForm.KNOBS)


class PresetRadioSelect(forms.RadioSelect):
    """The preset radios inside the box static/js/presets.js looks for (``data-presets``:
    each preset's knobs)."""

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        radios = super().render(name, value, attrs, renderer)
        return format_html(
            '<div class="preset-choices" data-presets="{}">{}</div>',
            KnobsForm.presets_rules(),
            radios,
        )


def _shown_rules(stored: Any) -> engine.Rules:
    """The rules a stored dict holds; the house rules for none, or for a dict the engine
    refuses (saving the form then stores what it shows)."""
    try:
        return engine.Rules.from_dict(stored)
    except engine.RulesError:
        return engine.Rules()


class RulesAdminForm(KnobsForm, forms.ModelForm):
    """A model form whose model's ``rules`` are edited as the preset and the knobs; the
    ModelAdmin leaves ``rules`` itself out of its fields (``RulesAdminMixin`` does)."""

    class Media:
        js = [Script("js/presets.js", type="module")]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        instance = kwargs.get("instance")
        if instance is not None:
            stored = instance.rules
        else:
            stored = self._meta.model._meta.get_field("rules").get_default()
        kwargs.setdefault("rules", _shown_rules(stored))
        super().__init__(*args, **kwargs)
        preset = self.fields["preset"]
        preset.label = _("Preset")
        preset.help_text = _(
            "Choosing a preset and saving sets every knob below to it; choose “Custom” to keep "
            "the knobs as you set them."
        )
        preset.widget = PresetRadioSelect(
            attrs={"class": "radiolist"},  # the admin's own style for a list of radios
            choices=[
                *((p.key, format_lazy("{}: {}", p.label, p.description)) for p in PRESETS.values()),
                (CUSTOM, format_lazy("{}: {}", _("Custom"), _("Set every knob yourself, below."))),
            ],
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        rules = cleaned.get("rules")
        if isinstance(rules, engine.Rules):
            cleaned["rules"] = rules.to_dict()
            self.instance.rules = cleaned["rules"]
        return cleaned


#: What a true/false knob's value says, as the league page says it (leagues.selectors).
FLAG_LINES = {
    "king_on_empty": (
        _("A King may start an empty center stack"),
        _("Only an Ace starts an empty center stack"),
    ),
    "refill_empty_hand": (
        _("An empty hand refills during the turn"),
        _("An empty hand waits for the next turn"),
    ),
}


def rules_list(rules: Mapping[str, Any] | None) -> SafeString:
    """Every knob of stored rules as a list an organiser reads: "Pay-off pile: 20", and what a
    true/false knob means ("Only an Ace starts an empty center stack")."""
    knobs = _shown_rules(rules).to_dict()
    lines = [
        FLAG_LINES[name][0 if knobs[name] else 1]
        if name in FLAG_LINES
        else format_html("{}: {}", KNOB_LABELS[name], knobs[name])
        for name in KnobsForm.KNOBS
    ]
    return format_html(
        '<ul class="rules-list">{}</ul>', format_html_join("", "<li>{}</li>", ((x,) for x in lines))
    )


class RulesAdminMixin:
    """For the ModelAdmin of a model with a ``rules`` field: the rules as the preset and a
    field per knob (``RulesAdminForm``), in their own fieldsets after the first; or, when
    ``rules_editable`` is false or the user may not change the object, as a read-only list."""

    form: type[forms.ModelForm] = RulesAdminForm
    #: False: the rules are shown, never edited (a match's are fixed when it starts).
    rules_editable = True

    def _edits_rules(self, request: HttpRequest, obj: Any) -> bool:
        if not self.rules_editable:
            return False
        if obj is None:
            return True
        return bool(self.has_change_permission(request, obj))  # type: ignore[attr-defined]

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        fieldsets = super().get_fieldsets(request, obj)  # type: ignore[misc]
        drop = {"rules", "rules_shown", *RULES_FIELDS}
        kept = [
            (title, {**options, "fields": [f for f in options["fields"] if f not in drop]})
            for title, options in fieldsets
        ]
        if self._edits_rules(request, obj):
            rules = [
                (_("Rules"), {"fields": ["preset"]}),
                (
                    _("Custom rules"),
                    {
                        "fields": list(KnobsForm.KNOBS),
                        # presets.js chooses "Custom" when a knob in .custom-rules changes.
                        "classes": ["custom-rules"],
                        "description": _(
                            "Used when “Custom” is chosen above. Smaller pay-off piles and a "
                            "lower target make a shorter match."
                        ),
                    },
                ),
            ]
        else:
            rules = [(_("Rules"), {"fields": ["rules_shown"]})]
        return [*kept[:1], *rules, *kept[1:]]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))  # type: ignore[misc]
        if not self._edits_rules(request, obj) and "rules_shown" not in fields:
            fields.append("rules_shown")
        return fields

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        if not self._edits_rules(request, obj):
            kwargs["form"] = forms.ModelForm
        return super().get_form(request, obj, **kwargs)  # type: ignore[misc]

    @admin.display(description=_("rules"))
    def rules_shown(self, obj: Any) -> SafeString:
        return rules_list(getattr(obj, "rules", None))
