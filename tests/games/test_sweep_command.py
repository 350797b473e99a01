"""`manage.py sweep`: in process (call_command, with the fake clock) and for real, as a
subprocess against a database of its own (a SQLite file; PostgreSQL too when ``DATABASE_URL``
is), ending a ranked turn whose time ran out while nobody was connected."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games import sweeper
from games.management.commands import sweep as sweep_command
from games.models import Match
from tests.games import clocks
from tests.games.clocks import game_of, ranked_league, ranked_match
from tests.live_server import ROOT, postgres_database, server_env

fake_clock = clocks.fake_clock
_presence_knobs = clocks._presence_knobs


@pytest.mark.django_db
def test_the_command_sweeps_once_and_says_what_it_did(alice, bob, seeds, fake_clock):
    match = ranked_match(ranked_league(disconnect_grace=0), alice, bob, seeds=seeds)
    game = game_of(match)
    out = io.StringIO()
    call_command("sweep", stdout=out)
    assert "turns timed out in games none" in out.getvalue()

    fake_clock.at = game.turn_deadline
    out = io.StringIO()
    call_command("sweep", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines == [
        "bot_turns_resume: bot turns resumed in games none",
        f"deadlines_enforce: turns timed out in games [{game.pk}]; matches forfeited for "
        "absence none; seats gone away (match, seat) none",
        "guests_delete_idle: 0 idle guests deleted with their games",
        "lobby_expire: 0 challenges and seeks expired",
    ]
    match.refresh_from_db()
    assert (match.timeouts0, match.timeouts1) == (1, 0)


@pytest.mark.django_db(transaction=True)  # the loop closes its connections between sweeps
def test_the_command_loops_and_fails_loudly(monkeypatch):
    class Stop(Exception):
        pass

    naps = []

    def nap(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 2:
            raise Stop

    monkeypatch.setattr(sweep_command.time, "sleep", nap)
    out = io.StringIO()
    with pytest.raises(Stop):
        call_command("sweep", "--loop", "--interval", "7", stdout=out)
    assert naps == [7, 7] and out.getvalue().count("lobby_expire:") == 2

    with pytest.raises(CommandError, match="--interval"):
        call_command("sweep", "--interval", "0")

    def broken() -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(sweeper, "deadlines_enforce", broken)
    out = io.StringIO()
    with pytest.raises(CommandError, match="a sweeper job failed"):
        call_command("sweep", stdout=out)
    assert "deadlines_enforce: failed (see the log)" in out.getvalue()


SETUP = textwrap.dedent(
    """
    from datetime import timedelta
    from django.core.management import call_command
    from django.utils import timezone
    from accounts.models import User
    from games.models import Game
    from leagues.models import League, Membership
    from leagues.services import ranked_match_create

    call_command("migrate", verbosity=0)  # (one interpreter fewer than a separate migrate)
    people = [User.objects.create_user(username=n, password="pw-" + n) for n in ("ann", "ben")]
    league = League.objects.create(
        name="Sweep League", slug="sweep", turn_time_limit=30, disconnect_grace=0
    )
    for person in people:
        Membership.objects.create(league=league, user=person)
    match = ranked_match_create(league=league, user0=people[0], user1=people[1])
    game = match.games.get()
    Game.objects.filter(pk=game.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    print(game.pk, match.pk, game.to_move)
    """
)


RESULT = textwrap.dedent(
    """
    import json
    from django.db import connection

    game_id, match_id = {game_id}, {match_id}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT timeouts0, timeouts1, status FROM games_match WHERE id = %s", [match_id]
        )
        match = list(cursor.fetchone())
        cursor.execute(
            "SELECT version, turn_deadline IS NOT NULL FROM games_game WHERE id = %s", [game_id]
        )
        version, has_deadline = cursor.fetchone()
        cursor.execute(
            "SELECT seat, text FROM games_move WHERE game_id = %s ORDER BY ply", [game_id]
        )
        moves = [list(row) for row in cursor.fetchall()]
    print(json.dumps({{"match": match, "version": version, "deadline": bool(has_deadline),
                      "moves": moves}}))
    """
)


@contextmanager
def database(backend: str, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of the backend's kind, as a URL: a SQLite file in ``tmp_path``,
    or a PostgreSQL database of its own beside the run's ``DATABASE_URL`` (dropped on exit)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'db.sqlite3'}"
        return
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip(
            "needs PostgreSQL: DATABASE_URL is not a postgres:// URL (CI's second pass sets it)"
        )
    with postgres_database(url, prefix="spite_sweep") as database_url:
        yield database_url


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_real_command_ends_an_overdue_turn(backend, tmp_path):
    """``manage.py sweep`` in a process of its own, against a database it shares with nobody:
    the overdue turn is timed out (the greedy discard, counted against the seat to move)."""
    with database(backend, tmp_path) as database_url:
        env = server_env(database_url, {"GAMES_SWEEPER_INTERVAL": "0"})

        def manage(*args: str) -> str:
            done = subprocess.run(
                [sys.executable, str(ROOT / "manage.py"), *args],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert done.returncode == 0, done.stdout + done.stderr
            return done.stdout

        game_id, match_id, seat = map(int, manage("shell", "-v", "0", "-c", SETUP).split())
        out = manage("sweep")
        assert f"deadlines_enforce: turns timed out in games [{game_id}];" in out

        code = RESULT.format(game_id=game_id, match_id=match_id)
        result = json.loads(manage("shell", "-v", "0", "-c", code).strip().splitlines()[-1])
    expected = [0, 0]
    expected[seat] = 1
    assert result["match"] == [*expected, Match.Status.ACTIVE]
    assert result["version"] == 1 and result["deadline"]
    moves = result["moves"]
    assert len(moves) == 1 and moves[0][0] == seat and "-s" in moves[0][1]
