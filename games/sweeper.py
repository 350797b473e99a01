"""The sweeper: asks again for bot moves whose jobs are long overdue (``GAMES_BOT_STALLED``), ends
turns whose time ran out and forfeits matches abandoned past the grace even when nobody is
connected (``games.clocks.timeouts``), and marks the lobby's challenges and seeks that ran out of
time (a job the lobby registers in ``games.hooks.sweep_jobs``), and deletes guests idle for
``ACCOUNTS_GUEST_TTL`` with their games (``games.guests``).

``start()`` runs ``sweep()`` at once and then every ``settings.GAMES_SWEEPER_INTERVAL``
seconds in one daemon thread per process. Each job of a sweep runs on its own: one that fails
is logged and the others still run. It is called
when the server process starts (``spite/asgi.py``) and, in case that was missed, on the first
WebSocket connection; it does nothing when the interval is 0 (tests) or once started.
Several processes may sweep at once: see
``games.bots`` for why a bot move is never doubled;
a timeout or a forfeit is checked again under the game's row lock. ``manage.py sweep`` runs
the same sweep from the command line (once, or in a loop).
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import Max, Q
from django.db.models.functions import Coalesce

from games import hooks

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_thread: threading.Thread | None = None


def bot_turns_resume() -> list[int]:
    """Ask again for the bot's move in every active game where a bot has been to move for
    longer than ``GAMES_BOT_STALLED`` seconds (its job failed every attempt, or was never
    enqueued); return their ids. A job still on its way makes this one a no-op."""
    from games import bots
    from games.clocks import turn as clock
    from games.models import Game, Match

    bot_to_move = (Q(state__to_move=0) & ~Q(match__bot0="")) | (
        Q(state__to_move=1) & ~Q(match__bot1="")
    )
    stalled_before = clock.now() - timedelta(seconds=float(settings.GAMES_BOT_STALLED))
    stalled = (
        Game.objects.filter(status=Game.Status.ACTIVE, match__status=Match.Status.ACTIVE)
        .filter(bot_to_move)
        .annotate(last_change=Coalesce(Max("moves__created_at"), "created_at"))
        .filter(last_change__lt=stalled_before)
        .order_by("pk")
        .values_list("pk", "version")
    )
    for game_id, version in stalled:
        bots.bot_move_enqueue(game_id, version)
    return [game_id for game_id, _ in stalled]


def deadlines_enforce() -> dict[str, list[Any]]:
    """Close presence rows a dead process left open, end every overdue turn, forfeit every
    ranked match whose absent player's grace ran out (docs/games.md, "Clocks and
    abandonment"). Returns the seats gone absent, the games timed out, the matches forfeited."""
    from games.clocks import turn as clock
    from games.clocks.attendance import presence_expire
    from games.clocks.timeouts import deadlines_enforce as enforce

    now = clock.now()
    away = [list(pair) for pair in presence_expire(now=now)]
    return {"away": away, **enforce(now=now)}


def guests_delete_idle() -> int:
    """Delete the guests idle for ``ACCOUNTS_GUEST_TTL`` with their games (games.guests)."""
    from games.guests import guests_delete_idle as delete

    return delete()


def sweep() -> dict[str, object]:
    """Run every job once, each on its own: a job that raises is logged and the next one
    still runs. Returns what each job that succeeded returned, by name."""
    done: dict[str, object] = {}
    jobs = {  # looked up now: patchable
        "bot_turns_resume": bot_turns_resume,
        "deadlines_enforce": deadlines_enforce,
        "guests_delete_idle": guests_delete_idle,
        **hooks.sweep_jobs,  # the apps above games: the lobby's expiry
    }
    for name, job in jobs.items():
        try:
            done[name] = job()
        except Exception:
            logger.exception("sweeper job %s failed", name)
    if done.get("bot_turns_resume"):
        logger.info("sweeper resumed bot turns in games %s", done["bot_turns_resume"])
    enforced = done.get("deadlines_enforce")
    if isinstance(enforced, dict) and any(enforced.values()):
        logger.info("sweeper enforced the clocks: %s", enforced)
    for name in ["guests_delete_idle", *hooks.sweep_jobs]:
        if done.get(name):
            logger.info("sweeper job %s: %s", name, done[name])
    return done


def _loop(interval: float) -> None:
    while True:
        try:
            sweep()
        except Exception:  # sweep() isolates its jobs; this keeps the thread alive regardless
            logger.exception("sweeper failed")
        finally:
            connections.close_all()
        time.sleep(interval)


def start() -> bool:
    """Start this process's sweeper thread unless disabled or already running."""
    global _thread
    interval = float(settings.GAMES_SWEEPER_INTERVAL or 0)
    if interval <= 0:
        return False
    with _lock:
        if _thread is not None:
            return False
        _thread = threading.Thread(
            target=_loop, args=(interval,), name="games-sweeper", daemon=True
        )
        _thread.start()
    return True
