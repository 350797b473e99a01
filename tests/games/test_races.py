"""Races (issue #10): two moves against one version at the same moment apply once; a move
resent with the same client move id applies once.

- In the service, with threads (each its own database connection), on PostgreSQL: both
  transactions are open at the same moment and meet at the row lock. (SQLite's in-memory test
  database shares one cache between connections and answers a second writer "database table
  is locked" at once, where a real SQLite file makes it wait: the network tests cover SQLite.)
- Over the network: two real daphne processes serving one database, one socket (or one REST
  request) on each, sent together. Two processes, because one process runs every socket's
  database work on one thread and would serialise them before the database saw a race.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from django.db import connection

from core.errors import GameError
from games import services
from games.models import Move
from games.services import MoveResult
from tests.games.helpers import SMALL, at_once, current_game, legal, seed_where
from tests.live_server import (
    LiveServer,
    game_socket,
    live_database,
    player_with_games,
    recv_until,
    run_async,
    serve,
)

REPEATS = 10  # service-level races per test
LIVE_REPEATS = 4  # races over the network per test


# --- in the service ---------------------------------------------------------------------------


def needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL for real concurrent writers (set DATABASE_URL)")


def fresh_game(user, seeds) -> Any:
    """A new match's first game: ``user`` (seat 0) to move at version 0, with two center
    plays open (moves that keep the turn, so the loser of a race reads ``stale_version``)."""
    seeds(seed_where(0), 4242)
    return current_game(services.match_create(user=user, bot="greedy", rules=SMALL))


@pytest.mark.django_db(transaction=True)
def test_two_moves_against_one_version_at_once_apply_once(alice, seeds) -> None:
    needs_postgresql()
    for repeat in range(REPEATS):
        game = fresh_game(alice, seeds)
        first, second = [move for move in legal(game, 0) if "-c" in move][:2]
        results = at_once(game.pk, alice, [(first, f"a{repeat}"), (second, f"b{repeat}")])
        applied = [r for r in results if isinstance(r, MoveResult)]
        refused = [r for r in results if isinstance(r, GameError)]
        assert len(applied) == 1 and len(refused) == 1, results
        assert not applied[0].replayed and (applied[0].version, applied[0].ply) == (1, 0)
        assert refused[0].code == "stale_version" and refused[0].params == {"version": 1}
        rows = list(Move.objects.filter(game=game).values_list("text", "version"))
        assert rows == [(applied[0].move, 1)]
        game.refresh_from_db()
        assert game.version == 1


@pytest.mark.django_db(transaction=True)
def test_one_move_id_sent_twice_at_once_applies_once(alice, seeds) -> None:
    needs_postgresql()
    for repeat in range(REPEATS):
        game = fresh_game(alice, seeds)
        move = next(m for m in legal(game, 0) if "-c" in m)
        results = at_once(game.pk, alice, [(move, f"same{repeat}")] * 2)
        assert all(isinstance(r, MoveResult) for r in results), results
        assert sorted(r.replayed for r in results) == [False, True]
        assert {(r.ply, r.version, r.seat, r.move) for r in results} == {(0, 1, 0, move)}
        assert Move.objects.filter(game=game).count() == 1


# --- over the network: two server processes on one database -----------------------------------


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two daphne processes serving one database (PostgreSQL when the run uses it, else a
    SQLite file); no Redis, so each socket hears only its own server's broadcasts."""
    env = {"GAMES_BOT_MOVE_DELAY": "0"}
    workdir = tmp_path_factory.mktemp("races")
    (workdir / "one").mkdir()
    (workdir / "two").mkdir()
    with (
        live_database(workdir) as database_url,
        serve(workdir / "one", env=env, database_url=database_url) as one,
        serve(workdir / "two", env=env, database_url=database_url, migrate=False) as two,
    ):
        yield one, two


def is_state(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda frame: frame["type"] == "state" and frame["version"] >= version


def game_frames(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The states and errors among ``frames`` (not notices such as spectator counts)."""
    return [f for f in frames if f["type"] in ("state", "error")]


def move_log(server: LiveServer, game_id: int, key: str) -> list[dict[str, Any]]:
    answer = httpx.get(
        f"{server.url}/api/v1/games/{game_id}/moves/",
        headers={"Authorization": f"Bearer {key}"},
        timeout=10,
    )
    answer.raise_for_status()
    return answer.json()["results"]


async def two_sockets(pair, game_id: int, key: str) -> tuple[Any, Any, dict[str, Any]]:
    """A socket of the player on each server, and the state both opened with."""
    sockets = [await game_socket(server, game_id, key) for server in pair]
    opened = [(await recv_until(s, is_state(0)))[-1] for s in sockets]
    assert opened[0] == opened[1] and opened[0]["version"] == 0
    return sockets[0], sockets[1], opened[0]


async def close(*sockets: Any) -> None:
    for socket in sockets:
        await socket.close()


def test_two_sockets_of_one_player_move_at_once_and_one_move_applies(pair) -> None:
    player = player_with_games(pair[0], games=LIVE_REPEATS)

    async def race(game_id: int) -> None:
        one, two, state = await two_sockets(pair, game_id, player["key"])
        try:
            first, second = [m for m in state["view"]["legal_moves"] if "-c" in m][:2]
            sent = {"a": first, "b": second}
            await asyncio.gather(
                *(
                    socket.send(json.dumps({"type": "move", "move": move, "version": 0, "id": tag}))
                    for socket, (tag, move) in zip((one, two), sent.items(), strict=True)
                )
            )
            # Each socket: its own move's state (the ack), or stale_version then a fresh state.
            answers = [game_frames(await recv_until(s, is_state(1))) for s in (one, two)]
        finally:
            await close(one, two)
        errors = [[f for f in frames if f["type"] == "error"] for frames in answers]
        winner = next(i for i in (0, 1) if not errors[i])
        loser = 1 - winner
        won_move = sent["ab"[winner]]
        for frames in answers:  # both end at version 1, showing the winner's move
            assert frames[-1]["version"] == 1
            assert frames[-1]["last_moves"][-1] == {"ply": 0, "seat": 0, "move": won_move}
        assert answers[winner] == [answers[winner][-1]]
        [error] = errors[loser]
        assert (error["code"], error["id"], error["params"]) == (
            "stale_version",
            "ab"[loser],
            {"version": 1},
        )
        assert answers[loser][-2:] == [error, answers[loser][-1]]
        log = move_log(pair[0], game_id, player["key"])
        assert [(row["ply"], row["text"]) for row in log] == [(0, won_move)]

    async def races() -> None:
        for game_id in player["games"]:
            await race(game_id)

    run_async(races())


def test_one_move_id_sent_on_two_sockets_at_once_applies_once(pair) -> None:
    player = player_with_games(pair[0], games=LIVE_REPEATS)

    async def race(game_id: int) -> None:
        one, two, state = await two_sockets(pair, game_id, player["key"])
        move = next(m for m in state["view"]["legal_moves"] if "-c" in m)
        message = json.dumps({"type": "move", "move": move, "version": 0, "id": "same"})
        try:
            await asyncio.gather(one.send(message), two.send(message))
            answers = [game_frames(await recv_until(s, is_state(1))) for s in (one, two)]
        finally:
            await close(one, two)
        for frames in answers:  # the ack, or for the resend the state it applied: the same
            assert [f["type"] for f in frames] == ["state"]
            assert frames[0]["version"] == 1
            assert frames[0]["last_moves"] == [{"ply": 0, "seat": 0, "move": move}]
        log = move_log(pair[1], game_id, player["key"])
        assert [(row["ply"], row["text"]) for row in log] == [(0, move)]

    async def races() -> None:
        for game_id in player["games"]:
            await race(game_id)

    run_async(races())


def test_one_move_id_posted_twice_at_once_applies_once(pair) -> None:
    player = player_with_games(pair[0], games=LIVE_REPEATS)
    headers = {"Authorization": f"Bearer {player['key']}"}

    async def race(client: httpx.AsyncClient, game_id: int) -> None:
        view = (await client.get(f"{pair[0].url}/api/v1/games/{game_id}/")).json()["view"]
        move = next(m for m in view["legal_moves"] if "-c" in m)
        body = {"move": move, "version": 0, "id": f"post-{secrets.token_hex(3)}"}
        answers = await asyncio.gather(
            *(client.post(f"{s.url}/api/v1/games/{game_id}/moves/", json=body) for s in pair)
        )
        assert sorted(a.status_code for a in answers) == [200, 201], [a.text for a in answers]
        results = [a.json() for a in answers]
        assert sorted(r["replayed"] for r in results) == [False, True]
        assert {(r["ply"], r["version"], r["seat"], r["move"]) for r in results} == {
            (0, 1, 0, move)
        }
        log = move_log(pair[0], game_id, player["key"])
        assert [(row["ply"], row["text"]) for row in log] == [(0, move)]

    async def races() -> None:
        async with httpx.AsyncClient(headers=headers, timeout=10) as client:
            for game_id in player["games"]:
                await race(client, game_id)

    run_async(races())
