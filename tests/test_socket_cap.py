"""The cap on open sockets per client address (core.socket_cap, docs/deploy.md): past
``SOCKETS_PER_CLIENT`` a client's next handshake is refused, other clients are not, and a
closed socket frees its place. The client is the one core.client_address reads."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from tests.games.conftest import _fast_password_hashing, alice, human_starts, seeds  # noqa: F401
from tests.games.helpers import current_game
from tests.sockets import site_headers

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def spectate(game_id: int, peer: str, forwarded: str = "") -> WebsocketCommunicator:
    """A communicator watching the game from ``peer`` (with an X-Forwarded-For if given),
    its handshake sent; ``.accepted`` tells whether it opened."""
    from spite.asgi import application

    headers = site_headers()
    if forwarded:
        headers.append((b"x-forwarded-for", forwarded.encode()))
    communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    communicator.scope["client"] = [peer, 50000]
    communicator.accepted, _ = await communicator.connect()
    return communicator


async def test_sockets_past_the_cap_are_refused_for_that_client_only(
    alice,  # noqa: F811
    human_starts,  # noqa: F811
    settings,
) -> None:
    settings.SOCKETS_PER_CLIENT = 2
    game = await sync_to_async(lambda: current_game(human_starts(alice)))()
    first = [await spectate(game.pk, "203.0.113.7") for _ in range(2)]
    assert [c.accepted for c in first] == [True, True]
    refused = await spectate(game.pk, "203.0.113.7")
    assert not refused.accepted
    other = await spectate(game.pk, "198.51.100.20")
    assert other.accepted  # another client has its own count
    await first[0].disconnect()
    again = await spectate(game.pk, "203.0.113.7")
    assert again.accepted  # a closed socket frees its place
    for communicator in (first[1], other, again):
        await communicator.disconnect()


async def test_behind_the_proxy_the_cap_counts_the_client_the_proxy_saw(
    alice,  # noqa: F811
    human_starts,  # noqa: F811
    settings,
) -> None:
    settings.SOCKETS_PER_CLIENT = 2
    settings.PROXY_COUNT = 1
    game = await sync_to_async(lambda: current_game(human_starts(alice)))()
    proxy = "127.0.0.1"
    opened = [await spectate(game.pk, proxy, f"10.0.0.{n}, 203.0.113.7") for n in range(2)]
    assert all(c.accepted for c in opened)
    assert not (await spectate(game.pk, proxy, "10.0.0.9, 203.0.113.7")).accepted
    other = await spectate(game.pk, proxy, "198.51.100.20")
    assert other.accepted  # the proxy's own address is not what is counted
    for communicator in (*opened, other):
        await communicator.disconnect()
