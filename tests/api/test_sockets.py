"""API tokens on the game socket: ?token=<key> or an Authorization header makes the
connection the token's user; a revoked or unknown token leaves it a spectator."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from api.services import api_token_create, api_token_revoke
from tests.sockets import open_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def _first_frame(path: str, headers: list[tuple[bytes, bytes]]) -> dict[str, Any]:
    communicator = await open_socket(path, headers=headers)
    try:
        return await communicator.receive_json_from()
    finally:
        await communicator.disconnect()


@pytest.fixture
def key_and_game(alice, human_starts) -> tuple[str, int, int]:
    from tests.games.helpers import current_game

    token, key = api_token_create(user=alice, name="bot")
    return key, current_game(human_starts(alice)).pk, token.pk


async def test_a_token_in_the_query_string_makes_the_socket_the_players(key_and_game) -> None:
    key, game_id, _ = key_and_game
    frame = await _first_frame(f"/ws/games/{game_id}/?token={key}", [])
    assert frame["type"] == "state" and frame["you"] == 0


async def test_a_token_in_the_authorization_header_works_too(key_and_game) -> None:
    key, game_id, _ = key_and_game
    frame = await _first_frame(
        f"/ws/games/{game_id}/", [(b"authorization", f"Bearer {key}".encode())]
    )
    assert frame["you"] == 0


async def test_without_a_token_or_with_a_revoked_one_the_socket_is_a_spectators(
    alice, key_and_game
) -> None:
    key, game_id, token_id = key_and_game
    assert (await _first_frame(f"/ws/games/{game_id}/", []))["you"] is None
    await sync_to_async(api_token_revoke)(user=alice, token_id=token_id)
    frame = await _first_frame(f"/ws/games/{game_id}/?token={key}", [])
    assert frame["you"] is None


# --- a revoked token's socket (docs/protocol.md, "Signed out") ---------------------------------


@pytest.fixture
def doorbell_lost(monkeypatch):
    """The channel layer loses every event sent from sync code (it is at most once): what a
    socket refuses then, it refuses by its own check."""
    from core import layer

    def lost(*args: Any, **kwargs: Any) -> None:
        pass

    def drop() -> None:
        monkeypatch.setattr(layer, "group_send_soon", lost)

    return drop


async def _signed_out(communicator, move_id: str | None = None) -> None:
    """The socket says why, then closes with 4401."""
    error = await communicator.receive_json_from()
    assert error["type"] == "error" and error["code"] == "unauthenticated", error
    if move_id is not None:
        assert error["id"] == move_id
    assert await communicator.receive_output() == {"type": "websocket.close", "code": 4401}


async def test_a_move_from_a_revoked_tokens_socket_is_refused_and_the_socket_closed(
    alice, key_and_game, doorbell_lost
) -> None:
    from games.models import Game
    from tests.games.helpers import legal

    key, game_id, token_id = key_and_game
    communicator = await open_socket(f"/ws/games/{game_id}/?token={key}")
    try:
        state = await communicator.receive_json_from()
        assert state["you"] == 0
        doorbell_lost()
        await sync_to_async(api_token_revoke)(user=alice, token_id=token_id)
        game = await sync_to_async(Game.objects.get)(pk=game_id)
        move = legal(game, 0)[0]
        await communicator.send_json_to(
            {"type": "move", "move": move, "version": game.version, "id": "m-1"}
        )
        await _signed_out(communicator, move_id="m-1")
        assert (await sync_to_async(Game.objects.get)(pk=game_id)).version == game.version
    finally:
        await communicator.disconnect()


async def test_revoking_a_token_closes_its_sockets(alice, key_and_game) -> None:
    key, game_id, token_id = key_and_game
    communicator = await open_socket(f"/ws/games/{game_id}/?token={key}")
    try:
        assert (await communicator.receive_json_from())["you"] == 0
        await sync_to_async(api_token_revoke)(user=alice, token_id=token_id)
        await _signed_out(communicator)
    finally:
        await communicator.disconnect()


async def test_revoking_a_token_leaves_the_users_other_sockets_open(alice, key_and_game) -> None:
    """The event tells all of the user's sockets; only those of that token are closed."""
    from tests.sockets import QUIET

    key, game_id, token_id = key_and_game
    _other, other_key = await sync_to_async(api_token_create)(user=alice, name="other")
    revoked = await open_socket(f"/ws/games/{game_id}/?token={key}")
    kept = await open_socket(f"/ws/games/{game_id}/?token={other_key}")
    try:
        await revoked.receive_json_from()
        await kept.receive_json_from()
        await sync_to_async(api_token_revoke)(user=alice, token_id=token_id)
        await _signed_out(revoked)
        assert await kept.receive_nothing(timeout=QUIET)
        await kept.send_json_to({"type": "sync"})
        assert (await kept.receive_json_from())["you"] == 0
    finally:
        await revoked.disconnect()
        await kept.disconnect()
