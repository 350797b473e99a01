"""bench/live runs end to end (embedded, 2 tables, ~3 s) and writes its JSON; with
``--bot-runner worker`` (pg2, 2 + 2 tables, ~4 s; on PostgreSQL and Redis only) it starts a bot
worker and reports it. No speed is asserted: benchmarks are figures, never timed tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_bench_live_runs_and_writes_its_json(tmp_path: Path) -> None:
    out = tmp_path / "live.json"
    command = [sys.executable, "-m", "bench.live", "--config", "embedded", "--players", "4"]
    command += ["--rate", "2", "--duration", "3", "--json", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert result["config"] == "embedded"
    assert result["tables"] == 2
    assert result["throttle_lifted"] is False
    (step,) = result["steps"]
    for key in ("rtt_ms", "opponent_ms", "floor_echo_ms", "floor_commit_ms"):
        assert set(step[key]) == {"n", "p50", "p95", "p99", "max"}
    assert step["floor_echo_ms"]["n"] > 0 and step["floor_commit_ms"]["n"] > 0
    assert {"moves", "moves_per_s", "errors", "server", "rtt_p50_over_commit"} <= set(step)
    assert step["server"][0]["rss_mb_max"] > 0
    assert "move round trip" in done.stdout


def test_bench_live_refuses_the_bot_worker_on_the_embedded_config() -> None:
    command = [sys.executable, "-m", "bench.live", "--config", "embedded", "--bot-runner", "worker"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--bot-runner worker needs --config pg1 or pg2" in done.stderr


def test_bench_live_runs_with_a_bot_worker_on_postgresql_and_redis(tmp_path: Path) -> None:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith(("postgres://", "postgresql://")) or not os.environ.get(
        "REDIS_URL"
    ):
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
