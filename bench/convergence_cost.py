"""What the convergence check costs (core/convergence.py, docs/performance.md): one read per
process per interval for all its open sockets, timed at several numbers of open games and
users.

    .venv/bin/python bench/convergence_cost.py                       # a fresh SQLite file
    .venv/bin/python bench/convergence_cost.py --sockets 100 400 2000
    BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python bench/convergence_cost.py                   # a fresh PostgreSQL database

For each size N it deals N casual matches between 2N people (half of them a few moves in),
then times ``games.selectors.game_versions`` over the N games (the game sockets' check) and
``lobby.selectors.user_lists`` over the 2N people (the per-user sockets' check): median and
p95 of ``--repeat`` calls, and the median per open socket. Beside them, the way not taken: every
socket asking ``sync`` (``game_connect``, its full read) on a timer, timed over at most 100
games. A figure, never a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup(stack: ExitStack) -> str:
    url = os.environ.get("BENCH_DATABASE_URL", "")
    if url.startswith(("postgres://", "postgresql://")):
        from bench.live.servers import fresh_database

        os.environ["DATABASE_URL"] = stack.enter_context(
            fresh_database(url, prefix="spite_converge")
        )
        kind = "PostgreSQL"
    else:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="converge-"))
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/db.sqlite3"
        kind = "SQLite"
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spite.settings")
    import django
    from django.conf import settings

    django.setup()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.JOBS_INLINE = True
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return kind


def _deal(count: int, made: list) -> None:
    """Deal matches until ``made`` holds ``count`` (game id, user ids); half get a few moves."""
    import engine
    from accounts.models import User
    from games import services

    rules = engine.Rules(payoff_size=5, match_target=500)
    while len(made) < count:
        n = len(made)
        one, two = (
            User.objects.create_user(username=f"c{n}-{side}", password="x") for side in "ab"
        )
        match = services.match_create_between(user0=one, user1=two, rules=rules)
        game = match.current_game
        if n % 2:
            for ply in range(3):
                game.refresh_from_db()
                seat = game.to_move
                move = engine.Game.from_dict(game.state).view(seat)["legal_moves"][0]
                services.game_play_move(
                    game_id=game.pk,
                    user=(one, two)[seat],
                    move=move,
                    version=game.version,
                    move_id=f"m{ply}",
                )
        made.append((game.pk, one.pk, two.pk))


def _syncs(game_ids: list[int]) -> None:
    """The other way to converge: each socket asks ``sync`` (its full read) on a timer."""
    from accounts.models import User
    from games.models import Game
    from games.selectors import game_connect

    for game in Game.objects.filter(pk__in=game_ids).select_related("match"):
        game_connect(game_id=game.pk, user=User(pk=game.match.user0_id))


def _timed(read, keys: list[int], repeat: int) -> list[float]:
    read(keys)  # warm up (prepared statements, caches)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        read(keys)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, nargs="+", default=[100, 400, 1000])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    with ExitStack() as stack:
        kind = _setup(stack)
        from games.selectors import game_versions
        from lobby.selectors import user_lists

        made: list[tuple[int, int, int]] = []
        print(f"convergence check on {kind}, {args.repeat} calls each; ms")
        for size in sorted(args.sockets):
            _deal(size, made)
            games = [row[0] for row in made[:size]]
            users = [uid for row in made[:size] for uid in row[1:]]
            for name, read, keys in (
                ("game sockets", game_versions, games),
                ("per-user sockets", user_lists, users),
                ("a sync per game socket", _syncs, games[: min(size, 100)]),
            ):
                times = _timed(read, keys, args.repeat)
                median = statistics.median(times)
                p95 = statistics.quantiles(times, n=20)[-1]
                print(
                    f"  {name:16} {len(keys):5} keys: median {median:7.2f}  p95 {p95:7.2f}"
                    f"  per socket {median * 1000 / len(keys):6.1f} µs"
                )


if __name__ == "__main__":
    main()
