"""The bot worker: `python manage.py run_bots [--nice N]` plays the bots' turns in a process of
its own (``GAMES_BOT_RUNNER = "worker"``, docs/games.md and docs/deploy.md).

It marks this process as the bot worker
(``games.bot_runner.turns.become_worker``), lowers its priority by
``--nice`` (default ``GAMES_BOT_WORKER_NICE``), attaches its event loop to the bot runner and to
``core.layer`` (so a bot move's on-commit sends and the next turns run on it), resumes every
game where a bot is to move (``games.sweeper.bot_turns_resume``), and listens on
``games.bot_runner.turns.bot_channel()`` with Channels' ``Worker``
(``games.bot_runner.worker.BotWorker``) until
SIGTERM or SIGINT. It loads ``spite.asgi`` like a server, so it also runs the sweeper thread every
``GAMES_SWEEPER_INTERVAL`` seconds. Several may run at once: a bot move is played with the move
id ``bot-<version>``, so it is applied once however many workers play the turn.
"""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import get_default_application
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from core import layer
from games import sweeper
from games.bot_runner import thinking as bot_thinking
from games.bot_runner import turns as bots
from games.bot_runner.worker import BotWorker


class Command(BaseCommand):
    help = (
        "Run the bot worker: play the bots' turns that the servers send on the channel layer "
        '(GAMES_BOT_RUNNER="worker"), until SIGTERM or SIGINT.'
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--nice",
            type=int,
            default=None,
            help="lower this process's priority by N (os.nice; default GAMES_BOT_WORKER_NICE, "
            "or 5; 0 leaves it); its thinking processes go GAMES_BOT_NICE lower still",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        runner = settings.GAMES_BOT_RUNNER
        if runner != "worker":
            raise CommandError(
                f'GAMES_BOT_RUNNER is {runner!r}: set it to "worker" for the servers and for '
                "this command alike."
            )
        nice = options["nice"]
        if nice is None:
            nice = int(settings.GAMES_BOT_WORKER_NICE)
        if nice < 0:
            raise CommandError("--nice must be 0 or more (a worker never raises its priority).")
        if nice:
            os.nice(nice)
        bots.become_worker()
        asyncio.run(self.serve(nice))

    async def serve(self, nice: int) -> None:
        loop = asyncio.get_running_loop()
        bots.attach_loop(loop)
        layer.attach_loop(loop)
        stopping = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stopping.set)
        channel = bots.bot_channel()
        try:
            # Loaded on the loop, after it is attached: spite.asgi starts the sweeper thread,
            # whose first sweep then hands its bot turns to this loop.
            worker = BotWorker(
                application=get_default_application(),
                channels=[channel],
                channel_layer=get_channel_layer(),
            )
            listening = asyncio.ensure_future(worker.arun())
            resumed = await database_sync_to_async(sweeper.bot_turns_resume)()
            # On standard output, whatever LOG_LEVEL says: a supervisor (or the bench) waits
            # for this line.
            self.stdout.write(
                f"bot worker {os.getpid()} listening on {channel} (nice {nice}); "
                f"resumed bot turns in games {resumed or 'none'}"
            )
            self.stdout.flush()
            stop = asyncio.ensure_future(stopping.wait())
            await asyncio.wait({listening, stop}, return_when=asyncio.FIRST_COMPLETED)
            for future in (listening, stop):
                future.cancel()
            await asyncio.gather(listening, stop, return_exceptions=True)
            if listening.done() and not listening.cancelled() and listening.exception():
                raise CommandError(f"the bot worker stopped: {listening.exception()!r}")
        finally:
            await bots.bot_turns_stop()
            bots.attach_loop(None)
            layer.attach_loop(None)
            await loop.run_in_executor(None, bot_thinking.shutdown)
            self.stdout.write(f"bot worker {os.getpid()} stopped")
            self.stdout.flush()
