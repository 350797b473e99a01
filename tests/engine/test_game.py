"""Game: legal moves ("perft" positions), checked play, IllegalMove codes, copies."""

from typing import Any

import pytest

from engine import Game, IllegalMove, Move, Outcome, Rules
from engine.testing import position

ELEVEN = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]


def texts(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def refused(game: Game, move: str | Move) -> IllegalMove:
    before = game.to_dict()
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    assert game.to_dict() == before, "a refused move changed the state"
    return info.value


# ---------------------------------------------------------------- perft: exact move sets


def test_perft_opening_of_seed_1() -> None:
    game = Game.new(seed=1)
    assert game.to_move == 0
    assert sorted(game.hands[0]) == ["2D", "2S", "8D", "AH", "QC"]
    assert texts(game) == [
        "h:AH-c1",
        "h:AH-c2",
        "h:AH-c3",
        *[f"h:{c}-s{j}" for c in ["AH"] for j in range(1, 5)],
        *[f"h:{c}-s{j}" for c in ["2S", "2D", "8D", "QC"] for j in range(1, 5)],
    ]


def test_perft_the_engine_md_state() -> None:
    game = Game.from_dict(ENGINE_MD_STATE)
    assert texts(game) == [
        "h:AS-c2",
        "h:AS-c3",
        "h:AS-s1",
        "h:AS-s2",
        "h:AS-s3",
        "h:AS-s4",
        "h:KD-c1",
        "h:KD-c2",
        "h:KD-c3",
        "h:KD-s1",
        "h:KD-s2",
        "h:KD-s3",
        "h:KD-s4",
    ]


def test_perft_a_busy_position() -> None:
    game = position(
        hands=[["3H", "KC", "3D", "3H", "JD"], ["2C"]],
        payoffs=[["9C", "2C"], ["9D"]],
        sides=[[["5S", "AD"], [], ["TS"], ["QS", "KS"]], None],
        center=[["AH", "2H"], ["AC"], ELEVEN[:10]],
        stock=["5C"],
    )
    hand_moves = [
        f"h:{card}-{target}"
        for card, centers in [
            ("3H", ["c1"]),
            ("3D", ["c1"]),
            ("JD", ["c3"]),
            ("KC", ["c1", "c2", "c3"]),
        ]
        for target in [*centers, "s1", "s2", "s3", "s4"]
    ]
    # AD (s1) and TS (s3) fit no stack; the KS on s4 fits every one
    assert texts(game) == ["p-c2", "s4-c1", "s4-c2", "s4-c3", *hand_moves]


def test_perft_without_king_on_empty() -> None:
    game = position(
        hands=[["KC"], ["2C"]],
        payoffs=[["KD"], ["9D"]],
        sides=[[["KH"]], None],
        center=[["AH"]],
        rules=Rules(king_on_empty=False),
    )
    assert texts(game) == ["p-c1", "s1-c1", "h:KC-c1", "h:KC-s1", "h:KC-s2", "h:KC-s3", "h:KC-s4"]


def test_perft_counts_along_a_seeded_game() -> None:
    game = Game.new(seed=2024)
    counts = []
    for _ in range(12):
        moves = game.legal_moves()
        counts.append(len(moves))
        game.play(moves[len(moves) // 2])
    assert counts == PERFT_2024


PERFT_2024 = [20, 29, 20, 29, 20, 29, 20, 29, 23, 29, 23, 29]  # golden, from this engine

ENGINE_MD_STATE: dict[str, Any] = {
    "to_move": 0,
    "players": [
        {"hand": ["AS", "KD"], "payoff": ["3C", "7H"], "sides": [["9S"], [], [], []]},
        {"hand": ["2C", "2D", "5S", "8H", "JD"], "payoff": ["4D"], "sides": [[], [], [], []]},
    ],
    "center": [["AH", "2S"], [], []],
    "stock": ["5D", "QC", "6H"],
    "rules": {"king_on_empty": True},
    "seed": 11,
}


def test_legal_moves_lists_each_move_once_even_with_two_equal_cards() -> None:
    game = position(hands=[["AS", "AS"], ["2C"]])
    moves = texts(game)
    assert len(moves) == len(set(moves)) == 3 + 4


def test_legal_moves_do_not_depend_on_hand_order() -> None:
    a = position(hands=[["7D", "AS", "KD"], ["2C"]])
    b = position(hands=[["KD", "7D", "AS"], ["2C"]])
    assert texts(a) == texts(b)


# ---------------------------------------------------------------- every IllegalMove code


def test_code_bad_notation() -> None:
    err = refused(position(), "h:AS-x1")
    assert (err.code, err.params) == ("bad_notation", {"text": "h:AS-x1"})


def test_code_game_over() -> None:
    game = position(payoffs=[["AS"], ["9D"]])
    game.play("p-c1")
    err = refused(game, "h:AS-s1")
    assert (err.code, err.params) == ("game_over", {})
    assert "over" in str(err)


def test_code_not_in_hand() -> None:
    err = refused(position(hands=[["AS"], ["2C"]]), "h:7D-c1")
    assert (err.code, err.params) == ("not_in_hand", {"card": "7D"})
    assert str(err) == "7D is not in your hand"


@pytest.mark.parametrize(
    ("move", "stack", "message"),
    [
        ("h:AS-c4", "c4", "there is no center stack 4: the center stacks are c1 to c3"),
        ("h:AS-s5", "s5", "there is no side stack 5: the side stacks are s1 to s4"),
        ("s7-c1", "s7", "there is no side stack 7: the side stacks are s1 to s4"),
        ("p-c10", "c10", "there is no center stack 10: the center stacks are c1 to c3"),
    ],
)
def test_code_no_such_stack(move: str, stack: str, message: str) -> None:
    err = refused(position(hands=[["AS"], ["2C"]]), move)
    assert err.code == "no_such_stack"
    assert err.params["stack"] == stack
    assert str(err) == message


def test_code_empty_stack() -> None:
    err = refused(position(), "s2-c1")
    assert (err.code, err.params) == ("empty_stack", {"stack": "s2"})
    assert str(err) == "side stack 2 is empty: there is no card to play from it"


def test_code_wrong_rank() -> None:
    center = [["AH"], ["AS", "2S", "3S", "4S", "5S"], ["AD"]]
    err = refused(position(hands=[["7D"], ["2C"]], center=center), "h:7D-c2")
    assert err.code == "wrong_rank"
    assert err.params == {"card": "7D", "stack": "c2", "stands_for": 5, "needed": "6"}
    assert str(err) == "7D cannot go on center stack 2: it stands at 5 and needs a 6 (or a King)"


def test_code_wrong_rank_messages_name_the_ranks() -> None:
    game = position(hands=[["7D"], ["2C"]], payoffs=[["9C"], ["9D"]], center=[ELEVEN[:10]])
    err = refused(game, "h:7D-c1")
    assert str(err) == (
        "7D cannot go on center stack 1: it stands at 10 and needs a Jack (or a King)"
    )
    assert err.params["needed"] == "J"
    err = refused(game, "p-c2")
    assert str(err) == "9C cannot go on center stack 2: it is empty and needs an Ace (or a King)"
    assert err.params == {"card": "9C", "stack": "c2", "stands_for": 0, "needed": "A"}
    game = position(hands=[["7D"], ["2C"]], sides=[[["8C"]], None], rules={"king_on_empty": False})
    err = refused(game, "s1-c3")
    assert str(err) == "8C cannot go on center stack 3: it is empty and needs an Ace"


def test_code_king_not_allowed() -> None:
    game = position(hands=[["KS"], ["2C"]], rules=Rules(king_on_empty=False))
    err = refused(game, "h:KS-c1")
    assert err.code == "king_not_allowed"
    assert err.params == {"card": "KS", "stack": "c1"}
    assert str(err) == (
        "KS cannot start center stack 1: under these rules an empty center stack takes only an Ace"
    )


@pytest.mark.parametrize("move", ["p-s1", "s1-s2", "p-s9"])
def test_code_bad_target(move: str) -> None:
    err = refused(position(sides=[[["7C"]], None]), move)
    assert err.code == "bad_target"
    assert err.params == {"origin": move.split("-")[0], "stack": move.split("-")[1]}
    assert "only cards from your hand go there" in str(err)


# ---------------------------------------------------------------- play, check, copies


def test_play_takes_a_move_or_its_text() -> None:
    a, b = position(hands=[["AS"], ["2C"]]), position(hands=[["AS"], ["2C"]])
    a.play("h:AS-c1")
    b.play(Move.parse("h:AS-c1"))
    assert a.to_dict() == b.to_dict()
    assert a.ply == 1


def test_check_returns_the_parsed_move_or_raises() -> None:
    game = position(hands=[["AS"], ["2C"]])
    assert game.check("h:AS-c1") == Move("h:AS-c1")
    with pytest.raises(IllegalMove):
        game.check("h:2C-c1")


def test_copy_is_independent_and_plays_on_identically() -> None:
    game = Game.new(seed=77)
    twin = game.copy()
    game.play(game.legal_moves()[-1])
    assert twin.to_dict() == Game.new(seed=77).to_dict()
    # two copies of one state play on identically, shuffles included
    a = Game.new(seed=5)
    for _ in range(7):
        a.play(a.legal_moves()[0])
    b = a.copy()
    for g in (a, b):
        while not g.is_over:
            g.play(g.legal_moves()[0])
    assert a.to_dict() == b.to_dict()


def test_push_unchecked_is_play_without_the_checks() -> None:
    a, b = Game.new(seed=31), Game.new(seed=31)
    for i in range(40):
        if a.is_over:
            break
        moves = a.legal_moves()
        move = moves[(i * 7) % len(moves)]
        a.play(move)
        b.push_unchecked(move)
        assert a.to_dict() == b.to_dict()


def test_outcome_is_data_and_is_over_derives_from_it() -> None:
    game = position(payoffs=[["AS"], ["9D", "8D"]])
    assert game.outcome is None and not game.is_over
    game.play("p-c1")
    assert game.outcome == Outcome(winner=0, points=2, reason="payoff_emptied")
    assert game.is_over
    assert game.outcome.to_dict() == {"winner": 0, "points": 2, "reason": "payoff_emptied"}


def test_repr() -> None:
    assert repr(Game.new(seed=3, first_player=0)) == "<Game seed=3 ply=0 to_move=0>"
