"""A change's frames, sent once its transaction commits: every viewer's frames of a game's new
version, the notices outside its versions, and frames for a user's own socket."""

from __future__ import annotations

import os
import signal
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction

import engine
from games.models import Game
from games.selectors import game_event_frames
from games.sending import groups, players


def broadcast_on_commit(
    game: Game,
    *,
    to_move_before: int | None,
    log: list[dict[str, Any]],
    game_ended: bool = False,
    match_ended: bool = False,
    engine_game: engine.Game | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Build every viewer's frames now (inside the transaction: they show exactly this
    version) and send them once the transaction commits; and when the change handed the turn
    (``to_move_before`` was another seat) to a person, their ``your_turn`` on the per-user
    socket. ``log`` is the log's latest rows after the change; a service that holds the engine's
    game passes it to spare a parse. Returns the frames by viewer key
    (``games.sending.groups.viewer_key``)."""
    frames = game_event_frames(
        game, game_ended=game_ended, match_ended=match_ended, engine_game=engine_game, log=log
    )
    transaction.on_commit(
        partial(_send_event, game_id=game.pk, version=game.version, frames=frames)
    )
    turn = players.turn_passed_frames(game, to_move_before=to_move_before)
    if turn:
        user_frames_on_commit(turn)
    return frames


def user_frames_on_commit(frames: dict[int, list[dict[str, Any]]]) -> None:
    """Send each user (by id) their frames on the per-user socket once the transaction
    commits."""
    transaction.on_commit(partial(_send_user_frames, frames))


def notice_on_commit(game_id: int, frame: dict[str, Any]) -> None:
    """Send ``frame`` to every socket on ``game_id`` once the transaction commits."""
    transaction.on_commit(partial(_send_notice, game_id=game_id, frame=frame))


# Looked up when sent, so that a test can silence the doorbell by patching the module's name.


def _send_event(**kwargs: Any) -> None:
    if settings.GAMES_FAULT == "move":  # the fault tests' crash between commit and doorbell
        os.kill(os.getpid(), signal.SIGKILL)
    groups.game_event_send(**kwargs)


def _send_notice(**kwargs: Any) -> None:
    groups.game_notice_send(**kwargs)


def _send_user_frames(frames: dict[int, list[dict[str, Any]]]) -> None:
    players.user_frames_send(frames)
