"""The bots' moves as jobs between real processes: two job workers (``manage.py qcluster``) and a
match between two bots on one database (PostgreSQL when the run uses it, else a SQLite file).

First a worker is killed (SIGKILL, its whole cluster) in the middle of a bot's move, at the fault
point ``GAMES_FAULT=bot-move``: nothing is played, the job stays taken until its lock runs out,
and then one of two healthy workers plays it. Then those two play the whole match between them:
each bot move once (the log has every version once, by one worker or the other), the match ends,
and its moves replay to the stored state (tests/conftest.py's check does not reach another
process's database: this test replays it there).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import JobWorker, LiveServer, job_worker, live_database, serve, until

RETRY = 4  # seconds a worker's lock on a job lasts (JOBS_PLAY_RETRY), so a dead one's job returns
ENV = {
    "GAMES_BOT_MOVE_DELAY": "0",
    "JOBS_PLAY_RETRY": str(RETRY),
    "JOBS_PLAY_TIMEOUT": str(RETRY - 1),
}
DEADLINE = 120.0  # seconds the whole match may take on two workers
PLAYED = re.compile(r"bot move in game (\d+) at version (\d+):")

MATCH = """
import json
import engine
from games.services.matches import _match_open
match = _match_open(
    rules=engine.Rules(payoff_size=5, match_target=1), ranked=False, bot0="greedy", bot1="random"
)
print(json.dumps({"match": match.pk, "game": match.games.get().pk}))
"""

STATE = """
import json
from games.models import Game, Match
from games.selectors import game_replay
match = Match.objects.get(pk={match})
game = Game.objects.select_related("match").get(pk={game})
print(json.dumps({{
    "match": match.status,
    "version": game.version,
    "ids": list(game.moves.order_by("ply").values_list("client_move_id", flat=True)),
    "replays": game_replay(game).to_dict() == game.state,
}}))
"""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[LiveServer]:
    with (
        live_database(tmp_path) as database_url,
        serve(tmp_path, env=ENV, database_url=database_url, job_workers=0) as server,
    ):
        yield server


def played(worker: JobWorker) -> list[tuple[int, int]]:
    return [(int(g), int(v)) for g, v in PLAYED.findall(worker.log())]


def test_a_killed_workers_move_is_played_by_another_and_every_move_once(
    site: LiveServer, tmp_path: Path
) -> None:
    doomed = job_worker(site.env, tmp_path / "doomed.log", extra={"GAMES_FAULT": "bot-move"})
    healthy: list[JobWorker] = []
    try:
        doomed.wait_running()
        made = site.shell(MATCH)
        state = STATE.format(**made)
        until(lambda: doomed.process.poll() is not None, "the worker killed itself")
        assert site.shell(state)["version"] == 0  # killed before the move committed

        healthy = [job_worker(site.env, tmp_path / f"healthy-{n}.log") for n in range(2)]
        status = "SELECT status FROM games_match WHERE id = %s"
        finished = [("finished",)]
        until(lambda: site.query(status, made["match"]) == finished, "the match ended", DEADLINE)
        final = site.shell(state)
    finally:
        for worker in [doomed, *healthy]:
            worker.stop()

    game, version = made["game"], final["version"]
    assert final["ids"] == [f"bot-{v}" for v in range(version)]  # every move once, in order
    assert final["replays"]
    by_worker = [played(worker) for worker in healthy]
    versions = sorted(v for moves in by_worker for g, v in moves if g == game)
    assert versions == list(range(version))  # each move by one worker, none by two
    assert all(by_worker), "one worker played every move: the two did not share the jobs"
    assert played(doomed) == []
