"""bench/live's capacity mode: spare games for every step a run may play, and a step in which
tables ran out of games (or played nothing) never counts as within target."""

from __future__ import annotations

from bench.live.run import parse, spare_games, step_within_target


def _step(*, p99: float = 10.0, n: int = 100, out_of_games: int = 0) -> dict:
    return {
        "rtt_ms": {"n": n, "p50": 1.0, "p95": 5.0, "p99": p99, "max": p99},
        "errors": {"error_frames": {}, "closed": 0, "timeouts": 0, "failed_tables": 0},
        "tables_out_of_games": out_of_games,
    }


def test_a_step_is_within_target_only_if_every_table_played_it_through() -> None:
    assert step_within_target(_step())
    assert not step_within_target(_step(p99=50.1))
    assert not step_within_target(_step(out_of_games=3))  # those tables played nothing more
    assert not step_within_target(_step(n=0, p99=0.0))  # nothing played: nothing measured


def test_spare_games_cover_every_capacity_step() -> None:
    steady = parse(["--config", "pg2", "--players", "400", "--rate", "0.5", "--duration", "60"])
    assert spare_games(steady, 200) == 200  # 30 moves a table: half a game, twice over
    steps = ["--capacity", "--max-steps", "6"]
    capacity = parse(["--config", "pg2", "--players", "200", "--duration", "20", *steps])
    # 0.5 + 1 + … + 16 moves/s for 20 s each: 630 moves a table, ~60 moves a game, twice over.
    assert spare_games(capacity, 100) == 2100
    soak = parse(["--config", "pg1", "--players", "200", "--soak", "10"])
    assert spare_games(soak, 100) == 1000  # 300 moves a table in 10 minutes
