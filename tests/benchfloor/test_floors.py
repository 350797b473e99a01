"""The bench floors (docs/performance.md): absent unless settings.BENCH_FLOORS, then an echo
and an echo that commits one row."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings

from benchfloor.models import BenchEcho
from benchfloor.routing import websocket_urlpatterns
from tests.sockets import site_headers

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def _echo_texts() -> list[str]:
    """The floor's rows, read as the consumers read: through channels' database thread, which
    hands its connection back afterwards. (Django's async ORM would keep one open in asgiref's
    thread to the end, and the test database could not be dropped.)"""
    return list(BenchEcho.objects.order_by("pk").values_list("text", flat=True))


@pytest.mark.parametrize("path", ["/ws/bench/echo/", "/ws/bench/commit/"])
async def test_the_floors_are_not_routed_by_default(path: str) -> None:
    from spite.asgi import application

    assert settings.BENCH_FLOORS is False
    assert websocket_urlpatterns() == []
    communicator = WebsocketCommunicator(application, path, headers=site_headers())
    connected, _code = await communicator.connect()
    await communicator.disconnect()
    assert connected is False  # refused as any path the site does not serve


async def test_the_echo_floor_echoes_when_on(settings) -> None:
    settings.BENCH_FLOORS = True
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns()), "/ws/bench/echo/")
    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_to(text_data='{"n": 1}')
    assert await communicator.receive_from() == '{"n": 1}'
    await communicator.disconnect()
    assert await _echo_texts() == []


async def test_the_commit_floor_commits_one_row_per_echo_when_on(settings) -> None:
    settings.BENCH_FLOORS = True
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns()), "/ws/bench/commit/")
    connected, _ = await communicator.connect()
    assert connected
    for n in (1, 2):
        await communicator.send_to(text_data=f'{{"n": {n}}}')
        assert await communicator.receive_from() == f'{{"n": {n}}}'
    await communicator.disconnect()
    assert await _echo_texts() == ['{"n": 1}', '{"n": 2}']
