"""Move text and IllegalMove: engine/moves.py."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import IllegalMove, Move
from engine.moves import GRAMMAR

ENGINE_MD_REGEX = re.compile(r"^(p|s[1-9][0-9]*|h:[A2-9TJQK][SHDC])-(c[1-9][0-9]*|s[1-9][0-9]*)$")


@pytest.mark.parametrize(
    "text", ["p-c1", "s3-c2", "h:7D-c3", "h:QH-s4", "p-s1", "s2-s3", "h:AS-c9", "s10-c12"]
)
def test_well_formed_texts_parse_and_print_back(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text
    assert repr(move) == f"Move.parse({text!r})"
    assert eval(repr(move)) == move
    assert Move(text) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "p",
        "p-",
        "-c1",
        "p-c0",
        "s0-c1",
        "s01-c1",
        "p-c01",
        "P-C1",
        "h:7d-c1",
        "h:10D-c1",
        "h:1D-c1",
        "h:7X-c1",
        "h7D-c1",
        "h:7D",
        "p-c1 ",
        " p-c1",
        "p-c1\n",
        "p_c1",
        "p-h:7D",
        "p-c1-c2",
        "p-c\u0661",  # an Arabic-Indic digit one is not [0-9]
    ],
)
def test_anything_else_is_bad_notation(text: str) -> None:
    with pytest.raises(IllegalMove) as info:
        Move.parse(text)
    err = info.value
    assert err.code == "bad_notation"
    assert err.params == {"text": text}
    assert "is not a move" in str(err)
    assert isinstance(err, ValueError)


def test_non_strings_are_bad_notation() -> None:
    with pytest.raises(IllegalMove) as info:
        Move.parse(12)  # type: ignore[arg-type]
    assert info.value.code == "bad_notation"


def test_parts() -> None:
    m = Move.parse("s3-c2")
    assert (m.origin, m.origin_index, m.card, m.target, m.target_index) == (
        "side",
        2,
        None,
        "center",
        1,
    )
    m = Move.parse("h:QH-s4")
    assert (m.origin, m.card, m.target, m.target_index) == ("hand", "QH", "side", 3)
    m = Move.parse("p-c1")
    assert (m.origin, m.target, m.source_name, m.target_name) == ("payoff", "center", "p", "c1")


def test_moves_are_hashable_and_equal_by_text() -> None:
    assert Move.parse("p-c1") == Move("p-c1")
    assert Move.parse("p-c1") != Move.parse("p-c2")
    assert len({Move("p-c1"), Move.parse("p-c1"), Move("h:AS-c1")}) == 2
    assert Move("p-c1") != "p-c1"


def test_moves_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Move("p-c1").text = "p-c2"  # type: ignore[misc]


def test_the_grammar_is_engine_mds() -> None:
    assert ENGINE_MD_REGEX.pattern == f"^{GRAMMAR}$"


@settings(max_examples=200)
@given(st.from_regex(ENGINE_MD_REGEX, fullmatch=True))
def test_every_grammatical_text_round_trips(text: str) -> None:
    assert str(Move.parse(text)) == text


@settings(max_examples=200)
@given(st.text(alphabet="ph:-cs0123456789ASKQJTDHC\n ", max_size=10))
def test_parse_accepts_exactly_the_grammar(text: str) -> None:
    if re.fullmatch(GRAMMAR, text):
        assert str(Move.parse(text)) == text
    else:
        with pytest.raises(IllegalMove) as info:
            Move.parse(text)
        assert info.value.code == "bad_notation"


def test_illegal_move_carries_code_params_and_message() -> None:
    err = IllegalMove("wrong_rank", "7D cannot go there", card="7D", stack="c2", needed="6")
    assert (err.code, err.params, str(err)) == (
        "wrong_rank",
        {"card": "7D", "stack": "c2", "needed": "6"},
        "7D cannot go there",
    )
    assert "wrong_rank" in repr(err)
