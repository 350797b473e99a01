"""The sweeper: resumes bot turns that a restart (or a lost wake-up) left unfinished.

``start()`` runs ``bot_turns_resume()`` at once and then every
``settings.GAMES_SWEEPER_INTERVAL`` seconds in one daemon thread per process. It is called
when the server process starts (``spite/asgi.py``) and, in case that was missed, on the first
WebSocket connection; it does nothing when the interval is 0 (tests) or once started.
Several processes may sweep at once: see ``games.bots`` for why a bot move is never doubled.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections
from django.db.models import Q

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_thread: threading.Thread | None = None


def bot_turns_resume() -> list[int]:
    """Schedule every active game whose seat to move is a bot; return their ids."""
    from games.bots import bot_turn_schedule
    from games.models import Game, Match

    bot_to_move = (Q(state__to_move=0) & ~Q(match__bot0="")) | (
        Q(state__to_move=1) & ~Q(match__bot1="")
    )
    ids = list(
        Game.objects.filter(status=Game.Status.ACTIVE, match__status=Match.Status.ACTIVE)
        .filter(bot_to_move)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for game_id in ids:
        bot_turn_schedule(game_id)
    return ids


def _loop(interval: float) -> None:
    while True:
        try:
            resumed = bot_turns_resume()
            if resumed:
                logger.info("sweeper resumed bot turns in games %s", resumed)
        except Exception:
            logger.exception("sweeper failed")
        finally:
            connections.close_all()
        time.sleep(interval)


def start() -> bool:
    """Start this process's sweeper thread unless disabled or already running."""
    global _thread
    interval = float(getattr(settings, "GAMES_SWEEPER_INTERVAL", 0) or 0)
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
