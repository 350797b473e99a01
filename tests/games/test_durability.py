"""Durability (issue #10): a move is acknowledged only once it is committed, so a site killed
with SIGKILL loses no acknowledged move, and a bot turn it cut off resumes when it comes back.

A real daphne process and a job worker run as in production: a pause between the bot's moves
(0.5 s, so a bot turn can be caught half-way), the sweeper on with a short interval. The player
plays over a real WebSocket with an API token; the server and the worker are killed together
while the bot is to move, started again on the same database and port, and the player
reconnects: the dead worker's job, or the next one already queued, plays the rest of the turn.
Runs on SQLite (a file)
or, when ``DATABASE_URL`` is PostgreSQL, on a fresh database of its own.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from tests.live_server import (
    LiveServer,
    game_socket,
    job_worker,
    live_database,
    player_with_games,
    recv_until,
    run_async,
    serve,
)

ENV = {
    "GAMES_BOT_MOVE_DELAY": "0.5",
    "GAMES_SWEEPER_INTERVAL": "1",
    "JOBS_PLAY_RETRY": "3",  # the dead worker's job is taken again 3 s after it was taken
    "JOBS_PLAY_TIMEOUT": "2",
}
ME, BOT = 0, 1
MAX_TURNS = 4  # turns of ours in which to catch the bot half-way through its turn
DEADLINE = 15.0  # seconds the bot may take to finish its cut-off turn after the restart


def center_then_discard(view: dict[str, Any], played: int) -> str:
    """Our next move: up to two hand cards onto the center, then a discard (ends the turn).
    Never a pay-off card: the game must not end under the test."""
    hand = [m for m in view["legal_moves"] if m.startswith("h:")]
    center = [m for m in hand if "-c" in m]
    if center and played < 2:
        return center[0]
    return next(m for m in hand if "-s" in m)


async def play(socket: Any, state: dict[str, Any], move: str, move_id: str) -> dict[str, Any]:
    """Send ``move`` and wait for its acknowledgement: the state of the next version, whose
    last row is this move of ours. States of the version we moved at are passed over: a late
    answer to an earlier ``sync`` may still be on its way."""
    version = state["version"]
    await socket.send(json.dumps({"type": "move", "move": move, "version": version, "id": move_id}))
    ack = (
        await recv_until(
            socket,
            lambda f: f["type"] == "error" or (f["type"] == "state" and f["version"] > version),
        )
    )[-1]
    assert ack["type"] == "state", ack
    assert ack["version"] == version + 1
    assert ack["last_moves"][-1]["seat"] == ME and ack["last_moves"][-1]["move"] == move
    return ack


async def until_our_turn(socket: Any) -> dict[str, Any]:
    """Ask ``sync`` every half second until the state says we are to move."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while loop.time() < deadline:
        await socket.send(json.dumps({"type": "sync"}))
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(socket.recv(), 0.5))
                if frame["type"] == "state" and frame["view"]["to_move"] == ME:
                    return frame
        except TimeoutError:
            continue
    raise AssertionError(f"the bot did not finish its turn within {DEADLINE} s")


def crash(server: LiveServer) -> None:
    """The site's machine fails: the server and its job worker SIGKILLed at once."""
    server.kill()
    for worker in server.workers:
        worker.kill()


async def play_until_the_bot_is_cut_off(
    server: LiveServer, game_id: int, key: str
) -> tuple[list[dict[str, Any]], dict[str, Any], int]:
    """Play our turns until the bot is half-way through one (it has moved and is still to
    move; after MAX_TURNS turns, right after our discard), then SIGKILL the site. Returns
    our acknowledged moves (``{"id", "move", "ply", "version"}``), the last state received,
    and how many bot moves of the cut-off turn were seen."""
    acked: list[dict[str, Any]] = []
    socket = await game_socket(server, game_id, key)
    try:
        state = (await recv_until(socket, lambda f: f["type"] == "state"))[-1]
        for turn in range(MAX_TURNS):
            played = 0
            while state["view"]["to_move"] == ME:
                move = center_then_discard(state["view"], played)
                move_id = f"t{turn}m{played}"
                state = await play(socket, state, move, move_id)
                last = state["last_moves"][-1]
                acked.append(
                    {"id": move_id, "move": move, "ply": last["ply"], "version": state["version"]}
                )
                played += 1
            if turn == MAX_TURNS - 1:
                crash(server)  # the bot's turn has begun: it is to move, with nothing played
                return acked, state, 0
            # The bot's turn, move by move: cut it off once it has moved but not finished.
            while state["view"]["to_move"] == BOT:
                state = (await recv_until(socket, lambda f: f["type"] == "state", timeout=5))[-1]
                assert state["last_moves"][-1]["seat"] == BOT
                if state["view"]["to_move"] == BOT:
                    crash(server)
                    seen = sum(1 for m in state["last_moves"] if m["ply"] > acked[-1]["ply"])
                    return acked, state, seen
        raise AssertionError("unreachable")
    finally:
        await socket.close()


async def after_the_restart(
    server: LiveServer, game_id: int, key: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], float]:
    """Reconnect: the state on connect, the state once the bot has finished, the ack of our
    next move, and the seconds until the bot finished."""
    started = time.monotonic()
    socket = await game_socket(server, game_id, key)
    try:
        reconnected = (await recv_until(socket, lambda f: f["type"] == "state"))[-1]
        ours = await until_our_turn(socket)
        resumed_in = time.monotonic() - started
        move = center_then_discard(ours["view"], 0)
        ack = await play(socket, ours, move, "after-restart")
        return reconnected, ours, ack, resumed_in
    finally:
        await socket.close()


def stored(server: LiveServer, game_id: int) -> dict[str, Any]:
    """The game as the database holds it: version, its log, and whether it replays."""
    return server.shell(
        "import json\n"
        "from games.models import Game\n"
        "from games.selectors import game_replay\n"
        f"game = Game.objects.get(pk={game_id})\n"
        "rows = [{'ply': m.ply, 'seat': m.seat, 'move': m.text, 'id': m.client_move_id,\n"
        "         'version': m.version} for m in game.moves.order_by('ply')]\n"
        "print(json.dumps({'version': game.version, 'status': game.status, 'rows': rows,\n"
        "                  'replays': game_replay(game).to_dict() == game.state}))"
    )


def test_a_killed_server_keeps_every_acknowledged_move_and_resumes_the_bot(
    tmp_path: Path,
) -> None:
    with (
        live_database(tmp_path) as database_url,
        serve(tmp_path, env=ENV, database_url=database_url) as server,
    ):
        player = player_with_games(server, games=1, payoff=20)
        game_id, key = player["games"][0], player["key"]
        acked, last_seen, _cut_after = run_async(
            play_until_the_bot_is_cut_off(server, game_id, key)
        )
        assert server.process is not None and server.process.returncode == -9  # SIGKILL

        server.start()  # same port, same database
        server.workers.append(job_worker(server.env, tmp_path / "jobs-after.log"))
        reconnected, ours, ack, _resumed_in = run_async(after_the_restart(server, game_id, key))
        game = stored(server, game_id)

    # Nothing acknowledged or seen was lost: the game is at the last state seen or later.
    assert reconnected["version"] >= last_seen["version"] >= acked[-1]["version"]
    rows = game["rows"]
    assert [r["ply"] for r in rows] == list(range(len(rows)))
    assert [r["version"] for r in rows] == [r["ply"] + 1 for r in rows]
    # Every acknowledged move is in the log, in order, where its ack said; no other of ours.
    ours_before = [r for r in rows if r["seat"] == ME and r["id"] != "after-restart"]
    assert [(r["id"], r["move"], r["ply"], r["version"]) for r in ours_before] == [
        (a["id"], a["move"], a["ply"], a["version"]) for a in acked
    ]
    # Past what we had seen, only the bot moved: the rest of its cut-off turn, resumed.
    later = [r for r in rows if last_seen["version"] < r["version"] <= ours["version"]]
    assert later and all(r["seat"] == BOT for r in later)
    assert all(r["id"] == f"bot-{r['version'] - 1}" for r in later)
    # Play goes on: our move after the restart is acknowledged and stored; the log replays.
    assert ack["version"] == ours["version"] + 1
    [after] = [r for r in rows if r["id"] == "after-restart"]
    assert (after["seat"], after["version"]) == (ME, ack["version"])
    assert game["version"] >= ack["version"] and game["status"] == "active"
    assert game["replays"]
