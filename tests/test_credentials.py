"""A socket acts only while its user still holds the rights it opened with (core/credentials.py,
docs/protocol.md "Signed out"): a browser's socket after a password change elsewhere or a log
out, against the whole ASGI application with real session cookies. The API tokens' sockets are
in tests/api/test_sockets.py, the per-user socket of a deleted account in
tests/lobby/test_consumers.py."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import Game
from tests.accounts.factories import PASSWORD
from tests.games.conftest import (  # noqa: F401  (fixtures, re-used)
    _fast_password_hashing,
    _own_spectator_keys,
    alice,
    human_starts,
    seeds,
)
from tests.games.helpers import current_game, legal
from tests.sockets import QUIET, open_socket
from tests.sockets import session_cookie as cookie_of

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

NEW = "quiet-lantern-73"


@pytest.fixture
def doorbell_lost(monkeypatch):
    """``doorbell_lost()``: from now on the channel layer loses every event sent from sync
    code (it is at most once); what a socket refuses then, it refuses by its own check."""
    from core import layer

    def lost(*args: Any, **kwargs: Any) -> None:
        pass

    return lambda: monkeypatch.setattr(layer, "group_send_soon", lost)


@pytest.fixture
def table(alice, human_starts) -> Game:  # noqa: F811  (the imported fixtures)
    """Game 1 of alice against the greedy bot, alice to move."""
    return current_game(human_starts(alice))


async def _player(game: Game, cookie: str) -> WebsocketCommunicator:
    socket = await open_socket(f"/ws/games/{game.pk}/", cookie)
    assert (await socket.receive_json_from())["you"] == 0
    return socket


async def _move(socket: WebsocketCommunicator, game: Game) -> None:
    game = await sync_to_async(Game.objects.get)(pk=game.pk)
    move = legal(game, 0)[0]
    await socket.send_json_to({"type": "move", "move": move, "version": game.version, "id": "m"})


async def _signed_out(socket: WebsocketCommunicator) -> None:
    error = await socket.receive_json_from()
    assert error["type"] == "error" and error["code"] == "unauthenticated", error
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4401}


async def _version(game: Game) -> int:
    return (await sync_to_async(Game.objects.get)(pk=game.pk)).version


@sync_to_async
def session_cookie(user: Any, client: Client | None = None) -> str:
    return cookie_of(user, client)


def _change_password(client: Client) -> None:
    response = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 302


async def test_a_sessions_socket_after_a_password_change_elsewhere_is_refused(
    alice,  # noqa: F811
    table,
    doorbell_lost,
) -> None:
    socket = await _player(table, await session_cookie(alice))
    try:
        doorbell_lost()
        elsewhere = Client()
        await session_cookie(alice, elsewhere)
        await sync_to_async(_change_password)(elsewhere)
        await _move(socket, table)
        await _signed_out(socket)
        assert await _version(table) == 0
    finally:
        await socket.disconnect()


async def test_a_password_change_closes_the_users_other_sessions_sockets(
    alice,  # noqa: F811
    table,
) -> None:
    socket = await _player(table, await session_cookie(alice))
    elsewhere = Client()
    kept = await _player(table, await session_cookie(alice, elsewhere))
    try:
        await sync_to_async(_change_password)(elsewhere)
        await _signed_out(socket)
    finally:
        await socket.disconnect()
        await kept.disconnect()


async def test_a_sessions_socket_after_logging_out_is_refused(
    alice,  # noqa: F811
    table,
    doorbell_lost,
) -> None:
    browser = Client()
    socket = await _player(table, await session_cookie(alice, browser))
    try:
        doorbell_lost()
        assert (await sync_to_async(browser.post)("/accounts/logout/")).status_code == 302
        await _move(socket, table)
        await _signed_out(socket)
        assert await _version(table) == 0
    finally:
        await socket.disconnect()


async def test_logging_out_closes_that_sessions_sockets_only(
    alice,  # noqa: F811
    table,
) -> None:
    browser, other = Client(), Client()
    socket = await _player(table, await session_cookie(alice, browser))
    kept = await _player(table, await session_cookie(alice, other))
    try:
        assert (await sync_to_async(browser.post)("/accounts/logout/")).status_code == 302
        await _signed_out(socket)
        assert await kept.receive_nothing(timeout=QUIET)
        await _move(kept, table)
        assert (await kept.receive_json_from())["type"] == "state"
    finally:
        await socket.disconnect()
        await kept.disconnect()
