"""The presets (games.presets) and how the match form takes them: a named preset sets every
knob, "custom" or no preset takes the knobs as posted."""

from __future__ import annotations

import pytest

import engine
from games.forms import MatchCreateForm
from games.presets import CUSTOM, FULL, PRESETS, QUICK, STANDARD, preset_for
from lobby.forms import SeekForm
from lobby.selectors import rules_summary

ODD = {
    "payoff_size": "7",
    "hand_size": "4",
    "side_stacks": "3",
    "center_stacks": "2",
    "king_on_empty": "",
    "refill_empty_hand": "on",
    "match_target": "9",
}


def test_the_presets_are_named_shortest_first_and_full_is_the_house_rules() -> None:
    assert list(PRESETS) == ["quick", "standard", "full"]
    assert [str(p.label) for p in PRESETS.values()] == ["Quick", "Standard", "Full match"]
    assert FULL.rules == engine.Rules()
    assert (QUICK.rules.payoff_size, QUICK.rules.match_target) == (5, 1)
    sizes = [p.rules.payoff_size * p.rules.match_target for p in PRESETS.values()]
    assert sizes == sorted(sizes)
    assert all(preset_for(p.rules) is p for p in PRESETS.values())
    assert preset_for(engine.Rules(hand_size=6)) is None


@pytest.mark.parametrize("key", list(PRESETS))
def test_a_named_preset_sets_every_knob_whatever_was_posted(key: str) -> None:
    form = MatchCreateForm({"bot": "greedy", "preset": key, **ODD})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] == PRESETS[key].rules


def test_a_named_preset_needs_no_knobs_at_all() -> None:
    form = SeekForm({"seek-preset": "standard"}, prefix="seek")
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] == STANDARD.rules


@pytest.mark.parametrize("preset", [CUSTOM, None])
def test_custom_or_no_preset_takes_the_knobs_as_posted(preset: str | None) -> None:
    data = {"bot": "random", **ODD, **({"preset": preset} if preset else {})}
    form = MatchCreateForm(data)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] == engine.Rules(
        payoff_size=7, hand_size=4, side_stacks=3, center_stacks=2,
        king_on_empty=False, refill_empty_hand=True, match_target=9,
    )  # fmt: skip


def test_an_unknown_preset_is_refused_with_the_choices_error() -> None:
    form = MatchCreateForm({"bot": "random", "preset": "marathon", **ODD})
    assert not form.is_valid()
    assert "preset" in form.errors


def test_a_custom_knob_out_of_range_is_still_refused() -> None:
    form = MatchCreateForm({"bot": "random", "preset": CUSTOM, **ODD, "payoff_size": "31"})
    assert not form.is_valid()
    assert "payoff_size" in form.errors


def test_the_summary_names_the_preset() -> None:
    assert rules_summary(QUICK.rules.to_dict()) == "Quick: pay-off pile of 5, one game"
    assert rules_summary(STANDARD.rules.to_dict()) == (
        "Standard: pay-off pile of 10, first to 20 points"
    )
    assert rules_summary(FULL.rules.to_dict()) == "House rules, first to 50 points"
