"""examples/bot_client.py against a real daphne server (tests/live_server.py): it plays a whole
match against a server bot, and accepts a person's challenge, through the API and the event
stream alone. The server's bots move without delay; it runs on the kind of site the test run
uses (PostgreSQL and Redis in CI's second pass); the tests skip only if daphne cannot start."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.live_server import ROOT, LiveServer, serve_like_the_run

CLIENT = ROOT / "examples" / "bot_client.py"
TIMEOUT = 120  # seconds a client run may take


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {
        "GAMES_BOT_MOVE_DELAY": "0",
        "API_THROTTLE_MOVES": "100000/minute",
        "API_THROTTLE_USER": "100000/minute",
    }
    workdir = tmp_path_factory.mktemp("bot_client")
    with serve_like_the_run(workdir, name="botclient", env=env, unavailable=pytest.skip) as live:
        yield live


def shell(server: LiveServer, code: str) -> str:
    """Run ``code`` in ``manage.py shell`` on the server's database; the last line it
    printed."""
    return server.manage("shell", "--no-imports", "-c", code).stdout.strip().splitlines()[-1]


def bot_account(server: LiveServer) -> tuple[str, str]:
    """A new bot account and an API token of it: (username, key)."""
    name = f"robo{secrets.token_hex(3)}"
    key = shell(
        server,
        "from accounts.models import User\n"
        "from api.services import api_token_create\n"
        f"user = User.objects.create_user(username={name!r}, password='x', is_bot=True)\n"
        "print(api_token_create(user=user, name='client')[1])",
    )
    return name, key


def client(server: LiveServer, key: str, *args: str) -> list[str]:
    """The command line of the example client against ``server``."""
    return [sys.executable, str(CLIENT), "--server", server.url, "--token", key, *args]


def test_the_client_plays_a_whole_match_against_a_server_bot(server: LiveServer) -> None:
    name, key = bot_account(server)
    run = subprocess.run(
        client(
            server,
            key,
            *("--challenge-bot", "random", "--payoff", "5", "--target", "5", "--matches", "1"),
            *("--bot", "greedy", "--seed", "7"),
        ),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=Path(ROOT),
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "match " in run.stdout and " over: " in run.stdout

    checked = json.loads(
        shell(
            server,
            "import json\n"
            "from games.models import Match\n"
            "from games.selectors import game_replay\n"
            f"match = Match.objects.get(user0__username={name!r})\n"
            "print(json.dumps({'status': match.status, 'winner': match.winner,\n"
            "  'reason': match.end_reason, 'scores': match.scores, 'target': match.target,\n"
            "  'replays': [game_replay(g).to_dict() == g.state for g in match.games.all()],\n"
            "  'moves': [g.moves.filter(seat=0).count() for g in match.games.all()]}))",
        )
    )
    assert checked["status"] == "finished" and checked["reason"] == "target_reached"
    assert checked["winner"] in (0, 1) and max(checked["scores"]) >= checked["target"] == 5
    assert checked["replays"] and all(checked["replays"])
    assert sum(checked["moves"]) > 0  # the client played its seat's moves
    assert f"playing as {name}" in run.stdout


def test_the_client_accepts_a_challenge_from_a_person(server: LiveServer) -> None:
    """The person challenges through the API, so the server tells the client's socket (a live
    ``challenge``, or the ``challenges`` list if it connects after); the client accepts within
    seconds, told by its event stream (its own look at the challenges comes only every 30 s)."""
    name, key = bot_account(server)
    person = f"ann{secrets.token_hex(3)}"
    person_key = shell(
        server,
        "from accounts.models import User\n"
        "from api.services import api_token_create\n"
        f"user = User.objects.create_user(username={person!r}, password='x')\n"
        "print(api_token_create(user=user, name='person')[1])",
    )
    process = subprocess.Popen(
        client(server, key, "--matches", "1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=Path(ROOT),
    )
    ann = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {person_key}"})
    try:
        sent = ann.post(
            "/api/v1/challenges/",
            json={"opponent": name, "rules": {"payoff_size": 5, "match_target": 5}},
        )
        assert sent.status_code == 201, sent.text
        challenge = sent.json()
        for _ in range(100):  # 10 s
            mine = ann.get("/api/v1/matches/", params={"mine": "true"}).json()["results"]
            if mine:
                break
            time.sleep(0.1)
        [match] = mine
        assert [s["player"]["username"] for s in match["seats"]] == [person, name]
        accepted = shell(
            server,
            "from lobby.models import Challenge\n"
            f"c = Challenge.objects.get(pk={challenge['id']})\n"
            "print(c.status, c.match_id)",
        )
        assert accepted == f"accepted {match['id']}"

        resigned = ann.post(f"/api/v1/matches/{match['id']}/resign/", json={"scope": "match"})
        assert resigned.status_code == 200, resigned.text
        output, _ = process.communicate(timeout=TIMEOUT)
    finally:
        ann.close()
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, output
    assert f"accepted {person}'s challenge" in output
    assert f"match {match['id']} over: won" in output
