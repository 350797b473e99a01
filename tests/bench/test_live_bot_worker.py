"""bench/live with ``--bot-runner worker`` (pg2, 2 + 2 tables, ~4 s) starts a bot worker and
reports it; on PostgreSQL and Redis only (CI's second pass). No speed is asserted: benchmarks
are figures, never timed tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.live_server import postgres_and_redis

ROOT = Path(__file__).resolve().parents[2]


def test_bench_live_runs_with_a_bot_worker_on_postgresql_and_redis(tmp_path: Path) -> None:
    if postgres_and_redis() is None:
        pytest.skip("--bot-runner worker needs PostgreSQL and Redis (DATABASE_URL, REDIS_URL)")
    out = tmp_path / "live.json"
    command = [sys.executable, "-m", "bench.live", "--config", "pg2", "--players", "4"]
    command += ["--bot-tables", "2", "--duration", "4", "--bot-runner", "worker"]
    command += ["--json", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert result["bot_runner"] == "worker"
    (step,) = result["steps"]
    assert len(step["server"]) == 2
    (worker,) = step["bot_worker"]
    assert worker["rss_mb_max"] > 0 and worker["pid"] not in {s["pid"] for s in step["server"]}
    assert step["bot_table_rtt_ms"]["n"] > 0  # the people at the bot tables got to move
    assert "bot worker pid" in done.stdout
