"""Reconnection on the server's side (docs/protocol.md, "Reconnecting"): a move whose answer was
lost with its connection is sent again on a new connection with the same id, and the server
applies it once and answers with the current state — also after the game moved on. The
browser's side is tests/browser/test_table_reconnect.py."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.models import Game, Move
from tests.games.helpers import a_center_move, a_side_move, current_game
from tests.sockets import QUIET, frames, open_socket, send, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(alice, human_starts) -> Game:
    """Game 1 of alice against the greedy bot (moving inline), alice to move, version 0."""
    return current_game(human_starts(alice))


@sync_to_async
def rows(game: Game, move_id: str) -> tuple[int, int]:
    """The game's version, and how many Move rows carry ``move_id``."""
    version = Game.objects.get(pk=game.pk).version
    return version, Move.objects.filter(game_id=game.pk, client_move_id=move_id).count()


async def a_move_whose_answer_is_lost(table: Game, cookie: str, move: str, move_id: str) -> None:
    """Send ``move`` and close the connection without reading the answer."""
    socket = await open_socket(f"/ws/games/{table.pk}/", cookie)
    assert (await socket.receive_json_from())["version"] == 0
    await send(socket, {"type": "move", "move": move, "version": 0, "id": move_id})
    await socket.disconnect()


@pytest.mark.parametrize("ends_turn", [False, True], ids=["turn goes on", "bot moved since"])
async def test_a_move_resent_on_a_new_connection_is_applied_once(table, alice, ends_turn) -> None:
    cookie = await sync_to_async(session_cookie)(alice, Client())
    move = a_side_move(table) if ends_turn else a_center_move(table)
    await a_move_whose_answer_is_lost(table, cookie, move, "lost-1")
    version, count = await rows(table, "lost-1")
    assert count == 1 and (version > 1 if ends_turn else version == 1)  # the bot answered

    socket = await open_socket(f"/ws/games/{table.pk}/", cookie)
    try:
        on_connect = await socket.receive_json_from()
        assert on_connect["type"] == "state" and on_connect["version"] == version
        await send(socket, {"type": "move", "move": move, "version": 0, "id": "lost-1"})
        [answer] = await frames(socket)  # the state, never stale_version for a known id
        assert answer == on_connect
        await send(socket, {"type": "sync"})
        [again] = await frames(socket)
        assert again["version"] == version
        assert await socket.receive_nothing(timeout=QUIET)
    finally:
        await socket.disconnect()
    assert await rows(table, "lost-1") == (version, 1)
