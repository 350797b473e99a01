"""bench/table_latency runs end to end (its own daphne, two players in Chromium, 2 moves: one
animated, one with reduced motion) and writes its JSON. No speed is asserted: benchmarks are
figures, never timed tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SPITE_CHROMIUM", "/usr/bin/chromium")


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"Chromium not found at {CHROMIUM}")
def test_bench_table_latency_runs_and_writes_its_json(tmp_path: Path) -> None:
    pytest.importorskip("playwright.sync_api")
    out = tmp_path / "table-latency.json"
    # A copy of the run's migrated SQLite template: no migrate. Imported here: the bench runs
    # on SQLite whatever the run's database, so CI's PostgreSQL pass has nothing to add.
    from tests.live_server import migrated

    database = tmp_path / "bench.sqlite3"
    migrated(f"sqlite:///{database}")
    command = [sys.executable, "-m", "bench.table_latency", "--moves", "2", "--json", str(out)]
    command += ["--database", str(database)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert [p["motion"] for p in result["passes"]] == ["no-preference", "reduce"]
    for entry in result["passes"]:
        assert len(entry["moves"]) == 1
        total = entry["figures"]["click → card painted at rest"]
        assert set(total) == {"n", "p50", "p95", "p99", "max"} and total["n"] == 1
        for move in entry["moves"]:  # every time was taken, in order within each page
            assert move["sent"] >= 0 and move["frame"] <= move["drawn"] <= move["painted"], move
    assert "click → card painted at rest" in done.stdout
