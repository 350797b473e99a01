"""State data: Game.to_dict / Game.from_dict, their checks, and replay from seed + moves."""

import copy
import json
from typing import Any

import pytest

from engine import Game, Rules
from engine.rng import Rng

MINIMAL: dict[str, Any] = {
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


def play_out(game: Game, pick: int = 3) -> list[str]:
    moves = []
    while not game.is_over:
        legal = game.legal_moves()
        move = legal[(pick * (game.ply + 1)) % len(legal)]
        moves.append(str(move))
        game.play(move)
    return moves


def test_the_minimal_form_of_engine_md_is_accepted() -> None:
    game = Game.from_dict(MINIMAL)
    d = game.to_dict()
    for key in ("to_move", "players", "center", "stock", "rules", "seed"):
        assert key in d
    assert d["players"] == MINIMAL["players"]
    assert d["center"] == MINIMAL["center"] and d["stock"] == MINIMAL["stock"]
    assert d["seed"] == 11 and d["rules"] == Rules().to_dict()
    assert d["outcome"] is None and d["ply"] == 0 and d["rng"] == 11


def test_to_dict_is_json_and_does_not_share_lists() -> None:
    game = Game.new(seed=3)
    d = game.to_dict()
    assert json.loads(json.dumps(d)) == d
    d["players"][0]["hand"].clear()
    d["stock"].clear()
    assert len(game.hands[0]) == 5 and len(game.stock) == 54


def test_from_dict_does_not_share_the_callers_lists() -> None:
    data = copy.deepcopy(MINIMAL)
    game = Game.from_dict(data)
    game.play("h:AS-s1")
    assert data == MINIMAL


def test_round_trip_is_equal_and_plays_on_identically() -> None:
    game = Game.new(seed=123)
    for _ in range(30):
        game.play(game.legal_moves()[game.ply % 3])
    restored = Game.from_dict(game.to_dict())
    assert restored.to_dict() == game.to_dict()
    assert play_out(restored) == play_out(game)
    assert restored.to_dict() == game.to_dict()


def test_a_game_is_its_seed_plus_its_moves() -> None:
    original = Game.new(seed=2**64 - 5)
    moves = play_out(original)
    replay = Game.new(seed=2**64 - 5)
    for move in moves:
        replay.play(move)
    assert replay.to_dict() == original.to_dict()


def test_the_shuffler_state_is_restored_not_reseeded() -> None:
    eleven = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS"]
    data = copy.deepcopy(MINIMAL)
    data["players"][0]["hand"] = ["QD", "7C"]
    data["center"][0] = eleven
    data["rng"] = 987654321
    game = Game.from_dict(data)
    game.play("h:QD-c1")
    expected = [*MINIMAL["stock"], *eleven, "QD"]
    Rng.from_state(987654321).shuffle(expected)
    assert game.stock == expected


def test_without_seed_the_shuffler_starts_from_seed_zero() -> None:
    data = copy.deepcopy(MINIMAL)
    del data["seed"]
    game = Game.from_dict(data)
    assert game.seed == 0 and game.rng.state == Rng(0).state
    del data["rules"]
    assert Game.from_dict(data).rules == Rules()


def test_unknown_keys_are_ignored() -> None:
    data = {**copy.deepcopy(MINIMAL), "scores": [3, 4], "comment": "x"}
    assert Game.from_dict(data).to_dict() == Game.from_dict(MINIMAL).to_dict()


def test_a_finished_game_round_trips() -> None:
    game = Game.new(seed=8)
    play_out(game)
    d = game.to_dict()
    assert d["outcome"] is not None
    restored = Game.from_dict(d)
    assert restored.outcome == game.outcome and restored.legal_moves() == []
    won = Game.from_dict(
        {
            **copy.deepcopy(MINIMAL),
            "players": [
                {"hand": ["KD"], "payoff": [], "sides": [[], [], [], []]},
                {"hand": [], "payoff": ["4D"], "sides": [[], [], [], []]},
            ],
            "outcome": {"winner": 0, "points": 1, "reason": "payoff_emptied"},
        }
    )
    assert won.is_over and won.outcome is not None and won.outcome.points == 1


def broken(path: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(MINIMAL)
    target: Any = data
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is DELETE:
        del target[last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return data


DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("to_move", 2, "to_move"),
        ("to_move", True, "to_move"),
        ("to_move", DELETE, "to_move"),
        ("players", [], "two players"),
        ("players.0", "me", "players\\[0\\]"),
        ("players.0.hand", DELETE, "no 'hand'"),
        ("players.1.payoff", "4D", "players\\[1\\].payoff must be a list"),
        ("players.0.hand", ["AS", "1S"], "'1S', which is not a card code"),
        ("players.0.hand", ["AS", "as"], "not a card code"),
        ("players.1.hand", ["2C", "2D", "5S", "8H", "JD", "JH"], "a full hand is 5"),
        ("players.0.sides", [[], [], []], "4 stacks"),
        ("center", [[], []], "3 stacks"),
        ("center", DELETE, "center"),
        ("center.0", ["AH", "3S"], "center stack 1 is not a valid build"),
        ("center.1", ["2H"], "center stack 2 is not a valid build"),
        (
            "center.1",
            ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH"],
            "at most 11",
        ),
        ("stock", ["AS", "AS"], "AS appears 3 times"),
        ("stock", None, "stock"),
        ("seed", -1, "seed"),
        ("seed", "11", "seed"),
        ("rng", 2**64, "state"),
        ("ply", -3, "ply"),
        ("outcome", {"winner": 3, "points": 1, "reason": "payoff_emptied"}, "winner"),
        ("outcome", {"winner": None, "points": 2, "reason": "stock_depleted"}, "tie"),
        ("outcome", {"winner": 0, "points": 1, "reason": "resigned"}, "reason"),
        ("outcome", [], "outcome"),
        ("players.1.payoff", [], "payoff is empty"),
        ("players.0.hand", [], "hand is empty"),
        ("rules", {"jokers": 1}, "unknown rule"),
        ("rules", {"side_stacks": 3}, "3 stacks"),
    ],
)
def test_invalid_states_are_value_errors(path: str, value: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game.from_dict(broken(path, value))


def test_a_king_may_start_a_center_stack_only_under_king_on_empty() -> None:
    data = broken("center.1", ["KH", "2H"])
    assert Game.from_dict(data).center[1] == ["KH", "2H"]
    data["rules"] = {"king_on_empty": False}
    with pytest.raises(ValueError, match="center stack 2"):
        Game.from_dict(data)


def test_not_a_mapping() -> None:
    with pytest.raises(ValueError, match="mapping"):
        Game.from_dict([])  # type: ignore[arg-type]
