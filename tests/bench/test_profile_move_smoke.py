"""bench/profile_move.py runs end to end (both modes, a few moves, a fresh SQLite file) and
writes its JSON. No speed is asserted: benchmarks are figures, never timed tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_profile_move_runs_both_modes_and_counts_queries(tmp_path: Path) -> None:
    out = tmp_path / "profile.json"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    command = [sys.executable, "bench/profile_move.py", "-k", "4", "--json", str(out)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(out.read_text())
    assert result["database"] == "sqlite"
    assert result["service"]["moves"] == 4 and result["socket"]["moves"] == 4
    assert all(n > 0 for n in result["service"]["service_queries"])
    assert len(result["socket"]["rtt_ms"]) == 4
    assert "queries per move" in done.stdout
