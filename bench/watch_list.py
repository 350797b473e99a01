"""What the Watch list's read costs (games.selectors.games_live, docs/games.md "Pages"): the
games in play moved in the last ``GAMES_WATCH_RECENT`` seconds, each game's last move found by a
subquery over the log's (game, ply) index, against the way not taken, ``Max`` over a join of
every move.

    .venv/bin/python bench/watch_list.py                       # a fresh SQLite file
    .venv/bin/python bench/watch_list.py --active 300 --finished 3000 --moves 150
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/watch_list.py                   # a fresh PostgreSQL database

It writes ``--active`` games in play, last moved from now back to an hour ago, and
``--finished`` games over, each with ``--moves`` log rows (bulk inserts, not played), then
times the page's two reads (the paginator's count, and a page of 25 games' ids): median of
``--repeat`` calls. A figure, never a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup(stack: ExitStack) -> str:
    url = os.environ.get("BENCH_DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        from bench.live.servers import fresh_database

        os.environ["DATABASE_URL"] = stack.enter_context(fresh_database(url, prefix="spite_watch"))
        kind = "PostgreSQL"
    else:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="watch-"))
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/db.sqlite3"
        kind = "SQLite"
    os.environ.pop("REDIS_URL", None)
    os.environ["DATABASE_QUERY_DEADLINE"] = "0"  # the bulk writes take longer than a query may
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spite.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return kind


def _write(active: int, finished: int, moves: int) -> None:
    from django.db import connection, transaction
    from django.db.models import Case, DateTimeField, Value, When
    from django.utils import timezone

    import engine
    from accounts.models import User
    from games.models import Game, Match, Move

    one, two = (User.objects.create_user(username=f"w{side}") for side in "ab")
    rules, state = engine.Rules().to_dict(), engine.Game.new(seed=1).to_dict()
    now = timezone.now()
    for status, count in (("finished", finished), ("active", active)):
        with transaction.atomic():
            matches = Match.objects.bulk_create(
                Match(user0=one, user1=two, rules=rules, status=status) for _ in range(count)
            )
            games = Game.objects.bulk_create(
                Game(match=m, number=1, seed=1, bot_seed=1, first_player=0, state=state,
                     status=status)
                for m in matches
            )  # fmt: skip
            rows = (
                Move(game=g, ply=ply, seat=ply % 2, text="h:AS-s1", version=ply + 1)
                for g in games
                for ply in range(moves)
            )
            Move.objects.bulk_create(rows, batch_size=5000)
            if status == "active":  # last moved from now back to an hour ago
                when = Case(
                    *(
                        When(game_id=g.pk, then=Value(now - timedelta(seconds=i * 3600 / count)))
                        for i, g in enumerate(games)
                    ),
                    output_field=DateTimeField(),
                )
                Move.objects.filter(game__in=games).update(created_at=when)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _timed(read: Callable[[], object], repeat: int) -> float:
    read()  # warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        read()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--active", type=int, default=300)
    parser.add_argument("--finished", type=int, default=3000)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with ExitStack() as stack:
        kind = _setup(stack)
        from django.db.models import F, Max
        from django.db.models.functions import Coalesce
        from django.utils import timezone

        from games.models import Game, Match
        from games.selectors import games_live

        _write(args.active, args.finished, args.moves)
        listed = games_live()
        since = timezone.now() - timedelta(minutes=10)
        joined = (
            Game.objects.filter(status=Game.Status.ACTIVE, match__status=Match.Status.ACTIVE)
            .annotate(moved_at=Coalesce(Max("moves__created_at"), F("created_at")))
            .filter(moved_at__gte=since)
            .order_by("-moved_at", "-pk")
        )
        total = (args.active + args.finished) * args.moves
        print(
            f"Watch list on {kind}: {args.active} games in play, {args.finished} over, "
            f"{total} log rows; ms, median of {args.repeat}"
        )
        for name, games in (("subquery, (game, ply) index", listed), ("Max over a join", joined)):
            count = _timed(games.count, args.repeat)
            page = _timed(lambda games=games: list(games.values_list("pk")[:25]), args.repeat)
            print(f"  {name:28} count {count:7.2f}  page of 25 {page:7.2f}  ({games.count()})")


if __name__ == "__main__":
    main()
