"""The admin pages of games, and the sweeper (its start switch, its jobs)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import hooks, sweeper
from games.models import Move
from games.services import game_play_move
from tests.games.helpers import a_side_move, current_game


@pytest.mark.django_db
def test_the_admin_lists_matches_games_and_read_only_moves(admin_client, alice, human_starts):
    match = human_starts(alice)
    game = current_game(match)
    game_play_move(game_id=game.pk, user=alice, move=a_side_move(game), version=0, move_id="a")
    move = Move.objects.get()
    for url in [
        reverse("admin:games_match_changelist"),
        reverse("admin:games_match_change", args=[match.pk]),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_move_changelist"),
        reverse("admin:games_move_change", args=[move.pk]),
        reverse("admin:leagues_league_changelist"),
    ]:
        assert admin_client.get(url).status_code == 200, url
    assert (
        admin_client.get(reverse("admin:games_match_changelist"), {"q": "alice"}).status_code == 200
    )
    assert admin_client.post(reverse("admin:games_move_delete", args=[move.pk])).status_code == 403
    assert Move.objects.filter(pk=move.pk).exists()


def test_the_sweeper_starts_once_and_never_when_its_interval_is_zero(settings, monkeypatch):
    started = []
    monkeypatch.setattr(sweeper, "_loop", lambda interval: started.append(interval))
    monkeypatch.setattr(sweeper, "_thread", None)

    settings.GAMES_SWEEPER_INTERVAL = 0
    assert sweeper.start() is False

    settings.GAMES_SWEEPER_INTERVAL = 15
    assert sweeper.start() is True
    assert sweeper.start() is False
    sweeper._thread.join(timeout=5)
    assert started == [15.0]


@pytest.mark.django_db
def test_a_sweep_expires_the_lobbys_challenges_and_seeks(alice, bob):
    from datetime import timedelta

    from django.utils import timezone

    import engine
    from lobby.models import Challenge, Seek
    from lobby.services import challenge_create, seek_create

    challenge = challenge_create(challenger=alice, challenged_username="bob", rules=engine.Rules())
    seek = seek_create(owner=bob, rules=engine.Rules())
    past = timezone.now() - timedelta(seconds=1)
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=past)
    Seek.objects.filter(pk=seek.pk).update(expires_at=past)

    assert sweeper.sweep() == {
        "bot_turns_resume": [],
        "deadlines_enforce": {"away": [], "timeouts": [], "forfeits": []},
        "guests_delete_idle": 0,
        "lobby_expire": 2,
    }
    challenge.refresh_from_db()
    seek.refresh_from_db()
    assert (challenge.status, seek.status) == ("expired", "expired")


@pytest.mark.django_db
def test_one_failing_sweeper_job_does_not_stop_the_other(monkeypatch, caplog):
    ran = []

    def broken() -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(sweeper, "deadlines_enforce", lambda: None)  # tests/games/test_clock.py
    monkeypatch.setattr(sweeper, "guests_delete_idle", lambda: 0)  # tests/games/test_guests.py
    monkeypatch.setattr(sweeper, "bot_turns_resume", broken)
    monkeypatch.setitem(hooks.sweep_jobs, "lobby_expire", lambda: ran.append("lobby") or 0)
    assert sweeper.sweep() == {
        "deadlines_enforce": None,
        "guests_delete_idle": 0,
        "lobby_expire": 0,
    }
    assert ran == ["lobby"] and "sweeper job bot_turns_resume failed" in caplog.text

    monkeypatch.setattr(sweeper, "bot_turns_resume", lambda: ran.append("bots") or [])
    monkeypatch.setitem(hooks.sweep_jobs, "lobby_expire", broken)
    assert sweeper.sweep() == {
        "bot_turns_resume": [],
        "deadlines_enforce": None,
        "guests_delete_idle": 0,
    }
    assert ran == ["lobby", "bots"] and "sweeper job lobby_expire failed" in caplog.text
