"""The bot worker's side of the channel layer (``GAMES_BOT_RUNNER = "worker"``, docs/games.md).

The web processes send ``{"type": "bot.turn", "game": <id>}`` on
``games.bot_runner.turns.bot_channel()``;
``manage.py run_bots`` listens there with ``BotWorker`` (Channels' ``Worker``), which hands each
message to ``BotTurnConsumer`` through the ``"channel"`` route of ``spite/asgi.py``. The consumer
schedules the turn in this process (``games.bot_runner.turns.bot_turn_schedule_here``: a task on the
worker's loop, whatever the process is marked) and returns at once, so one slow turn never holds
up the next message.

Whatever arrives on the channel is checked: a message that is not a dict, has no or another
type, or names no game id is logged and dropped; the worker goes on listening.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.consumer import AsyncConsumer
from channels.worker import Worker

from core.sockets import DirectDispatch
from games.bot_runner import turns as bots

logger = logging.getLogger(__name__)

#: Seconds the listener waits after the channel layer failed before it listens again.
RETRY_AFTER = 1.0


def game_id_of(message: Any) -> int | None:
    """The game id a ``bot.turn`` message names, or None if it is not such a message."""
    if not isinstance(message, dict) or message.get("type") != bots.BOT_TURN:
        return None
    game = message.get("game")
    if type(game) is not int or game <= 0:  # bool is an int too: not a game id
        return None
    return game


class BotTurnConsumer(DirectDispatch, AsyncConsumer):
    """Plays the bot's turn each ``bot.turn`` message names (in the bot worker's process)."""

    # No channel of its own on the layer: it only gets what the worker hands it.
    channel_layer_alias = None  # type: ignore[assignment]

    async def dispatch(self, message: dict[str, Any]) -> None:
        if game_id_of(message) is None:
            logger.warning("bot worker: dropped a malformed message %.200r", message)
            return
        await super().dispatch(message)

    async def bot_turn(self, message: dict[str, Any]) -> None:
        game_id = game_id_of(message)
        assert game_id is not None  # dispatch checked it
        bots.bot_turn_schedule_here(game_id)


class BotWorker(Worker):
    """Channels' ``Worker``, hardened: a message without a type (or not a dict) is logged and
    dropped, where ``Worker`` would raise and end its listener; a failing receive (Redis gone a
    moment) is logged and tried again after ``RETRY_AFTER`` seconds."""

    async def listener(self, channel: str) -> None:
        while True:
            try:
                message = await self.channel_layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("bot worker: could not receive on %s; trying again", channel)
                await asyncio.sleep(RETRY_AFTER)
                continue
            if not isinstance(message, dict) or not message.get("type"):
                logger.warning("bot worker: dropped a message without a type: %.200r", message)
                continue
            scope = {"type": "channel", "channel": channel}
            queue = self.get_or_create_application_instance(channel, scope)
            await queue.put(message)
