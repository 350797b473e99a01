"""Hypothesis: random legal games under random knobs keep every invariant."""

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Game, IllegalMove, Move, Rules
from engine.cards import CARDS, KING, RANK, full_deck
from engine.moves import GRAMMAR
from engine.rng import Rng

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rules(draw: st.DrawFn) -> Rules:
    decks = draw(st.integers(1, 2))
    hand_size = draw(st.integers(1, 7))
    payoff_size = draw(st.integers(1, (decks * 52 - 2 * hand_size) // 2))
    return Rules(
        decks=decks,
        hand_size=hand_size,
        payoff_size=min(payoff_size, 20),
        side_stacks=draw(st.integers(1, 5)),
        center_stacks=draw(st.integers(1, 5)),
        king_on_empty=draw(st.booleans()),
        refill_empty_hand=draw(st.booleans()),
    )


any_rules = st.one_of(st.just(Rules()), rules())
seeds = st.integers(0, 2**64 - 1)
picks = st.lists(st.integers(0, 2**16), min_size=1, max_size=300)


def step(game: Game, pick: int) -> None:
    moves = game.legal_moves()
    game.play(moves[pick % len(moves)])


def cards_of(game: Game) -> Counter[str]:
    d = game.to_dict()
    cards = Counter(d["stock"])
    for p in d["players"]:
        cards.update(p["hand"] + p["payoff"] + [c for s in p["sides"] for c in s])
    cards.update(c for s in d["center"] for c in s)
    return cards


def check_invariants(game: Game) -> None:
    r = game.rules
    assert cards_of(game) == Counter(full_deck(r.decks))
    for stack in game.center:
        assert len(stack) < 12
        for k, card in enumerate(stack):
            assert RANK[card] in (k + 1, KING)
    assert all(len(h) <= r.hand_size for h in game.hands)
    if game.outcome is None:
        assert game.hands[game.to_move], "a live player to move holds a card"
        assert game.legal_moves(), "a live state always has a legal move"
        assert all(game.payoffs)
    else:
        assert game.legal_moves() == []


@SETTINGS
@given(any_rules, seeds, picks)
def test_random_legal_games_keep_every_card(rules: Rules, seed: int, choices: list[int]) -> None:
    game = Game.new(seed=seed, rules=rules)
    check_invariants(game)
    for pick in choices:
        if game.is_over:
            break
        step(game, pick)
        check_invariants(game)


@SETTINGS
@given(any_rules, seeds, picks, st.integers(0, 300))
def test_round_trip_then_play_on_identically(
    rules: Rules, seed: int, choices: list[int], cut: int
) -> None:
    game = Game.new(seed=seed, rules=rules)
    for pick in choices[:cut]:
        if game.is_over:
            break
        step(game, pick)
    restored = Game.from_dict(game.to_dict())
    assert restored.to_dict() == game.to_dict()
    # play on to the end; completed stacks reshuffle the stock on both sides alike
    for i in range(2000):
        if game.is_over:
            break
        pick = choices[i % len(choices)] + i
        step(game, pick)
        step(restored, pick)
        assert restored.to_dict() == game.to_dict()


def hide_and_reshuffle(game: Game, viewer: int | None, rng: Rng) -> Game:
    """A game that differs from ``game`` only in what ``viewer`` cannot see."""
    d: dict[str, Any] = game.to_dict()
    hidden_hands = [p for p in (0, 1) if p != viewer]
    pool = list(d["stock"])
    for p in hidden_hands:
        pool += d["players"][p]["hand"]
    for p in (0, 1):
        pool += d["players"][p]["payoff"][:-1]
    rng.shuffle(pool)
    for p in hidden_hands:
        n = len(d["players"][p]["hand"])
        d["players"][p]["hand"], pool = pool[:n], pool[n:]
    for p in (0, 1):
        payoff = d["players"][p]["payoff"]
        n = len(payoff) - 1
        if n > 0:
            payoff[:-1], pool = pool[:n], pool[n:]
    d["stock"] = pool
    d["seed"] = rng.next64()
    d["rng"] = rng.next64()
    return Game.from_dict(d)


@SETTINGS
@given(any_rules, seeds, picks, st.integers(0, 2**32), st.sampled_from([0, 1, None]))
def test_views_ignore_hidden_cards_and_the_shuffler(
    rules: Rules, seed: int, choices: list[int], other: int, viewer: int | None
) -> None:
    game = Game.new(seed=seed, rules=rules)
    for pick in choices:
        if game.is_over:
            break
        step(game, pick)
    twin = hide_and_reshuffle(game, viewer, Rng(other))
    assert twin.view(viewer) == game.view(viewer)
    sample = Game.from_view(game.view(viewer), seed=other)
    assert sample.view(viewer) == game.view(viewer)


def candidates(game: Game, extra: list[str]) -> list[str]:
    r = game.rules
    sides = [f"s{j}" for j in range(1, r.side_stacks + 2)]
    centers = [f"c{i}" for i in range(1, r.center_stacks + 2)]
    cards = sorted(set(game.hands[game.to_move]) | set(CARDS[::7]))
    origins = ["p", *sides, *(f"h:{c}" for c in cards)]
    return [f"{o}-{t}" for o in origins for t in centers + sides] + extra


@SETTINGS
@given(
    any_rules,
    seeds,
    picks,
    st.lists(st.from_regex(GRAMMAR, fullmatch=True), max_size=5),
)
def test_legal_moves_play_and_every_other_move_is_refused_unchanged(
    rules: Rules, seed: int, choices: list[int], extra: list[str]
) -> None:
    game = Game.new(seed=seed, rules=rules)
    for pick in choices:
        if game.is_over:
            break
        step(game, pick)
    legal = {str(m) for m in game.legal_moves()}
    before = game.to_dict()
    for text in candidates(game, extra):
        trial = Game.from_dict(before)
        if text in legal:
            trial.play(text)
            assert trial.ply == game.ply + 1
        else:
            try:
                trial.play(text)
            except IllegalMove as err:
                assert err.code != "bad_notation"
                assert err.code in CODES
                assert str(err)
            else:
                raise AssertionError(f"{text} played but is not in legal_moves()")
            assert trial.to_dict() == before
    for move in game.legal_moves():
        assert game.check(move) is move or game.check(move) == move
    assert game.to_dict() == before
    assert len(legal) == len(game.legal_moves())
    assert all(Move.parse(t) in game.legal_moves() for t in legal)


CODES = {
    "game_over",
    "not_in_hand",
    "no_such_stack",
    "empty_stack",
    "wrong_rank",
    "king_not_allowed",
    "bad_target",
}
