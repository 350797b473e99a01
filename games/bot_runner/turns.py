"""The bot runner: bots play their turns off the request path, one move per transaction.

``bot_turn_schedule(game_id)`` is called on commit whenever a bot is to move. With
``settings.GAMES_BOT_RUNNER == "thread"`` (the default) inside a server process, the turn runs
as a task on the server's event loop (``attach_loop``, called by ``spite/asgi.py``): the bot
thinks in a pool of worker processes (``games.bot_runner.thinking``; ``GAMES_BOT_THINK = "thread"``:
in a small pool of worker threads, ``GAMES_BOT_WORKERS``), never on the thread that serves
every table's moves and never inside the human's transaction; its moves go through the
same service as a person's, and the pause between them (``GAMES_BOT_MOVE_DELAY``) holds no
thread. Outside a server (a management command, a test) the whole turn runs in the thread pool
(thinking in a worker process all the same). With ``"inline"`` (tests) the turn runs at once in
the calling thread, thinking there too, after the commit. ``"off"`` schedules nothing (the
sweeper still can't run bots then; for maintenance only).

With ``"worker"`` the turns leave the web processes altogether: ``bot_turn_schedule`` sends
``{"type": "bot.turn", "game": game_id}`` on the channel ``bot_channel()`` (``BOT_CHANNEL``
under the channel layer's prefix) with ``core.layer.send_soon`` (never blocks, never raises)
and returns. ``manage.py run_bots`` (the bot worker, ``become_worker()``) listens on that
channel
(``games.bot_runner.worker``) and, in its own process, runs each turn exactly as ``"thread"``
mode does in a server: a task on its loop, thinking per ``GAMES_BOT_THINK``. The channel is a
doorbell (at most once): a turn whose message is lost, or that a dying worker cut off, is
resumed by a sweep (the worker's own at start, and every server's sweeper, which sends again).

``bot_turn_run(game_id)`` plays moves until a person is to move or the game is over: it reads
the game without a lock, lets the bot choose from a fresh engine game, and plays the move
through ``games.services.game_play_move`` with ``move_id = "bot-<version>"``. Two runners on
the same state (two processes, a sweep racing a scheduled turn) therefore apply the move once:
the second is refused as stale or answered as a replay. So several bot workers may run at once
(each hears every message on the pub/sub channel layer, and only one applies each move).

See docs/games.md.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections

from core import layer
from core.errors import GameError
from games.bot_runner import thinking as bot_thinking

logger = logging.getLogger(__name__)

#: Refusals a runner tolerates in a row (another runner moved first) before it gives up.
MAX_RETRIES = 3
#: The channel the bot worker listens on in ``"worker"`` mode (``bot_channel()`` prefixes it).
BOT_CHANNEL = "bot-turns"
#: The message that asks the bot worker to play the bot's turn in a game.
BOT_TURN = "bot.turn"

_lock = threading.Lock()
# Game ids with a turn queued or running in this process -> "run again when done" flag.
_scheduled: dict[int, bool] = {}
_executor: ThreadPoolExecutor | None = None
_inline = threading.local()
_loop: asyncio.AbstractEventLoop | None = None
_worker = False  # this process is the bot worker (manage.py run_bots)


def bot_channel() -> str:
    """``BOT_CHANNEL`` under the default channel layer's key prefix (``CHANNELS_PREFIX``), if it
    has one: the pub/sub layer does not prefix channel names, so two sites sharing one Redis
    would otherwise ring each other's bot workers."""
    layers = settings.CHANNEL_LAYERS
    prefix = (layers.get("default", {}).get("CONFIG") or {}).get("prefix", "")
    return f"{prefix}.{BOT_CHANNEL}" if prefix else BOT_CHANNEL


def become_worker() -> None:
    """Mark this process as the bot worker: in ``"worker"`` mode its turns run here."""
    global _worker
    _worker = True


def attach_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Run bot turns as tasks on this (the server's) event loop from now on; None forgets it."""
    global _loop
    _loop = loop


def _server_loop() -> asyncio.AbstractEventLoop | None:
    loop = _loop
    return loop if loop is not None and loop.is_running() else None


def _pool() -> ThreadPoolExecutor:
    global _executor
    with _lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=max(1, int(settings.GAMES_BOT_WORKERS)),
                thread_name_prefix="bot",
            )
        return _executor


def _thinks_in_process() -> bool:
    """Whether bots think in worker processes: ``GAMES_BOT_THINK``, never in inline mode."""
    return settings.GAMES_BOT_THINK == "process" and settings.GAMES_BOT_RUNNER != "inline"


def bot_turn_schedule(game_id: int) -> None:
    """Make sure the bot to move in ``game_id`` (if any) plays; returns at once in thread and
    worker mode."""
    mode = settings.GAMES_BOT_RUNNER
    if mode == "off":
        return
    if mode == "inline":
        _run_inline(game_id)
        return
    if mode == "worker" and not _worker:
        message = {"type": BOT_TURN, "game": game_id}
        layer.send_soon(bot_channel(), message, what=f"the bot turn of game {game_id}")
        return
    bot_turn_schedule_here(game_id)


def bot_turn_schedule_here(game_id: int) -> None:
    """Run the bot's turn in ``game_id`` in this process, as ``"thread"`` mode does: a task on
    the attached loop if one runs, else in the thread pool; once per game at a time."""
    with _lock:
        if game_id in _scheduled:
            _scheduled[game_id] = True  # running: look again when done
            return
        _scheduled[game_id] = False
    loop = _server_loop()
    if loop is not None:
        # A fresh context: the caller's (often a sync_to_async thread's) must not leak into
        # the task, or asgiref would take the task for a nested call and refuse its DB work.
        loop.call_soon_threadsafe(_start_task, game_id, context=contextvars.Context())
    else:
        _pool().submit(_run_in_thread, game_id)


_tasks: set[asyncio.Task[None]] = set()


def _start_task(game_id: int) -> None:
    task = asyncio.get_running_loop().create_task(_run_on_loop(game_id))
    _tasks.add(task)  # the loop keeps only weak references to tasks
    task.add_done_callback(_tasks.discard)


async def bot_turns_stop() -> None:
    """Cancel the bot turns running as tasks on this loop and wait for them (the bot worker
    stopping). A move already handed to the database thread still commits or rolls back whole;
    the rest of the turn is resumed by the next sweep."""
    tasks = [task for task in _tasks if not task.done()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    with _lock:
        _scheduled.clear()


def _again(game_id: int) -> bool:
    """Whether another schedule arrived while the turn ran; forget the game if not."""
    with _lock:
        if _scheduled.get(game_id):
            _scheduled[game_id] = False
            return True
        _scheduled.pop(game_id, None)
        return False


def _run_in_thread(game_id: int) -> None:
    try:
        while True:
            try:
                bot_turn_run(game_id=game_id)
            except Exception:
                logger.exception("bot turn in game %s failed", game_id)
            if not _again(game_id):
                return
    finally:
        connections.close_all()  # this worker thread's connections go back (or to the pool)


async def _run_on_loop(game_id: int) -> None:
    while True:
        try:
            await _bot_turn_async(game_id)
        except Exception:
            logger.exception("bot turn in game %s failed", game_id)
        if not _again(game_id):
            return


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


@dataclass(frozen=True)
class _BotTurn:
    """What a bot needs to choose its next move: the stored state and who it is."""

    game_id: int
    version: int
    seat: int
    level: str
    bot_seed: int
    state: dict[str, Any]

    def choose(self) -> str:
        """The bot's move: in a worker process, or in this thread (``_thinks_in_process``)."""
        if _thinks_in_process():
            return bot_thinking.think(self.level, self.bot_seed, self.state, self.seat)
        return bot_thinking.bot_choose(self.level, self.bot_seed, self.state, self.seat)

    async def choose_async(self) -> str:
        """The bot's move, awaited on the loop: in a worker process, or in the thread pool."""
        if _thinks_in_process():
            return await bot_thinking.think_async(self.level, self.bot_seed, self.state, self.seat)
        return await asyncio.get_running_loop().run_in_executor(_pool(), self.choose)

    def play(self, move: str) -> bool:
        """Play ``move`` through the service; True if applied now (not a replay)."""
        from games.services import game_play_move

        result = game_play_move(
            game_id=self.game_id,
            bot=True,
            seat=self.seat,
            move=move,
            version=self.version,
            move_id=f"bot-{self.version}",
        )
        return not result.replayed


def _bot_turn_next(game_id: int) -> _BotTurn | None:
    """The bot's next turn step, or None when no bot is to move (or the game is over)."""
    from games.models import Game, Match

    # get(), not first(): first() orders by pk, and compiling that ORDER BY over both tables'
    # columns cost more than the query (docs/performance.md); this runs before each bot move.
    try:
        game = Game.objects.select_related("match").get(pk=game_id)
    except Game.DoesNotExist:
        return None
    if not game.is_active or game.match.status != Match.Status.ACTIVE:
        return None
    seat = game.to_move
    level = game.match.bot_level(seat)
    if not level:
        return None
    return _BotTurn(game_id, game.version, seat, level, game.bot_seed, game.state)


def bot_turn_run(*, game_id: int, max_moves: int | None = None) -> int:
    """Play the bot's moves in ``game_id`` while a bot is to move; return how many applied."""
    delay = float(settings.GAMES_BOT_MOVE_DELAY)
    applied = refusals = 0
    while max_moves is None or applied < max_moves:
        turn = _bot_turn_next(game_id)
        if turn is None:
            break
        move = turn.choose()
        if delay:
            time.sleep(delay)  # the browser shows the bot's turn card by card
        try:
            applied += turn.play(move)
        except GameError as exc:  # another runner moved first; look again
            refusals += 1
            logger.info("bot move in game %s refused (%s), retry %s", game_id, exc.code, refusals)
            if refusals >= MAX_RETRIES:
                break
            continue
        refusals = 0
    return applied


async def _bot_turn_async(game_id: int) -> int:
    """``bot_turn_run`` on the server's loop: thinking in the pool, pauses without a thread."""
    delay = float(settings.GAMES_BOT_MOVE_DELAY)
    applied = refusals = 0
    while True:
        turn = await database_sync_to_async(_bot_turn_next)(game_id)
        if turn is None:
            break
        move = await turn.choose_async()
        if delay:
            await asyncio.sleep(delay)  # the browser shows the bot's turn card by card
        try:
            applied += await database_sync_to_async(turn.play)(move)
        except GameError as exc:
            refusals += 1
            logger.info("bot move in game %s refused (%s), retry %s", game_id, exc.code, refusals)
            if refusals >= MAX_RETRIES:
                break
            continue
        refusals = 0
    return applied
