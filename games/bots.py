"""The bots' moves: one job per move, on the play queue (core.jobs, docs/games.md "The bots").

Whenever a change leaves a bot to move (a move, a new game a bot starts), the service calls
``bot_move_enqueue`` inside its own transaction: the job ``bot_move(game_id, version)`` exists
exactly when that change committed. It runs after ``GAMES_BOT_MOVE_DELAY`` seconds when the bot
itself moved last (so the table shows its turn card by card), at once when a person passed it
the turn.

``bot_move`` reads the game; when the game has moved on from ``version``, is over, or no bot is
to move, it does nothing. Otherwise the bot chooses from the stored state as its seat sees it
(``engine.bot(...).choose``) and the move goes through ``games.services.game_play_move``, like a
person's, with the move id ``bot-<version>``. So the same job run twice (its worker died after
the commit, the sweeper asked again) applies the move once: the second run finds the version
moved on, or is answered as a replay. The move, if it leaves the bot to move, enqueues the next.
The job runs in a worker process, so the bot's search never holds a server's event loop.
"""

from __future__ import annotations

import logging
import os
import signal
from typing import Any

from django.conf import settings

import engine
from core import jobs
from core.errors import GameError

logger = logging.getLogger(__name__)


def bot_choose(level: str, seed: int, state: dict[str, Any], seat: int) -> str:
    """The move the ``level`` bot with ``seed`` plays as ``seat`` in the game ``state``."""
    position = engine.Game.from_dict(state)
    return str(engine.bot(level, seed=seed).choose(position, seat))


def bot_move_enqueue(game_id: int, version: int, *, delay: float = 0.0) -> None:
    """Ask for the bot's move in ``game_id`` at ``version`` (in the caller's transaction)."""
    jobs.enqueue(bot_move, game_id, version, queue=jobs.PLAY, delay=delay)


def bot_move(game_id: int, version: int) -> bool:
    """The job: play the bot's move in ``game_id`` if the game still stands at ``version`` with
    a bot to move. True if this run applied it."""
    from games.models import Game, Match
    from games.services import game_play_move

    # get(), not first(): first() orders by pk, and compiling that ORDER BY over both tables'
    # columns cost more than the query (docs/performance.md).
    try:
        game = Game.objects.select_related("match").get(pk=game_id)
    except Game.DoesNotExist:
        return False
    if game.version != version or not game.is_active or game.match.status != Match.Status.ACTIVE:
        return False
    seat = game.to_move
    level = game.match.bot_level(seat)
    if not level:
        return False
    if settings.GAMES_FAULT == "bot-move":  # the fault tests: this worker dies mid-turn
        os.killpg(os.getpgrp(), signal.SIGKILL)
    move = bot_choose(level, game.bot_seed, game.state, seat)
    try:
        result = game_play_move(
            game_id=game_id,
            bot=True,
            seat=seat,
            move=move,
            version=version,
            move_id=f"bot-{version}",
        )
    except GameError as exc:  # the game moved on meanwhile (a resignation, a timeout)
        logger.info("bot move in game %s at version %s refused: %s", game_id, version, exc.code)
        return False
    logger.info("bot move in game %s at version %s: %s", game_id, version, move)
    return not result.replayed
