"""Views: what each player (and a spectator) may see; games rebuilt from a view."""

import json
from collections import Counter
from typing import Any

import pytest

from engine import Game, Rules
from engine.cards import full_deck
from engine.testing import position

REQUIRED = {"seat", "to_move", "legal_moves", "players", "center", "stock_size", "outcome"}
PLAYER_KEYS = {"hand", "hand_size", "payoff_top", "payoff_size", "sides"}


def played(seed: int, plies: int) -> Game:
    game = Game.new(seed=seed)
    for _ in range(plies):
        if game.is_over:
            break
        moves = game.legal_moves()
        game.play(moves[(game.ply * 5) % len(moves)])
    return game


def test_the_documented_keys() -> None:
    game = played(4, 9)
    for viewer in (0, 1, None):
        view = game.view(viewer)
        assert set(view) >= REQUIRED
        assert json.loads(json.dumps(view)) == view
        assert view["seat"] == viewer and view["to_move"] == game.to_move
        for p, info in enumerate(view["players"]):
            assert set(info) >= PLAYER_KEYS
            assert info["hand_size"] == len(game.hands[p])
            assert info["payoff_top"] == game.payoffs[p][-1]
            assert info["payoff_size"] == len(game.payoffs[p])
            assert info["sides"] == game.sides[p]
        assert view["center"] == [{"cards": s, "stands_for": len(s)} for s in game.center]
        assert view["stock_size"] == len(game.stock)
        assert view["outcome"] is None
        assert view["rules"] == Rules().to_dict()


def test_own_hand_sorted_opponent_hand_hidden() -> None:
    game = position(hands=[["KD", "7C", "AS", "7H"], ["2C", "3C"]])
    view = game.view(0)
    assert view["players"][0]["hand"] == ["AS", "7H", "7C", "KD"]
    assert view["players"][1]["hand"] is None and view["players"][1]["hand_size"] == 2
    assert game.view(1)["players"][0]["hand"] is None
    assert game.view(1)["players"][1]["hand"] == ["2C", "3C"]


def test_spectators_see_no_hand() -> None:
    view = played(2, 5).view(None)
    assert [info["hand"] for info in view["players"]] == [None, None]
    assert view["legal_moves"] == []


def test_legal_moves_only_for_the_player_to_move() -> None:
    game = position(hands=[["AS"], ["2C"]])
    assert game.view(0)["legal_moves"] == [str(m) for m in game.legal_moves()]
    assert game.view(1)["legal_moves"] == []
    game = position(payoffs=[["AS"], ["9D"]])
    game.play("p-c1")
    assert game.view(0)["legal_moves"] == []
    assert game.view(0)["outcome"] == {"winner": 0, "points": 1, "reason": "payoff_emptied"}
    assert game.view(0)["players"][0]["payoff_top"] is None


def test_a_king_on_top_shows_what_it_stands_for() -> None:
    game = position(center=[["AH", "2S", "KD"]])
    assert game.view(None)["center"][0] == {"cards": ["AH", "2S", "KD"], "stands_for": 3}


def test_no_secret_is_in_any_view() -> None:
    game = played(11, 3)
    text = json.dumps(game.view(0))
    assert str(game.rng.state) not in text and "seed" not in text and "rng" not in text
    assert "stock" not in {k for k in game.view(0) if k != "stock_size"}


def test_bad_viewers() -> None:
    for viewer in (2, -1, True, "0"):
        with pytest.raises(ValueError):
            Game.new(seed=1).view(viewer)  # type: ignore[arg-type]


def test_views_ignore_what_the_viewer_cannot_see() -> None:
    base: dict[str, Any] = {
        "to_move": 0,
        "players": [
            {"hand": ["AS", "KD"], "payoff": ["3C", "7H"], "sides": [["9S"], [], [], []]},
            {"hand": ["2C", "2D"], "payoff": ["4D", "6C"], "sides": [[], [], [], []]},
        ],
        "center": [["AH", "2S"], [], []],
        "stock": ["5D", "QC", "6H"],
        "seed": 11,
    }
    other = json.loads(json.dumps(base))
    other["players"][1]["hand"] = ["8H", "JD"]
    other["players"][0]["payoff"][0] = "TC"
    other["players"][1]["payoff"][0] = "TD"
    other["stock"] = ["6H", "5D", "QC"]
    other["seed"] = 99
    other["rng"] = 12345
    a, b = Game.from_dict(base), Game.from_dict(other)
    assert a.view(0) == b.view(0)
    assert a.view(None) == b.view(None)
    assert a.view(1) != b.view(1)  # player 1 sees their own hand


# ---------------------------------------------------------------- from_view


def test_from_view_gives_a_game_with_the_same_view() -> None:
    for viewer in (0, 1, None):
        game = played(21, 40)
        view = game.view(viewer)
        sample = Game.from_view(view, seed=5)
        assert sample.view(viewer) == view
        cards = sample.to_dict()
        pile = list(cards["stock"])
        for info in cards["players"]:
            pile += info["hand"] + info["payoff"] + [c for s in info["sides"] for c in s]
        pile += [c for s in cards["center"] for c in s]
        assert Counter(pile) == Counter(full_deck(2))


def test_from_view_deals_the_hidden_cards_by_seed() -> None:
    game = played(21, 40)
    view = game.view(game.to_move)
    a, b, c = (Game.from_view(view, seed=s).to_dict() for s in (1, 1, 2))
    assert a == b and a != c
    assert Game.from_view(view, seed=1).legal_moves() == game.legal_moves()


def test_from_view_refuses_an_impossible_view() -> None:
    view = played(3, 2).view(0)
    view["stock_size"] = 500
    with pytest.raises(ValueError, match="hides more cards"):
        Game.from_view(view)
