"""The bots' moves as jobs (games/bots.py): each move enqueued in the transaction of the change
that left a bot to move, after the move delay only between the bot's own moves; a job run
twice, or late, applies nothing twice; the sweeper asks again only for stalled turns.

``settings.JOBS_INLINE = False`` leaves each job in the queue, as a site with no worker running
would: the test reads the queue and runs the jobs itself.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import transaction
from django.utils import timezone
from django_q.models import OrmQ
from django_q.signing import SignedPackage

import engine
from core.errors import GameError
from games import bots
from games.clocks import turn as clock
from games.models import Game
from games.services import game_play_move
from games.sweeper import bot_turns_resume
from tests.games.helpers import a_side_move, current_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(settings: Any) -> Any:
    """The jobs waiting in the play queue: [(function, args, seconds until due)], oldest first."""
    settings.JOBS_INLINE = False
    settings.GAMES_BOT_MOVE_DELAY = 0.4

    def read() -> list[tuple[str, tuple[Any, ...], float]]:
        now = timezone.now()
        return [
            (task["func"], task["args"], round((row.lock - now).total_seconds(), 1))
            for row in OrmQ.objects.filter(key="play").order_by("pk")
            for task in [SignedPackage.loads(row.payload)]
        ]

    return read


def test_a_bot_that_starts_is_asked_to_move_at_once(alice, bot_starts, queued) -> None:
    game = current_game(bot_starts(alice))
    assert queued() == [("games.bots.bot_move", (game.pk, 0), 0.0)]


def test_a_person_passing_the_turn_asks_at_once_and_the_bot_paces_its_own_moves(
    alice, human_starts, queued
) -> None:
    game = current_game(human_starts(alice))
    assert queued() == []
    game_play_move(game_id=game.pk, user=alice, move=a_side_move(game), version=0, move_id="e")
    assert queued() == [("games.bots.bot_move", (game.pk, 1), 0.0)]

    OrmQ.objects.all().delete()  # as the worker does once the job ran
    assert bots.bot_move(game.pk, 1) is True
    game.refresh_from_db()
    if game.is_active and game.to_move == 1:  # the bot plays on: its next move, paced
        assert queued() == [("games.bots.bot_move", (game.pk, 2), 0.4)]
    else:
        assert queued() == []


def test_the_job_of_a_change_that_rolled_back_is_gone_with_it(alice, human_starts, queued) -> None:
    game = current_game(human_starts(alice))
    with pytest.raises(RuntimeError), transaction.atomic():
        game_play_move(game_id=game.pk, user=alice, move=a_side_move(game), version=0, move_id="e")
        raise RuntimeError("the request failed after the move")
    assert queued() == []
    game.refresh_from_db()
    assert game.version == 0


def test_a_job_run_twice_applies_its_move_once(alice, bot_starts, queued) -> None:
    game = current_game(bot_starts(alice))
    choice = engine.bot("greedy", seed=game.bot_seed).choose(engine.Game.from_dict(game.state), 1)

    assert bots.bot_move(game.pk, 0) is True
    assert bots.bot_move(game.pk, 0) is False  # the worker died after the commit: run again
    game.refresh_from_db()
    assert game.version == 1 and game.moves.get().text == str(choice)
    # A run that read version 0 before the first committed plays the same move with the same
    # id: it is answered as a replay, not applied again.
    again = game_play_move(
        game_id=game.pk, bot=True, seat=1, move=str(choice), version=0, move_id="bot-0"
    )
    assert again.replayed and game.moves.count() == 1


def test_a_job_for_a_game_that_moved_on_or_ended_does_nothing(
    alice, bot_starts, human_starts, queued
) -> None:
    waiting = current_game(human_starts(alice))  # a person to move: no bot
    assert bots.bot_move(waiting.pk, 0) is False
    assert bots.bot_move(10**9, 0) is False  # no such game

    game = current_game(bot_starts(alice))
    assert bots.bot_move(game.pk, 5) is False  # not the game's version
    game.status = Game.Status.FINISHED
    game.save(update_fields=["status"])
    assert bots.bot_move(game.pk, 0) is False
    assert Game.objects.get(pk=game.pk).version == 0


def test_a_refused_bot_move_is_logged_and_not_raised(
    alice, bot_starts, queued, monkeypatch, caplog
) -> None:
    game = current_game(bot_starts(alice))

    def refuse(**kwargs: Any) -> None:
        raise GameError("stale_version", "the table moved on")

    monkeypatch.setattr("games.services.game_play_move", refuse)
    with caplog.at_level("INFO", logger="games.bots"):
        assert bots.bot_move(game.pk, 0) is False
    assert f"bot move in game {game.pk} at version 0 refused: stale_version" in caplog.text


def test_the_sweeper_asks_again_only_for_a_bot_stalled_past_the_setting(
    alice, bob, bot_starts, human_starts, queued, settings, monkeypatch
) -> None:
    settings.GAMES_BOT_STALLED = 60
    stalled = current_game(bot_starts(alice))
    current_game(human_starts(bob))  # a person to move: never asked
    OrmQ.objects.all().delete()

    assert bot_turns_resume() == []  # just dealt: its job is on its way
    later = timezone.now() + timedelta(seconds=61)
    monkeypatch.setattr(clock, "now", lambda: later)
    assert bot_turns_resume() == [stalled.pk]
    assert queued() == [("games.bots.bot_move", (stalled.pk, 0), 0.0)]
