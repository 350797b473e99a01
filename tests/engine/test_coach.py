"""The expert as a teacher (engine/coach.py): hints are the expert's own choice from the
player's view, reasons say what the expert computed, estimates tell a good play from a bad one
on fixed positions, and a review marks a planted blunder and never the expert's own moves."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game, Move, Rules, bot, coach
from engine.testing import feeding_the_last_card, missed_win, position

FAST = {"samples": 4, "nodes": 400, "budget": 1500}


def mid_game(seed: int, plies: int, rules: Rules | None = None) -> Game:
    game = Game.new(seed=seed, rules=rules or Rules())
    players = (bot("greedy", seed), bot("random", seed))
    for _ in range(plies):
        if game.is_over:
            break
        game.play(players[game.to_move].choose(game, game.to_move))
    return game


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_hint_is_the_move_the_experts_choose_plays(seed: int) -> None:
    game = mid_game(seed, 10 + seed)
    seat = game.to_move
    advice = coach.hint(game.view(seat), seed=seed, **FAST)
    assert advice.move == bot("expert", seed, **FAST).choose(game, seat)
    assert advice.line[0] == advice.move
    assert all(isinstance(m, Move) for m in advice.line)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_hint_reads_only_the_players_view(seed: int) -> None:
    """Two games that differ only in what the player cannot see (the opponent's hand, the
    cards under the pay-off tops, the stock's order) give the same hint with the same seed."""
    game = mid_game(seed, 14)
    seat = game.to_move
    view = game.view(seat)
    other = Game.from_view(view, seed=seed + 1000)
    assert other.to_dict() != game.to_dict()
    assert other.view(seat) == view
    assert coach.hint(other.view(seat), seed=3, **FAST) == coach.hint(view, seed=3, **FAST)


def test_a_hint_when_the_player_is_not_to_move_is_a_value_error() -> None:
    game = Game.new(seed=1)
    with pytest.raises(ValueError, match="not to move"):
        coach.hint(game.view(1 - game.to_move))


def reason(view: dict[str, Any], *line: str) -> tuple[str, dict[str, Any]] | None:
    found = coach.explain(view, [Move.parse(m) for m in line])
    return None if found is None else (found.key, found.params)


def test_the_reasons_say_what_the_expert_computed() -> None:
    payoff = position(
        hands=[["9S", "JD"], ["2C"]], payoffs=[["7C", "4C", "3H"], ["QD"]], center=[["AH", "2S"]]
    )
    assert reason(payoff.view(0), "p-c1") == ("payoff_top", {"left": 2})
    assert reason(missed_win().view(0), "p-c1") == ("wins", {})
    opens = position(
        hands=[["3D", "9S"], ["2C"]], payoffs=[["7C", "4H"], ["QD"]], center=[["AH", "2S"]]
    )
    assert reason(opens.view(0), "h:3D-c1", "p-c1") == ("opens_payoff", {"top": "4H"})
    king = position(
        hands=[["KD", "9S"], ["2C"]], payoffs=[["7C", "4H"], ["QD"]], center=[["AH", "2S"]]
    )
    assert reason(king.view(0), "h:KD-c1", "p-c1") == ("king_for_payoff", {"rank": 3, "top": "4H"})
    full = position(
        hands=[["QD", "9S"], ["2C"]],
        payoffs=[["7C"], ["8D"]],
        center=[["AH", "2S", "3D", "4C", "5H", "6S", "7D", "8C", "9H", "TS", "JC"]],
    )
    assert reason(full.view(0), "h:QD-c1") == ("completes_stack", {"stack": 1})
    last = position(hands=[["3D"], ["2C"]], payoffs=[["7C"], ["QD"]], center=[["AH", "2S"]])
    assert reason(last.view(0), "h:3D-c1") == ("refill", {})
    side = position(hands=[["9S"], ["2C"]], payoffs=[["7C"], ["QD"]], sides=[[["TD"]], None])
    assert reason(side.view(0), "h:9S-s1") == ("discard_run", {"card": "9S", "onto": "TD"})
    assert reason(feeding_the_last_card().view(0), "h:9D-s1") == (
        "holds_back",
        {"card": "6S", "top": "7H"},
    )


def test_a_warning_names_what_the_played_move_gave_away() -> None:
    view = feeding_the_last_card().view(0)
    found = coach.warn(view, Move.parse("h:6S-c1"))
    assert found == coach.Reason("feeds_opponent", {"top": "7H"})
    assert coach.warn(view, Move.parse("h:9D-s1")) is None
    missed = coach.warn(missed_win().view(0), Move.parse("h:9S-s1"))
    assert missed == coach.Reason("missed_payoff", {"top": "3H"})


def test_the_estimate_tells_the_winning_play_from_a_discard() -> None:
    view = missed_win().view(0)
    win, discard = coach.chances(view, [[Move.parse("p-c1")], [Move.parse("h:9S-s1")]], playouts=16)
    assert (win, discard) == (1.0, 0.0)


def test_the_estimate_tells_holding_a_card_back_from_feeding_the_opponent() -> None:
    """Careful rollouts keep the 6 back in every world: the discard is worth far more. Random
    rollouts tell much less (the opponent hardly ever plays its pay-off top), and the plain
    greedy bot would feed the opponent a turn later anyway."""
    view = feeding_the_last_card().view(0)
    lines = [[Move.parse("h:9D-s1")], [Move.parse("h:6S-c1")]]
    hold, feed = coach.chances(view, lines, playouts=32)
    assert feed == 0.0
    assert hold >= 0.5
    rand_hold, rand_feed = coach.chances(view, lines, playouts=32, policy="random")
    assert rand_hold - rand_feed < hold - feed
    found = coach.compare(view, *[line[0] for line in lines], playouts=32)
    assert found.difference == pytest.approx(hold - feed)
    assert 0 < found.error < found.difference / 4


def test_estimates_are_deterministic_and_bad_budgets_are_value_errors() -> None:
    view = feeding_the_last_card().view(0)
    lines = [[Move.parse("h:9D-s1")]]
    assert coach.chances(view, lines, playouts=4, seed=2) == coach.chances(
        view, lines, playouts=4, seed=2
    )
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="playouts"):
            coach.chances(view, lines, playouts=bad)  # type: ignore[arg-type]


def test_moves_of_the_same_effect_agree() -> None:
    view = feeding_the_last_card().view(0)
    same = position(hands=[["9S", "9D", "2C"], ["2C"]], payoffs=[["7C"], ["QD"]])
    assert coach.same_effect(same.view(0), Move.parse("h:9S-s1"), Move.parse("h:9D-s2"))
    assert not coach.same_effect(view, Move.parse("h:9D-s1"), Move.parse("h:6S-c1"))


def test_the_review_marks_a_planted_blunder() -> None:
    start = feeding_the_last_card()
    moves = ["h:6S-c1", "h:9D-s1", "p-c1"]  # the 6 fed, the turn ended, player 1 wins
    found = coach.review(start, moves, seats=(0,), playouts_per_turn=64, expert=FAST)
    (turn,) = found.turns
    assert (turn.seat, turn.first_ply, turn.last_ply) == (0, 0, 1)
    blunder = turn.decisions[0]
    assert (blunder.played, blunder.agrees) == ("h:6S-c1", False)
    assert blunder.warning == coach.Reason("feeds_opponent", {"top": "7H"})
    assert blunder.reason is not None and blunder.reason.key == "holds_back"
    assert turn.mark == "blunder"
    assert turn.loss >= coach.BLUNDER
    assert found.accuracy(0) is not None and found.accuracy(0) < 1


def test_the_review_marks_nothing_where_the_player_played_the_experts_moves() -> None:
    """Seat 0 plays a fresh expert's move every time: every decision agrees, no turn is
    marked, the accuracy is 1 and no playout is spent."""
    rules = Rules(payoff_size=3)
    game = Game.new(seed=4, rules=rules)
    start = game.copy()
    moves = []
    while not game.is_over and len(moves) < 60:
        mover = game.to_move
        player = bot("expert", 0, **FAST) if mover == 0 else bot("greedy", 1)
        move = player.choose(game, mover)
        moves.append(move)
        game.play(move)
    found = coach.review(start, moves, seats=(0,), expert=FAST)
    decisions = [d for t in found.turns for d in t.decisions]
    assert decisions and all(d.agrees and d.chances is None for d in decisions)
    assert all(t.mark is None for t in found.turns)
    assert found.accuracy(0) == 1.0


def test_a_turns_estimates_stay_within_its_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    rollouts: list[int] = []
    real = coach._roll_out

    def counted(game: Game, seed: int, policy: str = "careful") -> Game:
        rollouts.append(game.ply)
        return real(game, seed, policy)

    monkeypatch.setattr(coach, "_roll_out", counted)
    game = mid_game(7, 0, Rules(payoff_size=4))
    start = game.copy()
    moves = []
    players = (bot("random", 7), bot("greedy", 7))
    while not game.is_over and len(moves) < 24:
        move = players[game.to_move].choose(game, game.to_move)
        moves.append(move)
        game.play(move)
    budget = 12
    found = coach.review(start, moves, seats=(0,), playouts_per_turn=budget, expert=FAST)
    for turn in found.turns:
        spent = sum(1 for ply in rollouts if turn.first_ply <= ply - 1 <= turn.last_ply)
        assert spent <= budget
    estimated = [d for t in found.turns for d in t.decisions if d.chances is not None]
    assert estimated, "the random player should disagree with the expert somewhere"
    assert len(rollouts) <= budget * len(found.turns)


def test_a_review_survives_its_json() -> None:
    found = coach.review(
        feeding_the_last_card(), ["h:6S-c1", "h:9D-s1", "p-c1"], seats=(0,), expert=FAST
    )
    data = found.to_dict()
    assert coach.Review.from_dict(data).to_dict() == data
    assert data["accuracy"] == {"0": found.accuracy(0)}
    assert data["turns"][0]["mark"] == "blunder"
