"""Let the engine's bots play a tournament's pending matches on behalf of its entrants:
`python manage.py tournament_autoplay <tournament slug> [--league demo] [--bot greedy]
[--rounds all|N] [--forfeit-after SECONDS]`. Each move goes through
``games.services.game_play_move`` as the player whose turn it is; rounds close and the next
are paired as their last match ends, until the tournament finishes (docs/tournaments.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import BotLevel
from leagues.models import Tournament
from leagues.tournaments.services import tournament_autoplay


class Command(BaseCommand):
    help = "Let bots play a running tournament's pending matches for its players."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("--league", default="", help="the league's slug (if ambiguous)")
        parser.add_argument("--bot", default="greedy", choices=list(BotLevel.values))
        parser.add_argument("--rounds", default="all", help='"all" or how many rounds')
        parser.add_argument(
            "--forfeit-after",
            type=float,
            default=None,
            help="first forfeit no-shows of matches older than this many seconds",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        found = Tournament.objects.filter(slug=options["slug"])
        if options["league"]:
            found = found.filter(league__slug=options["league"])
        if found.count() != 1:
            raise CommandError(f"No single tournament with slug {options['slug']!r}.")
        tournament = found.get()
        if tournament.status != Tournament.Status.RUNNING:
            raise CommandError(f"{tournament.name} is not running ({tournament.status}).")
        rounds_arg = options["rounds"]
        if rounds_arg == "all":
            rounds = None
        elif str(rounds_arg).isdigit() and int(rounds_arg) > 0:
            rounds = int(rounds_arg)
        else:
            raise CommandError('--rounds is "all" or a positive number.')
        after = options["forfeit_after"]
        tournament = tournament_autoplay(
            tournament=tournament,
            bot=options["bot"],
            rounds=rounds,
            forfeit_after=timedelta(seconds=after) if after is not None else None,
            say=self.stdout.write,
        )
        self.stdout.write(f"{tournament.name}: {tournament.get_status_display()}")
