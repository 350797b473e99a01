"""Huge frames on a real server (issue #10, "Bad input"): past ``GAMES_WS_MAX_MESSAGE`` the site
answers ``bad_message`` and the socket stays open (tests/games/test_bad_input.py, in process);
past the server's own cap daphne ends the connection before the site sees the frame. Either way
nothing in the game changes, and play goes on (on the same socket, or on a fresh one).

daphne's cap is autobahn's ``maxMessagePayloadSize`` and ``maxFramePayloadSize``, both set from
daphne's ``--websocket-max-message-size`` and ``--websocket-max-frame-size`` (1 MiB each by
default); a message of exactly the cap passes, one byte more fails the connection. autobahn
fails it by dropping the TCP connection (its ``failByDrop``, which daphne leaves on): no close
frame and no error frame, so the client sees 1006 (abnormal closure); the 1009 (message too
big) autobahn chose never goes out. The test reads the cap from daphne's own command line, so
it follows a daphne that changes it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.live_server import (
    LiveServer,
    game_socket,
    player_with_games,
    recv_until,
    run_async,
    serve,
)


def daphne_cap() -> int:
    """The largest message, in bytes, the ``daphne`` command accepts by default."""
    from daphne.cli import CommandLineInterface

    parser = CommandLineInterface().parser
    message = parser.get_default("websocket_max_message_size")
    frame = parser.get_default("websocket_max_frame_size")
    return min(message, frame)  # one text frame is one message: the smaller cap decides


CAP = daphne_cap()
TIMEOUT = 10  # seconds for the server to drop the connection


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """``daphne`` run as ``serve`` runs it (the command line's defaults), on a SQLite file: the
    cap is the server's, the database does not matter here."""
    with serve(tmp_path_factory.mktemp("frame_caps")) as server:
        yield server


@pytest.fixture(scope="module")
def player(server: LiveServer) -> dict[str, Any]:
    """A player with a token and two matches against the bot, one for each test."""
    return player_with_games(server, games=2)


def stored(server: LiveServer, game_id: int) -> dict[str, Any]:
    """The game as the database holds it: version, state and its log's length."""
    return server.shell(
        "import json\n"
        "from games.models import Game\n"
        f"game = Game.objects.get(pk={game_id})\n"
        "print(json.dumps({'version': game.version, 'state': game.state,\n"
        "                  'moves': game.moves.count()}))"
    )


def padded_move(move: str, version: int, size: int) -> str:
    """A move message for ``move`` at ``version``, padded to exactly ``size`` bytes (ASCII:
    characters and bytes are the same)."""
    message = {"type": "move", "move": move, "version": version, "id": "huge", "pad": ""}
    message["pad"] = "x" * (size - len(json.dumps(message)))
    text = json.dumps(message)
    assert len(text.encode()) == size
    return text


def center_move(state: dict[str, Any]) -> str:
    """A hand card onto a center pile: the turn goes on, so the bot does not move."""
    return next(m for m in state["view"]["legal_moves"] if m.startswith("h:") and "-c" in m)


async def play(socket: Any, state: dict[str, Any], move: str, move_id: str) -> dict[str, Any]:
    """Send ``move`` and return its acknowledgement (the next version's state)."""
    frame = {"type": "move", "move": move, "version": state["version"], "id": move_id}
    await socket.send(json.dumps(frame))
    ack = (
        await recv_until(
            socket,
            lambda f: (
                f["type"] == "error" or (f["type"] == "state" and f["version"] > state["version"])
            ),
        )
    )[-1]
    assert ack["type"] == "state", ack
    return ack


async def over_the_cap(server: LiveServer, game_id: int, key: str) -> dict[str, Any]:
    """Send a move one byte past the cap: the close frame received (if any), the close code,
    the frames seen between sending it and the close, the game as stored then, and what a
    fresh socket gets and plays."""
    import websockets

    socket = await game_socket(server, game_id, key)
    try:
        assert socket.protocol.extensions == []  # no compression: the bytes sent are the frame
        state = (await recv_until(socket, lambda f: f["type"] == "state"))[-1]
        move = center_move(state)
        after: list[str] = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            # (the send itself may be what finds the connection dropped)
            await socket.send(padded_move(move, state["version"], CAP + 1))
            while True:  # (a server that kept the socket open fails on the timeout)
                after.append(await asyncio.wait_for(socket.recv(), TIMEOUT))
        close_frame, close_code = closed.value.rcvd, socket.close_code
    finally:
        await socket.close()
    middle = await asyncio.to_thread(stored, server, game_id)

    fresh = await game_socket(server, game_id, key)
    try:
        again = (await recv_until(fresh, lambda f: f["type"] == "state"))[-1]
        ack = await play(fresh, again, move, "after-huge")
    finally:
        await fresh.close()
    return {
        "close_frame": close_frame,
        "close_code": close_code,
        "frames": after,
        "before": state,
        "middle": middle,
        "again": again,
        "ack": ack,
        "move": move,
    }


async def at_the_cap(server: LiveServer, game_id: int, key: str) -> dict[str, Any]:
    """Send a move of exactly the cap's size: the answer, a ``sync``'s answer on the same
    socket, the game as stored then, and the ack of the same move sent plainly on it."""
    socket = await game_socket(server, game_id, key)
    try:
        state = (await recv_until(socket, lambda f: f["type"] == "state"))[-1]
        move = center_move(state)
        await socket.send(padded_move(move, state["version"], CAP))
        answer = (await recv_until(socket, lambda f: f["type"] in {"error", "state"}))[-1]
        await socket.send(json.dumps({"type": "sync"}))
        synced = (await recv_until(socket, lambda f: f["type"] == "state"))[-1]
        middle = await asyncio.to_thread(stored, server, game_id)
        ack = await play(socket, synced, move, "after-large")
    finally:
        await socket.close()
    return {
        "before": state,
        "answer": answer,
        "synced": synced,
        "middle": middle,
        "ack": ack,
        "move": move,
    }


def test_a_frame_past_the_servers_cap_closes_the_socket_and_changes_nothing(
    server: LiveServer, player: dict[str, Any]
) -> None:
    game_id, key = player["games"][0], player["key"]
    before = stored(server, game_id)

    seen = run_async(over_the_cap(server, game_id, key))

    # daphne (autobahn, failByDrop) dropped the TCP connection: no close frame, so the client
    # sees 1006 (abnormal closure), and no frame of the site's came first.
    assert seen["close_frame"] is None, seen["close_frame"]
    assert seen["close_code"] == 1006
    assert seen["frames"] == []
    assert seen["middle"] == before  # same version, state and log
    # The move inside was never applied: a fresh socket finds the same version and plays it.
    assert seen["again"]["version"] == seen["before"]["version"] == before["version"]
    assert seen["again"]["view"] == seen["before"]["view"]
    assert seen["ack"]["version"] == before["version"] + 1
    assert seen["ack"]["last_moves"][-1]["move"] == seen["move"]


def test_a_frame_at_the_servers_cap_is_refused_by_the_site_and_the_socket_stays_open(
    server: LiveServer, player: dict[str, Any]
) -> None:
    from django.conf import settings

    assert CAP > settings.GAMES_WS_MAX_MESSAGE  # the site's limit comes first
    game_id, key = player["games"][1], player["key"]
    before = stored(server, game_id)

    seen = run_async(at_the_cap(server, game_id, key))

    answer = seen["answer"]
    assert answer["type"] == "error" and answer["code"] == "bad_message", answer
    assert seen["middle"] == before  # same version, state and log
    # The same socket answers a sync at the same version, then plays the move plainly.
    assert seen["synced"]["version"] == seen["before"]["version"] == before["version"]
    assert seen["synced"]["view"] == seen["before"]["view"]
    assert seen["ack"]["version"] == before["version"] + 1
    assert seen["ack"]["last_moves"][-1]["move"] == seen["move"]
