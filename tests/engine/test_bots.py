"""Bots: the registry, the random bot, and the determinism law of ENGINE.md."""

import json
from collections.abc import Iterator
from typing import Any

import pytest

from engine import Game, Move, bot
from engine.bots import REGISTRY, BaseBot, names, register
from engine.testing import position


def test_the_registry_holds_random() -> None:
    assert "random" in names()
    assert bot("random").choose(Game.new(seed=1), Game.new(seed=1).to_move) in (
        Game.new(seed=1).legal_moves()
    )


def test_unknown_bot_names_are_value_errors() -> None:
    with pytest.raises(ValueError, match=r"unknown bot 'nope'; the bots are: .*random"):
        bot("nope")
    with pytest.raises(ValueError):
        bot("random", seed=-1)


def test_choose_for_a_player_not_to_move_is_a_value_error() -> None:
    game = Game.new(seed=1)
    with pytest.raises(ValueError, match="not to move"):
        bot("random").choose(game, 1 - game.to_move)
    with pytest.raises(ValueError):
        bot("random").choose(game, 2)


def test_choose_once_the_game_is_over_is_a_value_error() -> None:
    game = position(payoffs=[["AS"], ["9D"]])
    game.play("p-c1")
    with pytest.raises(ValueError, match="over"):
        bot("random").choose(game, 0)


def test_random_bot_plays_whole_games_legally_and_deterministically() -> None:
    def run(seed: int) -> list[str]:
        game = Game.new(seed=seed)
        players = [bot("random", seed=1), bot("random", seed=2)]
        moves = []
        while not game.is_over:
            move = players[game.to_move].choose(game, game.to_move)
            assert move in game.legal_moves()
            moves.append(str(move))
            game.play(move)
        return moves

    assert run(6) == run(6)


def test_equal_views_give_equal_choices() -> None:
    base: dict[str, Any] = {
        "to_move": 0,
        "players": [
            {"hand": ["AS", "KD", "7C"], "payoff": ["3C", "7H"], "sides": [["9S"], [], [], []]},
            {"hand": ["2C", "2D"], "payoff": ["4D", "6C"], "sides": [[], [], [], []]},
        ],
        "center": [["AH", "2S"], [], []],
        "stock": ["5D", "QC", "6H"],
        "seed": 11,
    }
    other = json.loads(json.dumps(base))
    other["players"][1]["hand"] = ["8H", "JD"]
    other["players"][0]["payoff"][0] = "TC"
    other["stock"].reverse()
    other["seed"] = 3
    a, b = Game.from_dict(base), Game.from_dict(other)
    assert a.view(0) == b.view(0)
    for seed in range(20):
        assert bot("random", seed).choose(a, 0) == bot("random", seed).choose(b, 0)


def test_seeds_matter() -> None:
    game = Game.new(seed=4)
    chosen = {bot("random", seed).choose(game, game.to_move) for seed in range(30)}
    assert len(chosen) > 5


@pytest.fixture
def scratch_registry() -> Iterator[None]:
    saved = dict(REGISTRY)
    yield
    REGISTRY.clear()
    REGISTRY.update(saved)


@pytest.mark.usefixtures("scratch_registry")
def test_new_bots_register_by_name() -> None:
    @register("first")
    class FirstBot(BaseBot):
        def choose_from_view(self, view: dict[str, Any]) -> Move:
            return Move.parse(view["legal_moves"][0])

    game = Game.new(seed=1)
    assert "first" in names()
    assert bot("first").choose(game, game.to_move) == game.legal_moves()[0]
    assert repr(bot("first", 7)) == "bot('first', seed=7)"
    with pytest.raises(ValueError, match="already registered"):
        register("first")(FirstBot)


# ---------------------------------------------------------------------- every bot

SMALL: dict[str, dict[str, Any]] = {"expert": {"samples": 4, "nodes": 300, "budget": 1200}}


def midgame_positions() -> list[Game]:
    out = []
    for seed in (3, 8, 13):
        game = Game.new(seed=seed)
        players = [bot("greedy", 5), bot("random", 6)]
        while not game.is_over and game.ply < 10 + 9 * seed:
            p = game.to_move
            game.play(players[p].choose(game, p))
        assert not game.is_over
        out.append(game)
    return out


@pytest.mark.parametrize("name", ["random", "greedy", "expert"])
def test_bots_see_only_the_view(name: str) -> None:
    """Two games that differ only in hidden cards get the same move from fresh bots."""
    for game in midgame_positions():
        p = game.to_move
        view = game.view(p)
        for deal in (1, 2):
            other = Game.from_view(view, seed=deal)
            assert other.view(p) == view
            assert other.hands[1 - p] != game.hands[1 - p] or other.stock != game.stock
            for seed in (0, 1):
                a = bot(name, seed, **SMALL.get(name, {})).choose(game, p)
                b = bot(name, seed, **SMALL.get(name, {})).choose(other, p)
                assert a == b
                assert a in game.legal_moves()


@pytest.mark.parametrize("name", ["random", "greedy", "expert"])
def test_every_bot_refuses_a_player_not_to_move(name: str) -> None:
    game = midgame_positions()[0]
    with pytest.raises(ValueError, match="not to move"):
        bot(name, **SMALL.get(name, {})).choose(game, 1 - game.to_move)


@pytest.mark.parametrize("name", ["greedy", "expert"])
def test_every_bot_is_deterministic_for_a_seed(name: str) -> None:
    for game in midgame_positions():
        p = game.to_move
        first = [bot(name, s, **SMALL.get(name, {})).choose(game, p) for s in range(3)]
        again = [bot(name, s, **SMALL.get(name, {})).choose(game.copy(), p) for s in range(3)]
        assert first == again


def test_bot_options_are_checked() -> None:
    assert bot("expert", 1, samples=3).samples == 3  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="bad options"):
        bot("greedy", 1, nope=3)
    with pytest.raises(ValueError, match="samples"):
        bot("expert", 1, samples=0)
