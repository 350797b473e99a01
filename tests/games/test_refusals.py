"""games.refusals: every refusal of the engine in the player's words, translatable, read in the
language active when the error frame is built; the frame keeps the engine's code and params."""

from __future__ import annotations

import itertools
import re

import pytest
from django.utils import translation

import engine
from core.errors import ILLEGAL_MOVE, GameError
from engine.cards import KING, RANK
from games import refusals
from games.refusals import card_label, refusal_message, stack_label


def _refusal(game: engine.Game, move: str) -> engine.IllegalMove:
    with pytest.raises(engine.IllegalMove) as caught:
        game.play(move)
    return caught.value


def _game(rules: engine.Rules | None = None, *, where=lambda game: True) -> engine.Game:
    for seed in itertools.count(1):
        game = engine.Game.new(seed=seed, rules=rules)
        if where(game):
            return game
    raise AssertionError("unreachable")


def _hand(game: engine.Game) -> list[str]:
    return game.hands[game.to_move]


def _finished() -> engine.Game:
    game = engine.Game.new(seed=3, rules=engine.Rules(payoff_size=2, match_target=10))
    for _ in range(5000):
        if game.is_over:
            return game
        moves = game.legal_moves()
        center = [m for m in moves if m.target == "center"]
        game.play((center or moves)[0])
    raise AssertionError("the game did not end")


def _every_refusal() -> dict[str, tuple[engine.IllegalMove, bool]]:
    """One real refusal of each code the engine raises, with the game's king_on_empty."""
    found: dict[str, tuple[engine.IllegalMove, bool]] = {}
    with pytest.raises(engine.IllegalMove) as caught:
        engine.Move.parse("x-c1")
    found["bad_notation"] = (caught.value, True)
    over = _finished()
    found["game_over"] = (_refusal(over, "p-c1"), True)
    game = engine.Game.new(seed=1)
    found["bad_target"] = (_refusal(game, "p-s1"), True)
    found["no_such_stack"] = (_refusal(game, f"p-c{game.rules.center_stacks + 1}"), True)
    found["empty_stack"] = (_refusal(game, "s1-c1"), True)  # side stacks start empty
    absent = next(card for card in RANK if card not in _hand(game))
    found["not_in_hand"] = (_refusal(game, f"h:{absent}-c1"), True)
    strict = engine.Rules(king_on_empty=False)
    king_game = _game(strict, where=lambda g: any(RANK[c] == KING for c in _hand(g)))
    king = next(c for c in _hand(king_game) if RANK[c] == KING)
    found["king_not_allowed"] = (_refusal(king_game, f"h:{king}-c1"), False)
    low = _game(where=lambda g: any(1 < RANK[c] < KING for c in _hand(g)))
    card = next(c for c in _hand(low) if 1 < RANK[c] < KING)
    found["wrong_rank"] = (_refusal(low, f"h:{card}-c1"), True)
    return found


REFUSALS = _every_refusal()


def test_every_code_the_engine_raises_is_provoked_and_known() -> None:
    assert set(REFUSALS) == set(refusals.MESSAGES)
    for code, (exc, _king) in REFUSALS.items():
        assert exc.code == code


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_refusal_has_its_own_words_not_the_engines(code: str) -> None:
    exc, king_on_empty = REFUSALS[code]
    message = refusal_message(exc, king_on_empty=king_on_empty)
    assert not isinstance(message, str)  # lazy: read when the frame is built
    with translation.override("en"):
        text = str(message)
    assert text and text != str(exc)
    assert "%(" not in text


@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_refusal_is_read_through_gettext_in_the_language_active_then(
    code: str, marked
) -> None:
    """The stand-in gettext (``marked``) shows the language active when each text is read."""
    exc, king_on_empty = REFUSALS[code]
    message = refusal_message(exc, king_on_empty=king_on_empty)
    with translation.override("vi"):
        text = str(message)
    assert text.startswith("[vi]")
    assert "[en]" not in text  # the stacks and ranks inside too
    with translation.override("en"):
        assert str(message).startswith("[en]")


def test_the_words_players_read() -> None:
    with translation.override("en"):
        wrong, king = REFUSALS["wrong_rank"]
        text = str(refusal_message(wrong, king_on_empty=king))
        assert text.startswith(card_label(wrong.params["card"]) + " cannot go on center stack 1")
        assert "needs an Ace (or a King)" in text
        assert str(refusal_message(REFUSALS["empty_stack"][0])) == (
            "Side stack 1 is empty: there is no card to play from it."
        )
        assert str(refusal_message(REFUSALS["no_such_stack"][0])) == (
            "There is no center stack 4: there are 3 center stacks."
        )
        assert str(refusal_message(REFUSALS["bad_target"][0])) == (
            "Your pay-off card cannot go on side stack 1: only cards from your hand go there."
        )
        assert str(stack_label("p")) == "your pay-off pile"
    assert [card_label(c) for c in ("7D", "TS", "KH", "AC")] == ["7♦", "10♠", "K♥", "A♣"]


def test_an_unknown_code_or_odd_params_keep_the_engines_text() -> None:
    unknown = engine.IllegalMove("brand_new", "something new went wrong", card="7D")
    assert refusal_message(unknown) == "something new went wrong"
    odd = engine.IllegalMove("not_in_hand", "7D is not in your hand")  # no params
    assert refusal_message(odd) == "7D is not in your hand"


def test_the_frame_keeps_the_engine_code_and_params_and_sends_plain_text() -> None:
    exc, _king = REFUSALS["not_in_hand"]
    error = GameError(
        ILLEGAL_MOVE, refusal_message(exc), params=dict(exc.params), engine_code=exc.code
    )
    with translation.override("en"):
        frame = error.to_frame(move_id="m1")
    assert type(frame["message"]) is str
    assert frame["message"] == f"{card_label(exc.params['card'])} is not in your hand."
    assert frame["engine_code"] == "not_in_hand" and frame["params"] == exc.params
    assert frame["id"] == "m1"


@pytest.mark.django_db
def test_the_service_refuses_an_illegal_move_in_the_players_words(alice, human_starts) -> None:
    from games.services import game_play_move
    from tests.games.helpers import current_game

    match = human_starts(alice)
    game = current_game(match)
    with pytest.raises(GameError) as caught:
        game_play_move(game_id=game.pk, user=alice, move="s1-c1", version=game.version)
    error = caught.value
    assert error.code == ILLEGAL_MOVE and error.engine_code == "empty_stack"
    assert error.params == {"stack": "s1"}
    with translation.override("en"):
        assert error.to_frame()["message"] == (
            "Side stack 1 is empty: there is no card to play from it."
        )


SCRIPT = {"bn": re.compile(r"[\u0980-\u09ff]"), "my": re.compile(r"[\u1000-\u109f]")}


@pytest.mark.parametrize("language", ["vi", "es", "it", "bn", "my"])
@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_each_refusal_reads_in_each_language(code: str, language: str) -> None:
    exc, king_on_empty = REFUSALS[code]
    message = refusal_message(exc, king_on_empty=king_on_empty)
    with translation.override("en"):
        english = str(message)
    with translation.override(language):
        translated = str(message)

    assert translated != english
    english_words = set(re.findall(r"[a-z]{4,}", english)) - {"notation"}
    assert not english_words & set(re.findall(r"[a-z]{4,}", translated)), translated
    if language in SCRIPT:
        assert SCRIPT[language].search(translated), translated
