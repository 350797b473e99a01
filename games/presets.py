"""The named rule sets a player picks from, shortest first: Quick, Standard and Full match
(the house rules). Every way of making a casual match offers them (docs/games.md, "Presets");
the knobs stay one click away for anything else."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

import engine


@dataclass(frozen=True)
class Preset:
    key: str
    label: Promise
    description: Promise
    rules: engine.Rules


QUICK = Preset(
    "quick",
    _("Quick"),
    _("Pay-off piles of 5 and one game: a few minutes."),
    engine.Rules(payoff_size=5, match_target=1),
)
STANDARD = Preset(
    "standard",
    _("Standard"),
    _("Pay-off piles of 10, first to 20 points: about a quarter of an hour."),
    engine.Rules(payoff_size=10, match_target=20),
)
FULL = Preset(
    "full",
    _("Full match"),
    _("The house rules: pay-off piles of 20, first to 50 points, an hour or more."),
    engine.Rules(),
)
PRESETS: dict[str, Preset] = {p.key: p for p in (QUICK, STANDARD, FULL)}
#: The choice of a form's ``preset`` field that keeps the knobs as the player set them.
CUSTOM = "custom"


def preset_for(rules: engine.Rules) -> Preset | None:
    """The preset whose rules are exactly ``rules``, if there is one."""
    return next((p for p in PRESETS.values() if p.rules == rules), None)
