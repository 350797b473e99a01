"""tests/conftest.py marks `services` every test that uses the database, a socket helper or the
channel layer, or a real server, and no other: CI's PostgreSQL + Redis pass runs ``-m services``
and must leave out the engine's tests, yet run every test that could tell the databases or the
layers apart."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_a_test_that_needs_no_service_is_not_marked(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("services") is None


@pytest.mark.django_db
def test_a_django_db_test_is_marked(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("services") is not None


def test_a_db_fixture_marks_the_test(request: pytest.FixtureRequest, db: None) -> None:
    assert request.node.get_closest_marker("services") is not None


def test_the_services_pass_selects_exactly_the_tests_that_need_them() -> None:
    """Collected with ``-m services`` as CI's second pass selects: the socket tests (helpers from
    tests/sockets.py, channels.testing), a module importing tests/live_server.py, the browser
    tests that build sites of their own on PostgreSQL and Redis, and a database module are in;
    the engine's, a pure socket-codec module's and the other browser tests (their pages' server
    code runs in the others) are out (each module here is all in or all out)."""
    marked = {
        "tests/lobby/test_consumers.py",  # tests/sockets.py
        "tests/benchfloor/test_floors.py",  # channels.testing
        "tests/browser/test_table_faults.py",  # a browser test importing tests/live_server.py
        "tests/accounts/test_block.py",  # django_db
        "tests/games/test_bot_jobs.py",  # tests/live_server.py
    }
    unmarked = {
        "tests/engine/test_cards.py",
        "tests/games/test_sockets.py",
        "tests/browser/test_sockets.py",  # the browser fixtures alone
    }
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*command, "-m", "services", *sorted(marked | unmarked)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr  # a missing file would fail it
    selected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    assert selected == marked
