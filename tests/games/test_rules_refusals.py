"""Rules the engine refuses, in the reader's words (games.refusals.rules_refusal_message), and
the site's one set of knob fields (games.forms.KnobsForm): ranges within the engine's limits,
refused with the same words wherever rules are validated."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

import engine
from engine.rules import LIMITS, MAX_DECKS
from games.forms import SITE_RANGES, KnobsForm, MatchCreateForm, knob_range
from games.refusals import KNOB_LABELS, RULES_MESSAGES, rules_refusal_message
from lobby.forms import ChallengeForm, LinkForm, SeekForm


def refusal(*given: Any, **knobs: Any) -> engine.RulesError:
    """The engine's refusal of ``knobs`` (or of the one thing ``given`` as the rules)."""
    with pytest.raises(engine.RulesError) as caught:
        engine.Rules.from_dict(given[0] if given else knobs)
    return caught.value


#: One real refusal of each code the engine raises, and what a reader sees in English.
CASES = {
    "unknown": (
        lambda: refusal(jokers=2),
        "“jokers” is not a knob: choose from decks, hand_size, payoff_size, side_stacks, "
        "center_stacks, king_on_empty, refill_empty_hand, match_target.",
    ),
    "not_mapping": (
        lambda: refusal([5]),
        "The rules must name each knob with its value.",
    ),
    "not_bool": (
        lambda: refusal(king_on_empty="yes"),
        "“A King may start an empty center stack” must be yes or no.",
    ),
    "not_int": (lambda: refusal(hand_size=5.5), "“Hand” must be a whole number."),
    "too_small": (lambda: refusal(match_target=0), "“Points to win the match” must be at least 1."),
    "too_large": (lambda: refusal(decks=MAX_DECKS + 1), "“Decks” must be at most 8."),
    "deck_too_small": (
        lambda: refusal(decks=1, payoff_size=21, hand_size=6),
        "The deck is too small: it has 52 cards, and two pay-off piles of 21 and two hands of "
        "6 need 54. Add a deck, or deal smaller piles or hands.",
    ),
}


def test_every_code_the_engine_raises_has_a_message() -> None:
    assert set(CASES) == set(RULES_MESSAGES)
    assert set(KNOB_LABELS) == set(engine.rules.KNOBS)


@pytest.mark.parametrize("code", list(CASES))
def test_each_refusal_in_english(code: str) -> None:
    make, english = CASES[code]
    exc = make()
    assert exc.code == code
    with translation.override("en"):
        assert str(rules_refusal_message(exc)) == english


@pytest.mark.parametrize("language", ["vi", "bn"])
@pytest.mark.parametrize("code", list(CASES))
def test_each_refusal_goes_through_the_catalog_of_the_reader(code, language, marked) -> None:
    """Read in the language active when it is read (lazy), the knob's name too."""
    make, english = CASES[code]
    exc = make()
    message = rules_refusal_message(exc)
    with translation.override(language):
        text = str(message)
    assert text.startswith(f"[{language}]"), text
    if exc.knob in KNOB_LABELS and "“" in english:
        label = english.split("“")[1].split("”")[0]
        assert f"“[{language}]{label}”" in text, text


def test_the_message_is_the_catalog_s_translation_of_its_msgid() -> None:
    """Without the marking fixture: the same text as gettext gives for the msgid, filled in."""
    exc = refusal(payoff_size=0)
    with translation.override("vi"):
        expected = translation.gettext("“%(knob)s” must be at least %(minimum)d.") % {
            "knob": translation.gettext("Pay-off pile"),
            "minimum": 1,
        }
        assert str(rules_refusal_message(exc)) == expected


def test_an_unknown_code_or_odd_params_keep_the_engine_s_english() -> None:
    odd = engine.RulesError("brand_new", "rule 'x' is odd", knob="x")
    assert rules_refusal_message(odd) == "rule 'x' is odd"
    broken = engine.RulesError("too_small", "rule 'hand_size' is too small", knob="hand_size")
    assert rules_refusal_message(broken) == "rule 'hand_size' is too small"  # no minimum


# --- the knob fields -------------------------------------------------------------------------


def test_the_ranges_lie_within_the_engine_s_limits_and_decks_are_the_engine_s() -> None:
    assert knob_range("decks") == (1, MAX_DECKS)
    for knob, (least, most) in LIMITS.items():
        low, high = knob_range(knob)
        assert least <= low <= high and (most is None or high <= most), knob
        assert (low, high) == SITE_RANGES.get(knob, (least, most))
        field = KnobsForm.base_fields[knob]
        assert (field.min_value, field.max_value) == (low, high)
        assert str(field.help_text).endswith(f"({low} to {high}).")
        engine.Rules(**{knob: low})  # the ends of the range are rules the engine deals
        engine.Rules(**{knob: high, **({"decks": MAX_DECKS} if knob != "decks" else {})})


@pytest.mark.parametrize("form_class", [MatchCreateForm, SeekForm, ChallengeForm, LinkForm])
def test_every_rules_form_has_the_same_knob_fields(form_class) -> None:
    for knob in KnobsForm.KNOBS:
        mine, shared = form_class.base_fields[knob], KnobsForm.base_fields[knob]
        assert type(mine) is type(shared)
        assert (mine.label, getattr(mine, "min_value", None)) == (
            shared.label,
            getattr(shared, "min_value", None),
        )


def _custom(**knobs: Any) -> dict[str, Any]:
    house = {k: v for k, v in engine.Rules().to_dict().items() if not isinstance(v, bool)}
    flags = {"king_on_empty": "on", "refill_empty_hand": "on"}
    return {"bot": "random", "preset": "custom", **flags, **house, **knobs}


def test_the_forms_refuse_out_of_range_in_the_engine_s_words() -> None:
    form = MatchCreateForm(_custom(payoff_size="0", side_stacks="9"))
    assert not form.is_valid()
    assert form.errors["payoff_size"] == ["“Pay-off pile” must be at least 5."]
    assert form.errors["side_stacks"] == ["“Side stacks” must be at most 6."]

    form = SeekForm(_custom(decks="1", payoff_size="30"))
    assert not form.is_valid()
    assert form.errors["__all__"] == [str(rules_refusal_message(refusal(decks=1, payoff_size=30)))]


def test_decks_left_out_are_the_house_rule_s_two() -> None:
    data = _custom(hand_size="6")
    del data["decks"]
    form = MatchCreateForm(data)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"] == engine.Rules(hand_size=6)
    form = MatchCreateForm(_custom(decks="3", payoff_size="30"))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"].decks == 3
