"""Run the games sweeper from the command line: `python manage.py sweep` sweeps once and says
what it did; `python manage.py sweep --loop [--interval SECONDS]` sweeps until stopped.

The same jobs as the sweeper thread every server process runs (``games.sweeper.sweep``): bot
turns resumed, overdue turns ended and abandoned ranked matches forfeited (docs/games.md,
"Clocks and abandonment"), idle guests deleted with their games, the lobby's challenges and
seeks expired. Safe beside running
servers: every timeout and forfeit is checked again under the game's row lock. Its broadcasts
reach the players' sockets through the channel layer only when ``REDIS_URL`` is set; otherwise
the tables learn of the change at their next sync.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from games import sweeper

JOBS = ("bot_turns_resume", "deadlines_enforce", "guests_delete_idle", "lobby_expire")


def describe(done: dict[str, Any]) -> list[str]:
    """One line per job: what it did, or that it failed (the log has the traceback)."""
    lines = []
    for name in JOBS:
        if name not in done:
            lines.append(f"{name}: failed (see the log)")
            continue
        result = done[name]
        if name == "bot_turns_resume":
            lines.append(f"{name}: bot turns resumed in games {result or 'none'}")
        elif name == "deadlines_enforce":
            lines.append(
                f"{name}: turns timed out in games {result['timeouts'] or 'none'}; "
                f"matches forfeited for absence {result['forfeits'] or 'none'}; "
                f"seats gone away (match, seat) {[tuple(p) for p in result['away']] or 'none'}"
            )
        elif name == "guests_delete_idle":
            lines.append(f"{name}: {result} idle guests deleted with their games")
        else:
            lines.append(f"{name}: {result} challenges and seeks expired")
    return lines


class Command(BaseCommand):
    help = (
        "Resume bot turns, end overdue turns, forfeit abandoned ranked matches, delete idle "
        "guests and expire the lobby's offers: once, or every --interval seconds with --loop."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--loop", action="store_true", help="sweep again and again")
        parser.add_argument(
            "--interval",
            type=float,
            default=None,
            help="seconds between sweeps with --loop (default GAMES_SWEEPER_INTERVAL, or 15)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        interval = options["interval"]
        if interval is None:
            interval = float(settings.GAMES_SWEEPER_INTERVAL or 15)
        if interval <= 0:
            raise CommandError("--interval must be more than 0 seconds.")
        while True:
            done = sweeper.sweep()
            for line in describe(done):
                self.stdout.write(line)
            self.stdout.flush()
            if not options["loop"]:
                if len(done) < len(JOBS):
                    raise CommandError("a sweeper job failed")
                return
            connections.close_all()
            time.sleep(interval)
