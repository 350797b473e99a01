"""Duels, simulations and the bench: seeded, seats swapped, intervals right, CLI runs."""

import io

import pytest

from engine.arena import GameSpec, play_game, series, wilson
from engine.cli import main


def run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    status = main(args, stdin=io.StringIO(""), stdout=out)
    return status, out.getvalue()


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-3) and hi == pytest.approx(0.9433, abs=1e-3)
    lo, hi = wilson(240, 400)
    assert lo == pytest.approx(0.5511, abs=1e-3) and hi == pytest.approx(0.6472, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 5)[0] == pytest.approx(0.0) and wilson(5, 5)[1] == pytest.approx(1.0)


def test_a_pair_of_games_swaps_seats_on_one_deal() -> None:
    rules = {"payoff_size": 3}
    a = play_game(GameSpec(0, ("greedy", "random"), 5, rules))
    b = play_game(GameSpec(1, ("greedy", "random"), 5, rules))
    assert a.seats == ("greedy", "random") and b.seats == ("random", "greedy")
    assert play_game(GameSpec(0, ("greedy", "random"), 5, rules)).winner == a.winner


def test_series_results_do_not_depend_on_jobs() -> None:
    rules = {"payoff_size": 3}
    one = series(("greedy", "random"), 4, seed=2, jobs=1, rules=rules)
    two = series(("greedy", "random"), 4, seed=2, jobs=2, rules=rules)
    assert (one.wins, one.losses, one.ties, one.plies) == (
        two.wins,
        two.losses,
        two.ties,
        two.plies,
    )
    assert one.games == 4 and one.wins + one.losses + one.ties == 4


def test_duel_command_prints_the_table_and_interval() -> None:
    status, out = run(["duel", "greedy", "random", "--games", "4", "--payoff-size", "3", "--quiet"])
    assert status == 0
    assert "greedy vs random: 4 games (payoff_size=3)" in out
    assert "wins  losses    ties" in out
    assert "95% Wilson interval" in out or "no decided games" in out


def test_duel_command_refuses_bad_input() -> None:
    assert run(["duel", "greedy", "random", "--games", "0"])[0] == 2
    assert run(["duel", "greedy", "random", "--rule", "payoff_size=0"])[0] == 2
    assert run(["duel", "greedy", "random", "--bot-option", "greedy.nope=1"])[0] == 2


def test_simulate_command_reports_rates_and_averages(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = run(
        [
            "simulate",
            "--games",
            "2",
            "--bots",
            "greedy,expert",
            "--payoff-size",
            "3",
            "--bot-option",
            "expert.samples=2",
        ]
    )
    assert status == 0
    assert "2 games, greedy vs expert" in out
    assert "ties:" in out and "plies" in out and "turns" in out and "points" in out
    assert "2/2 games" in capsys.readouterr().err  # the progress bar, on stderr
    assert run(["simulate", "--bots", "greedy"])[0] == 2


def test_bench_command_prints_every_figure() -> None:
    status, out = run(["bench", "--playouts", "2", "--greedy", "1", "--positions", "3"])
    assert status == 0
    assert "random playouts" in out and "moves/s" in out
    assert "greedy games" in out
    assert "expert decision: median" in out and "p95" in out and "max" in out
