"""bench/live runs end to end (embedded, 2 tables and 2 against the bot, its job worker beside
the server, ~3 s) and writes its JSON. No speed is asserted: benchmarks are figures, never
timed tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_live_runs_and_writes_its_json(tmp_path: Path) -> None:
    out = tmp_path / "live.json"
    command = [sys.executable, "-m", "bench.live", "--config", "embedded", "--players", "4"]
    command += ["--bot-tables", "2", "--rate", "2", "--duration", "3", "--json", str(out)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert result["config"] == "embedded"
    assert result["tables"] == 2
    assert result["throttle_lifted"] is False
    (step,) = result["steps"]
    for key in ("rtt_ms", "opponent_ms", "bot_reply_ms", "floor_echo_ms", "floor_commit_ms"):
        assert set(step[key]) == {"n", "p50", "p95", "p99", "max"}
    assert step["floor_echo_ms"]["n"] > 0 and step["floor_commit_ms"]["n"] > 0
    assert {"moves", "moves_per_s", "errors", "server", "rtt_p50_over_commit"} <= set(step)
    assert step["server"][0]["rss_mb_max"] > 0 and step["job_worker"]
    assert "move round trip" in done.stdout
