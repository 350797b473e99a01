"""Sockets speak the connection's language (core.sockets.JsonSocket): chosen once at connect
from the user's profile, the language cookie or the handshake's Accept-Language, and active in
every handler, group event and service the socket runs (in the database thread too). A
stand-in gettext marks each English text with the language active when it is read, so these
tests do not depend on the catalogs' words (tests/test_catalogs.py and the browser test in
Vietnamese check those)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from core.errors import NOT_FOUND, GameError
from games import consumers
from tests import sockets
from tests.games.helpers import current_game
from tests.sockets import frames, send

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def connect_seen(monkeypatch) -> list[str | None]:
    """The game socket's connect refuses (not_found) from the database thread, noting the
    language active there."""
    seen: list[str | None] = []

    def refuse(*, game_id: int, user) -> None:
        seen.append(translation.get_language())
        raise GameError(NOT_FOUND, translation.gettext_lazy("There is no such game."))

    monkeypatch.setattr(consumers, "game_connect", refuse)
    return seen


async def _refusal_on_connect(headers=(), cookie: str | None = None) -> dict:
    communicator = await sockets.open_socket("/ws/games/1/", cookie, headers)
    try:
        frame = await communicator.receive_json_from()  # then the socket closes
    finally:
        await communicator.disconnect()
    return frame


async def test_a_handshake_in_vietnamese_gets_its_refusal_in_vietnamese(
    marked, connect_seen
) -> None:
    frame = await _refusal_on_connect(headers=[(b"accept-language", b"vi,en;q=0.5")])
    assert frame["code"] == "not_found"
    assert frame["message"] == "[vi]There is no such game."
    assert connect_seen == ["vi"]  # the service ran in the database thread under "vi"


async def test_a_socket_without_a_language_gets_english(marked, connect_seen) -> None:
    frame = await _refusal_on_connect()
    assert frame["message"] == "[en]There is no such game."
    assert connect_seen == ["en"]


async def test_the_profile_language_wins_over_the_handshake(marked, connect_seen, alice) -> None:
    alice.language = "vi"
    await sync_to_async(alice.save)(update_fields=["language"])
    cookie = await sync_to_async(sockets.session_cookie)(alice)
    frame = await _refusal_on_connect(headers=[(b"accept-language", b"es")], cookie=cookie)
    assert frame["message"] == "[vi]There is no such game."
    assert connect_seen == ["vi"]


async def test_handlers_and_services_speak_the_sockets_language(
    marked, alice, human_starts
) -> None:
    alice.language = "vi"
    await sync_to_async(alice.save)(update_fields=["language"])
    game = await sync_to_async(lambda: current_game(human_starts(alice)))()
    cookie = await sync_to_async(sockets.session_cookie)(alice)
    communicator = await sockets.open_socket(f"/ws/games/{game.pk}/", cookie)
    try:
        await frames(communicator)
        await send(communicator, {"type": "nope"})  # refused in the handler's dispatch
        await send(communicator, {"type": "move", "id": "m1", "move": "s1-c1", "version": 0})
        errors = [f for f in await frames(communicator) if f["type"] == "error"]
    finally:
        await communicator.disconnect()
    unknown, illegal = errors
    assert unknown["code"] == "bad_message" and unknown["message"].startswith("[vi]Unknown")
    assert illegal["code"] == "illegal_move" and illegal["engine_code"] == "empty_stack"
    assert illegal["message"] == "[vi]Side stack 1 is empty: there is no card to play from it."
    assert illegal["params"] == {"stack": "s1"} and illegal["id"] == "m1"


async def test_a_challenge_frame_reads_in_the_receiving_sockets_language(marked) -> None:
    """A challenge frame is built once, in the language of whoever made the change; the
    receiving socket says its summary again in its own language."""
    import engine
    from lobby import selectors
    from lobby.consumers import NotificationConsumer

    rules = engine.Rules().to_dict()
    with translation.override("en"):
        built = {
            "type": "challenge",
            "rules": rules,
            "league": None,
            "summary": selectors.challenge_summary(rules, None),
        }
    socket = NotificationConsumer()
    sent: list[dict] = []

    async def send_json(frame: dict) -> None:
        sent.append(frame)

    socket.send_json = send_json
    with translation.override("vi"):
        await socket.user_frames({"frames": [built, {"type": "games", "games": []}]})
    assert built["summary"].startswith("[en]")
    assert sent[0]["summary"].startswith("[vi]") and "[en]" not in sent[0]["summary"]
    assert sent[1] == {"type": "games", "games": []}
