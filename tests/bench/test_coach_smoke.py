"""bench/coach.py runs end to end on a small budget and writes its JSON (hints, a review,
the estimates on the fixed positions). No speed is asserted: benchmarks are figures."""

from __future__ import annotations

import json
from pathlib import Path

from bench import coach


def test_bench_coach_runs_and_writes_its_json(tmp_path: Path, capsys) -> None:
    out = tmp_path / "coach.json"
    argv = ["--hints", "3", "--games", "1", "--payoff-size", "3", "--playouts", "8"]
    assert coach.main([*argv, "--estimates", "2", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["settings"]["GAMES_REVIEW_PLAYOUTS"] == 8
    assert set(result["hints"]["cpu_ms"]) == {"n", "p50", "p95", "max"}
    (game,) = result["reviews"]["games"]
    assert game["decisions"] > 0 and game["cpu_s"] >= 0
    fixed = result["estimates"]["fixed"]
    assert fixed["missed_win"]["careful"] == [1.0, 0.0]
    assert "hint: wall p50" in capsys.readouterr().out
