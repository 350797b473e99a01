"""The bot runner: bots play their turns off the request path, one move per transaction.

``bot_turn_schedule(game_id)`` is called on commit whenever a bot is to move. With
``settings.GAMES_BOT_RUNNER == "thread"`` (the default) it hands the game to a small pool of
worker threads (``GAMES_BOT_WORKERS``), never the thread that serves every table's moves and
never inside the human's transaction. With ``"inline"`` (tests) the turn runs at once in the
calling thread, after the commit. ``"off"`` schedules nothing (the sweeper still can't run
bots then; for maintenance only).

``bot_turn_run(game_id)`` plays moves until a person is to move or the game is over: it reads
the game without a lock, lets the bot choose from a fresh engine game, and plays the move
through ``games.services.game_play_move`` with ``move_id = "bot-<version>"``. Two runners on
the same state (two processes, a sweep racing a scheduled turn) therefore apply the move once:
the second is refused as stale or answered as a replay.

See docs/games.md.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connections

import engine

logger = logging.getLogger(__name__)

#: Refusals a runner tolerates in a row (another runner moved first) before it gives up.
MAX_RETRIES = 3

_lock = threading.Lock()
# Game ids with a turn queued or running in this process -> "run again when done" flag.
_scheduled: dict[int, bool] = {}
_executor: ThreadPoolExecutor | None = None
_inline = threading.local()


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=max(1, int(getattr(settings, "GAMES_BOT_WORKERS", 2))),
                thread_name_prefix="bot",
            )
        return _executor


def bot_turn_schedule(game_id: int) -> None:
    """Make sure the bot to move in ``game_id`` (if any) plays; returns at once in thread mode."""
    mode = getattr(settings, "GAMES_BOT_RUNNER", "thread")
    if mode == "off":
        return
    if mode == "inline":
        _run_inline(game_id)
        return
    with _lock:
        if game_id in _scheduled:
            _scheduled[game_id] = True  # running: look again when done
            return
        _scheduled[game_id] = False
    _pool().submit(_run_in_thread, game_id)


def _run_in_thread(game_id: int) -> None:
    try:
        while True:
            try:
                bot_turn_run(game_id=game_id)
            except Exception:
                logger.exception("bot turn in game %s failed", game_id)
            with _lock:
                if _scheduled.get(game_id):
                    _scheduled[game_id] = False
                    continue
                _scheduled.pop(game_id, None)
                return
    finally:
        connections.close_all()  # this worker thread's connections go back (or to the pool)


def _run_inline(game_id: int) -> None:
    queue: list[int] | None = getattr(_inline, "queue", None)
    if queue is not None:  # a bot's own move (or a new game) asked again: run after this one
        if game_id not in queue:
            queue.append(game_id)
        return
    _inline.queue = [game_id]
    try:
        while _inline.queue:
            bot_turn_run(game_id=_inline.queue.pop(0))
    finally:
        _inline.queue = None


def bot_turn_run(*, game_id: int, max_moves: int | None = None) -> int:
    """Play the bot's moves in ``game_id`` while a bot is to move; return how many applied."""
    from games.errors import GameError
    from games.models import Game, Match
    from games.services import game_play_move

    delay = float(getattr(settings, "GAMES_BOT_MOVE_DELAY", 0))
    applied = refusals = 0
    while max_moves is None or applied < max_moves:
        game = Game.objects.select_related("match").filter(pk=game_id).first()
        if game is None or not game.is_active or game.match.status != Match.Status.ACTIVE:
            break
        seat = game.to_move
        level = game.match.bot_level(seat)
        if not level:
            break
        position = engine.Game.from_dict(game.state)
        choice = engine.bot(level, seed=game.bot_seed).choose(position, seat)
        if delay:
            time.sleep(delay)  # the browser shows the bot's turn card by card
        try:
            result = game_play_move(
                game_id=game_id,
                bot=True,
                seat=seat,
                move=str(choice),
                version=game.version,
                move_id=f"bot-{game.version}",
            )
        except GameError as exc:  # another runner moved first; look again
            refusals += 1
            logger.info("bot move in game %s refused (%s), retry %s", game_id, exc.code, refusals)
            if refusals >= MAX_RETRIES:
                break
            continue
        refusals = 0
        if not result.replayed:
            applied += 1
    return applied
