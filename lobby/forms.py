"""The lobby's forms: the knobs of a casual match, for a seek, and with a username for a
challenge. The knob fields are the site's one set (``games.forms.KnobsForm``, the bot lobby's
too), so the two lobbies offer the same choices and validate them the same way."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.forms import KnobsForm


class RulesForm(KnobsForm):
    """The preset and every knob, and their ``rules`` in ``cleaned_data``."""


class SeekForm(RulesForm):
    """Post a seek: the knobs, house rules filled in."""


class ChallengeForm(RulesForm):
    """Challenge a player by username, with the knobs."""

    username = forms.CharField(
        label=_("Player's username"),
        max_length=150,
        help_text=_("The name in their profile's address: /accounts/u/<username>/."),
    )

    field_order = ["username", *KnobsForm.KNOBS]

    def clean_username(self) -> str:
        return str(self.cleaned_data.get("username") or "").strip()


class LinkForm(RulesForm):
    """Make a challenge link: the knobs (the people page offers the presets)."""


class PeopleSearchForm(forms.Form):
    """Find a player by username or display name (a GET form: it works without JavaScript)."""

    q = forms.CharField(
        label=_("Username or name"),
        max_length=40,
        required=False,
        strip=True,
    )


class RankedChallengeForm(forms.Form):
    """Challenge a member to a ranked match of a league (the league's knobs: none to choose)."""

    username = forms.CharField(max_length=150)
    league = forms.SlugField(max_length=80)

    def clean_username(self) -> str:
        return str(self.cleaned_data.get("username") or "").strip()
