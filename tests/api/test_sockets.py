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
