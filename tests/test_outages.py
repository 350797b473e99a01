"""The database away (core/outages.py): pages answer the site's 503 page in the visitor's
language, the REST API its JSON, and a socket an ``unavailable`` frame and close code 4503 —
never a 500, never a hang. The outage is played by making every new cursor fail as a refused
connection does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper

from tests.accounts.factories import UserFactory
from tests.sockets import open_socket, session_cookie

pytestmark = pytest.mark.django_db


@contextmanager
def database_away() -> Iterator[None]:
    """Every new cursor fails as a refused connection does, until the block ends (the test
    database's own teardown then works again)."""

    def refuse(self, *args, **kwargs):
        raise OperationalError('connection to server at "127.0.0.1", port 5432 failed: refused')

    with mock.patch.object(BaseDatabaseWrapper, "cursor", refuse):
        yield


@pytest.mark.parametrize("path", ["/leagues/", "/play/watch/", "/leagues/demo/"])
def test_a_page_answers_the_sites_503_in_the_visitors_language(client, path) -> None:
    with database_away():
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    html = response.content.decode()
    assert '<html lang="es">' in html
    assert "La mesa volverá en un momento" in html


def test_a_signed_in_players_page_answers_503_too(client) -> None:
    client.force_login(UserFactory())
    with database_away():  # the session and the user cannot be read
        response = client.get("/play/")
    assert response.status_code == 503
    assert "The table will be back in a moment" in response.content.decode()


def test_the_api_answers_unavailable_in_its_json(client) -> None:
    with database_away():
        response = client.get("/api/v1/games/1/")
    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"
    assert response.json()["params"] == {"retry_after": 5}


def test_without_debug_an_outage_before_any_view_is_the_503_page_too(settings) -> None:
    """``handler500`` (DEBUG off): an outage that no view saw, as while reading the session."""
    from django.test import RequestFactory

    from core.outages import server_error

    settings.DEBUG = False
    try:
        raise OperationalError("refused")
    except OperationalError:
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 503
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(RequestFactory().get("/")).status_code == 500


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_socket_is_told_unavailable_and_closed_to_try_again() -> None:
    """Whether the outage comes at the handshake (the session cannot be read) or later."""
    user = await sync_to_async(UserFactory)()
    cookie = await sync_to_async(session_cookie)(user)
    for at_handshake in (True, False):
        with ExitStack() as outage:
            if at_handshake:
                outage.enter_context(database_away())
            socket = await open_socket("/ws/me/", cookie)
            try:
                if not at_handshake:
                    assert (await socket.receive_json_from())["type"] == "challenges"
                    assert (await socket.receive_json_from())["type"] == "games"
                    outage.enter_context(database_away())
                    await socket.send_json_to({"type": "sync"})
                frame = await socket.receive_json_from()
                assert (frame["type"], frame["code"]) == ("error", "unavailable"), at_handshake
                assert await socket.receive_output() == {"type": "websocket.close", "code": 4503}
            finally:
                await socket.disconnect()
