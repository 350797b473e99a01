"""One test (or more) per rule and per knob of RULES.md."""

from collections import Counter
from typing import Any

import pytest

from engine import Game, IllegalMove, Outcome, Rules, RulesError
from engine.cards import RANK
from engine.rng import Rng
from engine.rules import KNOBS, LIMITS, MAX_DECKS, MAX_STACKS
from engine.testing import position

ELEVEN = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]
ELEVEN_H = [c[0] + "H" for c in ELEVEN]
ELEVEN_D = [c[0] + "D" for c in ELEVEN]


def texts(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def all_cards(game: Game) -> list[str]:
    d = game.to_dict()
    cards = list(d["stock"])
    for p in d["players"]:
        cards += p["hand"] + p["payoff"] + [c for s in p["sides"] for c in s]
    return cards + [c for s in d["center"] for c in s]


def refused(game: Game, move: str) -> IllegalMove:
    before = game.to_dict()
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert game.to_dict() == before
    return info.value


# ---------------------------------------------------------------- the Rules value


def test_house_rules_are_the_defaults() -> None:
    assert Rules().to_dict() == {
        "decks": 2,
        "hand_size": 5,
        "payoff_size": 20,
        "side_stacks": 4,
        "center_stacks": 3,
        "king_on_empty": True,
        "refill_empty_hand": True,
        "match_target": 50,
    }


def test_rules_are_frozen_hashable_values() -> None:
    assert Rules(hand_size=4) == Rules(hand_size=4) != Rules()
    assert len({Rules(), Rules()}) == 1
    with pytest.raises(AttributeError):
        Rules().decks = 3  # type: ignore[misc]


def test_rules_round_trip_and_partial_dicts() -> None:
    rules = Rules(king_on_empty=False, side_stacks=2)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"king_on_empty": False}) == Rules(king_on_empty=False)
    assert Rules.from_dict({}) == Rules.from_dict(None) == Rules()


def test_unknown_knob_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown rule 'jokers'"):
        Rules(jokers=True)
    with pytest.raises(ValueError, match="unknown rule"):
        Rules.from_dict({"jokers": 2})
    with pytest.raises(ValueError):
        Rules.from_dict([1, 2])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "knobs",
    [
        {"decks": 0},
        {"hand_size": -1},
        {"payoff_size": 0},
        {"side_stacks": 0},
        {"center_stacks": 0},
        {"match_target": 0},
        {"decks": True},
        {"hand_size": 5.0},
        {"hand_size": "5"},
        {"king_on_empty": 1},
        {"refill_empty_hand": "yes"},
        {"decks": 1, "payoff_size": 24},  # 48 + 10 > 52
        {"decks": 9},
        {"side_stacks": 100},
        {"center_stacks": 100},
    ],
)
def test_impossible_knob_values_are_value_errors(knobs: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"rule|deck"):
        Rules(**knobs)


def test_the_deal_needs_enough_cards_exactly() -> None:
    Rules(decks=1, payoff_size=21, hand_size=5)  # 42 + 10 = 52 cards: just enough
    with pytest.raises(ValueError, match="too few"):
        Rules(decks=1, payoff_size=21, hand_size=6)


@pytest.mark.parametrize(
    ("call", "knob", "code", "params", "text"),
    [
        (
            lambda: Rules(jokers=True),
            "jokers",
            "unknown",
            {"knobs": KNOBS},
            "unknown rule 'jokers'; the rules are: decks, hand_size, payoff_size, side_stacks, "
            "center_stacks, king_on_empty, refill_empty_hand, match_target",
        ),
        (
            lambda: Rules.from_dict({3: 1}),  # type: ignore[dict-item]
            "3",
            "unknown",
            {"knobs": KNOBS},
            "unknown rule 3; the rules are: " + ", ".join(KNOBS),
        ),
        (
            lambda: Rules.from_dict([1, 2]),  # type: ignore[arg-type]
            None,
            "not_mapping",
            {"type": "list"},
            "rules must be a mapping of knobs, not list",
        ),
        (
            lambda: Rules(king_on_empty=1),  # type: ignore[arg-type]
            "king_on_empty",
            "not_bool",
            {"value": 1},
            "rule 'king_on_empty' must be true or false, not 1",
        ),
        (
            lambda: Rules(hand_size="5"),  # type: ignore[arg-type]
            "hand_size",
            "not_int",
            {"value": "5"},
            "rule 'hand_size' must be an integer, not '5'",
        ),
        (
            lambda: Rules(decks=True),
            "decks",
            "not_int",
            {"value": True},
            "rule 'decks' must be an integer, not True",
        ),
        (
            lambda: Rules(payoff_size=0),
            "payoff_size",
            "too_small",
            {"minimum": 1, "value": 0},
            "rule 'payoff_size' must be at least 1, not 0",
        ),
        (
            lambda: Rules(decks=MAX_DECKS + 1),
            "decks",
            "too_large",
            {"maximum": MAX_DECKS, "value": MAX_DECKS + 1},
            f"rule 'decks' must be at most {MAX_DECKS}, not {MAX_DECKS + 1}",
        ),
        (
            lambda: Rules(center_stacks=MAX_STACKS + 1),
            "center_stacks",
            "too_large",
            {"maximum": MAX_STACKS, "value": MAX_STACKS + 1},
            f"rule 'center_stacks' must be at most {MAX_STACKS}",
        ),
        (
            lambda: Rules(decks=1, payoff_size=30),
            "decks",
            "deck_too_small",
            {"decks": 1, "cards": 52, "payoff_size": 30, "hand_size": 5, "needed": 70},
            "1 deck(s) hold 52 cards, too few to deal two pay-off piles of 30 and two hands "
            "of 5 (70 cards)",
        ),
    ],
)
def test_a_refused_knob_says_which_knob_why_and_the_numbers(
    call: Any, knob: str | None, code: str, params: dict[str, Any], text: str
) -> None:
    """RulesError carries what a translation needs; str() stays the engine's English, and it is
    still a ValueError for every caller that catches that."""
    with pytest.raises(RulesError) as info:
        call()
    err = info.value
    assert isinstance(err, ValueError)
    assert (err.knob, err.code, err.params) == (knob, code, params)
    assert str(err) == text
    assert code in repr(err)


def test_the_limits_are_the_ones_the_engine_enforces() -> None:
    for knob, (least, most) in LIMITS.items():
        assert knob in KNOBS
        with pytest.raises(RulesError, match="at least") as info:
            Rules(**{knob: least - 1})
        assert info.value.code == "too_small"
        if most is not None:
            Rules(**{knob: most})  # the largest allowed value is allowed
            with pytest.raises(RulesError) as info:
                Rules(**{knob: most + 1})
            assert info.value.code == "too_large"


def test_a_game_state_with_impossible_rules_is_refused_with_the_rules_error() -> None:
    state = Game.new(seed=3).to_dict()
    state["rules"] = {"side_stacks": 0}
    with pytest.raises(RulesError) as info:
        Game.from_dict(state)
    assert (info.value.knob, info.value.code) == ("side_stacks", "too_small")


# ---------------------------------------------------------------- cards and the table


def test_a_game_uses_104_cards_two_of_each_code() -> None:
    cards = all_cards(Game.new(seed=1))
    assert len(cards) == 104
    assert set(Counter(cards).values()) == {2} and len(set(cards)) == 52


def test_the_deal() -> None:
    game = Game.new(seed=4)
    for p in (0, 1):
        assert len(game.hands[p]) == 5
        assert len(game.payoffs[p]) == 20
        assert game.sides[p] == [[], [], [], []]
    assert game.center == [[], [], []]
    assert len(game.stock) == 104 - 2 * 20 - 2 * 5 == 54
    assert game.outcome is None and game.ply == 0


def test_the_deal_follows_the_seed() -> None:
    assert Game.new(seed=9).to_dict() == Game.new(seed=9).to_dict()
    assert Game.new(seed=9).to_dict() != Game.new(seed=10).to_dict()
    assert Game.new(seed=2**63 + 12345).seed == 2**63 + 12345


def test_only_the_payoff_top_is_played() -> None:
    game = position(payoffs=[["5C", "AS"], ["9D"]], hands=[["7H"], ["2C"]])
    game.play("p-c1")
    assert game.center[0] == ["AS"] and game.payoffs[0] == ["5C"]
    assert "p-c2" not in texts(game)


def test_only_the_top_of_a_side_stack_is_played() -> None:
    game = position(sides=[[["AD", "7C"], ["9H", "AC"]], None], hands=[["7H"], ["2C"]])
    assert [t for t in texts(game) if t.startswith("s")] == ["s2-c1", "s2-c2", "s2-c3"]


# ---------------------------------------------------------------- building the center


def test_an_empty_center_stack_takes_an_ace() -> None:
    game = position(hands=[["AS", "2C"], ["2D"]])
    assert "h:AS-c1" in texts(game) and "h:2C-c1" not in texts(game)
    game.play("h:AS-c1")
    assert game.center[0] == ["AS"]


def test_a_stack_at_rank_r_takes_rank_r_plus_one_suit_ignored() -> None:
    game = position(hands=[["3D", "4D", "3C"], ["2D"]], center=[["AH", "2S"]])
    assert [t for t in texts(game) if "-c" in t] == ["h:3D-c1", "h:3C-c1"]
    game.play("h:3D-c1")
    assert "h:4D-c1" in texts(game) and "h:3C-c1" not in texts(game)


def test_kings_are_wild_on_any_stack() -> None:
    game = position(
        hands=[["KS", "KD", "QH"], ["2D"]], center=[ELEVEN[:3], ELEVEN_H[:10], ELEVEN_D[:7]]
    )
    assert {"h:KS-c1", "h:KS-c2", "h:KS-c3"} <= set(texts(game))
    game.play("h:KS-c2")  # on a Ten it is a Jack
    assert game.stands_for(1) == 11
    assert "h:QH-c2" in texts(game)


def test_a_king_played_on_a_jack_completes_the_stack_as_a_queen() -> None:
    game = position(hands=[["KS", "7D"], ["2D"]], center=[ELEVEN], stock=["AC"], seed=3)
    game.play("h:KS-c1")
    assert game.center[0] == []
    assert sorted(game.stock) == sorted(["AC", *ELEVEN, "KS"])


def test_a_center_stack_with_n_cards_stands_at_n() -> None:
    game = position(hands=[["KS", "2D"], ["2C"]], center=[["AH"]])
    game.play("h:KS-c1")
    assert game.stands_for(0) == 2
    assert game.view(0)["center"][0] == {"cards": ["AH", "KS"], "stands_for": 2}
    assert "h:2D-c1" not in texts(game)


def test_completing_a_stack_moves_its_12_cards_to_the_stock_and_shuffles() -> None:
    stock = ["2C", "3C", "4C"]
    game = position(hands=[["QH", "7D"], ["2D"]], center=[ELEVEN], stock=stock, seed=42)
    game.play("h:QH-c1")
    expected = [*stock, *ELEVEN, "QH"]
    Rng(42).shuffle(expected)
    assert game.stock == expected
    assert game.center[0] == []
    assert game.to_move == 0 and game.hands[0] == ["7D"]


def test_kings_lose_their_stand_in_rank_when_the_stack_completes() -> None:
    game = position(
        hands=[["QH", "7D"], ["2D"]], center=[["KD", *ELEVEN[1:]]], stock=["5C"], seed=1
    )
    game.play("h:QH-c1")
    assert "KD" in game.stock and game.stands_for(0) == 0
    # a King drawn again starts a stack as an Ace, whatever it stood for before
    game = position(hands=[["KD", "7D"], ["2D"]])
    game.play("h:KD-c1")
    assert game.stands_for(0) == 1


# ---------------------------------------------------------------- a turn


def test_the_draw_at_the_start_of_a_turn_fills_the_hand_from_the_top() -> None:
    stock = ["2C", "3C", "4C", "5C", "6C", "7C"]
    game = position(hands=[["AS"], ["2D"]], stock=stock)
    game.play("h:AS-s1")
    assert game.to_move == 1
    assert game.hands[1] == ["2D", "7C", "6C", "5C", "4C"]
    assert game.stock == ["2C", "3C"]


def test_any_number_of_center_plays_in_any_order() -> None:
    game = position(
        hands=[["2S", "4H", "9C"], ["2D"]],
        payoffs=[["8D", "3C"], ["9D"]],
        sides=[[["AS"]], None],
        stock=["5C"] * 2,
    )
    for move in ["s1-c1", "h:2S-c1", "p-c1", "h:4H-c1"]:
        game.play(move)
        assert game.to_move == 0
    assert game.center[0] == ["AS", "2S", "3C", "4H"]


def test_an_empty_hand_draws_five_at_once_and_play_goes_on() -> None:
    stock = ["2C", "3C", "4C", "5C", "6C", "7C"]
    game = position(hands=[["AS"], ["2D"]], stock=stock)
    game.play("h:AS-c1")
    assert game.to_move == 0 and game.outcome is None
    assert game.hands[0] == ["7C", "6C", "5C", "4C", "3C"]
    assert game.stock == ["2C"]


def test_knob_refill_empty_hand_off_ends_the_turn_when_the_hand_runs_out() -> None:
    stock = ["2C", "3C", "4C", "5C", "6C", "7C"]
    game = position(hands=[["AS"], ["2D"]], stock=stock, rules=Rules(refill_empty_hand=False))
    game.play("h:AS-c1")
    assert game.to_move == 1
    assert game.hands[0] == []
    assert game.hands[1] == ["2D", "7C", "6C", "5C", "4C"]


def test_a_hand_card_to_a_side_stack_ends_the_turn_on_any_card() -> None:
    game = position(
        hands=[["AS", "7D"], ["2D"]], sides=[[["QH"]], None], stock=["5C"] * 2 + ["6C"] * 2
    )
    assert {"h:AS-s1", "h:AS-s2", "h:AS-s3", "h:AS-s4"} <= set(texts(game))
    game.play("h:AS-s1")
    assert game.sides[0][0] == ["QH", "AS"]
    assert game.to_move == 1


def test_ending_the_turn_is_always_possible_while_the_hand_holds_a_card() -> None:
    game = position(hands=[["7D"], ["2D"]])
    assert texts(game) == ["h:7D-s1", "h:7D-s2", "h:7D-s3", "h:7D-s4"]


def test_shuffle_comes_before_the_refill_when_one_play_does_both() -> None:
    stock = ["2C", "3C"]
    game = position(hands=[["QH"], ["2D"]], center=[ELEVEN], stock=stock, seed=8)
    game.play("h:QH-c1")
    expected = [*stock, *ELEVEN, "QH"]
    Rng(8).shuffle(expected)
    assert game.hands[0] == expected[::-1][:5]
    assert game.stock == expected[:-5]
    assert game.outcome is None and game.to_move == 0


# ---------------------------------------------------------------- never allowed


def test_side_stack_and_payoff_cards_never_go_on_a_side_stack() -> None:
    game = position(sides=[[["7C"]], None])
    for move in ["p-s1", "s1-s2", "s1-s1"]:
        err = refused(game, move)
        assert err.code == "bad_target"


@pytest.mark.parametrize(
    "text", ["c1-h", "stock-c1", "h:AS-h", "p-p", "c1-c2", "p2-c1", "o:s1-c1", "h:AS-o1"]
)
def test_other_piles_cannot_even_be_named(text: str) -> None:
    # back into the hand, from the stock, onto the opponent's piles, from under a top
    err = refused(position(), text)
    assert err.code == "bad_notation"


def test_the_opponents_hand_is_not_the_movers() -> None:
    game = position(hands=[["AS"], ["2C"]])
    assert refused(game, "h:2C-s1").code == "not_in_hand"


def test_no_play_once_the_game_is_over() -> None:
    game = position(payoffs=[["AS"], ["9D", "9D"]])
    game.play("p-c1")
    assert game.legal_moves() == []
    assert refused(game, "h:AS-s1").code == "game_over"


# ---------------------------------------------------------------- end of a game


def test_playing_the_last_payoff_card_wins_with_the_opponents_payoff_count() -> None:
    game = position(payoffs=[["5C", "AS"], ["9D", "8D", "7D"]], hands=[["2H"], ["2C"]])
    game.play("p-c1")
    assert game.outcome is None
    game.play("h:2H-c1")
    game = position(payoffs=[["AS"], ["9D", "8D", "7D"]], hands=[["2H"], ["2C"]])
    game.play("p-c1")
    assert game.outcome == Outcome(0, 3, "payoff_emptied")
    assert game.is_over


def test_the_winning_card_may_also_complete_a_stack() -> None:
    game = position(payoffs=[["QC"], ["9D", "8D"]], center=[ELEVEN], stock=["2C"])
    game.play("p-c1")
    assert game.outcome == Outcome(0, 2, "payoff_emptied")
    assert game.center[0] == []
    assert len(game.stock) == 13


def test_player_one_can_win_too() -> None:
    game = position(payoffs=[["9D"], ["KS"]], hands=[["AS"], ["2C"]], to_move=1)
    game.play("p-c2")
    assert game.outcome == Outcome(1, 1, "payoff_emptied")


def test_a_draw_owed_from_an_empty_stock_at_turn_start_is_a_tie() -> None:
    game = position(hands=[["AS"], ["2D"]], stock=[])
    game.play("h:AS-s1")
    assert game.outcome == Outcome(None, 0, "stock_depleted")
    assert game.legal_moves() == []


def test_drawing_the_last_card_exactly_is_not_yet_a_tie() -> None:
    game = position(hands=[["AS", "3S"], ["2D", "3D", "4D", "5D"]], stock=["9C"])
    game.play("h:AS-s1")
    assert game.outcome is None
    assert game.stock == [] and len(game.hands[1]) == 5
    game.play("h:2D-s1")  # now player 0 owes a draw and the stock is empty
    assert game.outcome == Outcome(None, 0, "stock_depleted")


def test_a_refill_that_runs_out_of_stock_is_a_tie() -> None:
    game = position(hands=[["AS"], ["2D"]], stock=["2C", "3C", "4C"])
    game.play("h:AS-c1")
    assert game.outcome == Outcome(None, 0, "stock_depleted")
    assert game.hands[0] == ["4C", "3C", "2C"]


def test_a_refill_that_takes_the_last_five_cards_is_not_a_tie() -> None:
    game = position(hands=[["AS"], ["2D"]], stock=["2C", "3C", "4C", "5C", "6C"])
    game.play("h:AS-c1")
    assert game.outcome is None and game.stock == [] and len(game.hands[0]) == 5


# ---------------------------------------------------------------- who starts


def test_the_higher_payoff_top_starts_and_player_zero_on_equal_ranks() -> None:
    seen = set()
    for seed in range(300):
        game = Game.new(seed=seed)
        r0, r1 = RANK[game.payoffs[0][-1]], RANK[game.payoffs[1][-1]]
        expected = 1 if r1 > r0 else 0
        assert game.to_move == expected
        seen.add((r0 > r1) - (r0 < r1))
    assert seen == {-1, 0, 1}


def test_kings_rank_highest_and_aces_lowest_for_who_starts() -> None:
    for seed in range(300):
        game = Game.new(seed=seed)
        tops = {game.payoffs[0][-1][0], game.payoffs[1][-1][0]}
        if tops == {"A", "K"}:
            assert game.payoffs[game.to_move][-1][0] == "K"
            return
    pytest.fail("no seed dealt an Ace against a King")


def test_first_player_overrides_who_starts() -> None:
    for seed in range(5):
        assert Game.new(seed=seed, first_player=1).to_move == 1
        assert Game.new(seed=seed, first_player=0).to_move == 0
    with pytest.raises(ValueError):
        Game.new(seed=1, first_player=2)


# ---------------------------------------------------------------- a match, and each knob


def test_knob_match_target() -> None:
    assert Rules().match_winner([50, 49]) == 0
    assert Rules().match_winner([12, 61]) == 1
    assert Rules().match_winner([49, 49]) is None
    assert Rules(match_target=10).match_winner([3, 10]) == 1


def test_knob_decks() -> None:
    rules = Rules(decks=1, payoff_size=10)
    game = Game.new(seed=2, rules=rules)
    cards = all_cards(game)
    assert len(cards) == 52 and len(set(cards)) == 52
    assert len(game.stock) == 52 - 20 - 10
    with pytest.raises(ValueError, match="appears 2 times"):
        position(hands=[["AS", "AS"], ["2C"]], rules=rules)
    assert len(all_cards(Game.new(seed=2, rules=Rules(decks=3)))) == 156


def test_knob_hand_size() -> None:
    rules = Rules(hand_size=3)
    game = Game.new(seed=2, rules=rules)
    assert [len(h) for h in game.hands] == [3, 3]
    game.play(next(m for m in game.legal_moves() if m.target == "side"))
    assert len(game.hands[game.to_move]) == 3
    game = position(hands=[["AS"], ["2D"]], stock=["2C", "3C", "4C", "5C"], rules=rules)
    game.play("h:AS-c1")
    assert game.hands[0] == ["5C", "4C", "3C"]


def test_knob_payoff_size() -> None:
    game = Game.new(seed=2, rules=Rules(payoff_size=7))
    assert [len(p) for p in game.payoffs] == [7, 7]
    assert len(game.stock) == 104 - 14 - 10


def test_knob_side_stacks() -> None:
    rules = Rules(side_stacks=2)
    game = position(hands=[["7D"], ["2D"]], rules=rules)
    assert texts(game) == ["h:7D-s1", "h:7D-s2"]
    assert refused(game, "h:7D-s3").code == "no_such_stack"
    assert Game.new(seed=1, rules=rules).sides == [[[], []], [[], []]]


def test_knob_center_stacks() -> None:
    rules = Rules(center_stacks=5)
    game = position(hands=[["AS"], ["2D"]], rules=rules)
    assert [t for t in texts(game) if "-c" in t] == [f"h:AS-c{i}" for i in range(1, 6)]
    assert Game.new(seed=1, rules=rules).center == [[]] * 5
    assert refused(position(hands=[["AS"], ["2D"]]), "h:AS-c4").code == "no_such_stack"


def test_knob_king_on_empty() -> None:
    game = position(hands=[["KS"], ["2D"]])
    assert "h:KS-c1" in texts(game)
    game = position(hands=[["KS"], ["2D"]], center=[["AH"]], rules=Rules(king_on_empty=False))
    assert [t for t in texts(game) if "-c" in t] == ["h:KS-c1"]
    err = refused(game, "h:KS-c2")
    assert err.code == "king_not_allowed"
    assert "only an Ace" in str(err)


def test_knob_refill_empty_hand_on() -> None:
    game = position(hands=[["AS"], ["2D"]], stock=["2C"] * 2 + ["3C"] * 2 + ["4C"])
    game.play("h:AS-c1")
    assert game.to_move == 0 and len(game.hands[0]) == 5
