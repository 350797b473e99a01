"""Resampling the hidden cards: every world agrees with the view it came from."""

from collections import Counter

import pytest

from engine import Game, bot
from engine.bots.sampling import disagreements, worlds
from engine.cards import CARDS
from engine.rng import Rng
from engine.rules import Rules


def positions() -> list[tuple[Game, int]]:
    out = []
    for seed in (1, 2, 3):
        game = Game.new(seed=seed)
        players = [bot("greedy", 1), bot("greedy", 2)]
        while not game.is_over and game.ply < 25 * seed:
            p = game.to_move
            game.play(players[p].choose(game, p))
        if not game.is_over:
            out.append((game, game.to_move))
            out.append((game, 1 - game.to_move))
    return out


@pytest.mark.parametrize(("game", "player"), positions())
def test_every_world_agrees_with_the_view(game: Game, player: int) -> None:
    view = game.view(player)
    samples = worlds(view, Rng(7), 12)
    assert len(samples) == 12
    for world in samples:
        assert disagreements(view, world) == []
        assert world.view(player) == view
        # the whole deck, each code exactly `decks` times
        cards = Counter(world.stock)
        for p in (0, 1):
            cards.update(world.hands[p])
            cards.update(world.payoffs[p])
            for side in world.sides[p]:
                cards.update(side)
        for stack in world.center:
            cards.update(stack)
        assert sum(cards.values()) == 52 * world.rules.decks
        assert all(cards[c] == world.rules.decks for c in CARDS)
        # what the viewer sees is unchanged; counts are equal
        assert sorted(world.hands[player]) == sorted(game.hands[player])
        assert len(world.hands[1 - player]) == len(game.hands[1 - player])
        assert [len(x) for x in world.payoffs] == [len(x) for x in game.payoffs]
        assert [x[-1] for x in world.payoffs] == [x[-1] for x in game.payoffs]
        assert world.sides == game.sides and world.center == game.center
        assert len(world.stock) == len(game.stock)
    # the hidden cards really are resampled
    assert len({tuple(w.stock) for w in samples}) > 1
    assert len({tuple(sorted(w.hands[1 - player])) for w in samples}) > 1


def test_disagreements_catch_a_bad_deal() -> None:
    game = Game.new(seed=4)
    view = game.view(0)
    world = worlds(view, Rng(1), 1)[0]
    world.payoffs[1][-1], world.stock[-1] = world.stock[-1], world.payoffs[1][-1]
    assert any("pay-off top" in p for p in disagreements(view, world))
    world = worlds(view, Rng(1), 1)[0]
    world.stock.pop()
    problems = disagreements(view, world)
    assert any("stock holds" in p for p in problems)
    assert any("deck is not whole" in p for p in problems)
    world = worlds(view, Rng(1), 1)[0]
    world.hands[1].append(world.stock.pop())
    assert any("holds 6 cards" in p for p in disagreements(view, world))


def test_worlds_follow_the_rules_of_the_view() -> None:
    game = Game.new(seed=5, rules=Rules(decks=1, payoff_size=5))
    view = game.view(game.to_move)
    for world in worlds(view, Rng(3), 5):
        assert world.rules == game.rules
        assert disagreements(view, world) == []


def test_worlds_are_deterministic_for_a_generator_seed() -> None:
    view = Game.new(seed=6).view(0)
    a = [w.to_dict() for w in worlds(view, Rng(9), 4)]
    b = [w.to_dict() for w in worlds(view, Rng(9), 4)]
    assert a == b
