"""`manage.py sweep`: in process (call_command, with the fake clock) and once for real, as a
subprocess against a file database, ending a ranked turn whose time ran out while nobody was
connected."""

from __future__ import annotations

import io
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from django.core.management import CommandError, call_command

from games import sweeper
from games.management.commands import sweep as sweep_command
from games.models import Match
from tests.games import clocks
from tests.games.clocks import game_of, ranked_league, ranked_match
from tests.live_server import ROOT, server_env

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


def test_the_real_command_ends_an_overdue_turn_in_a_file_database(tmp_path):
    path = tmp_path / "db.sqlite3"
    env = server_env(f"sqlite:///{path}", {"GAMES_SWEEPER_INTERVAL": "0"})

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

    with sqlite3.connect(path) as db:
        timeouts = db.execute(
            "SELECT timeouts0, timeouts1, status FROM games_match WHERE id = ?", (match_id,)
        ).fetchone()
        version, deadline = db.execute(
            "SELECT version, turn_deadline FROM games_game WHERE id = ?", (game_id,)
        ).fetchone()
        kinds = db.execute(
            "SELECT seat, text FROM games_move WHERE game_id = ? ORDER BY ply", (game_id,)
        ).fetchall()
    expected = [0, 0]
    expected[seat] = 1
    assert timeouts == (*expected, Match.Status.ACTIVE)
    assert version == 1 and deadline is not None
    assert len(kinds) == 1 and kinds[0][0] == seat and "-s" in kinds[0][1]
