"""Bad input on every socket of the site (issue 10, "Bad input"): each refusal is an ``error``
frame with a code, the connection stays open (a ``sync`` that follows is answered), and nothing
in the database changes. Also: a user's socket cannot act in another's game, and every socket
route refuses a foreign or missing Origin.

Already covered elsewhere and not repeated here: the throttle (tests/games/test_consumers.py,
tests/lobby/test_consumers.py, tests/leagues/test_queue.py), anonymous /ws/me/ (4401) and the
queue's refusals on connect (4401, 4403, 4404), an unknown game (4404), a stale version answered
with the state, a resent move applied once, the token bucket and ``decode`` in isolation
(tests/games/test_sockets.py). Generated messages: tests/games/test_consumer_fuzz.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from core.errors import CODES
from games import services
from games.models import Game, Move
from leagues.models import League, Membership, QueueEntry
from lobby import services as lobby_services
from lobby.models import Challenge
from tests.accounts.factories import UserFactory
from tests.games.helpers import SMALL, a_center_move, current_game, legal
from tests.sockets import open_socket, session_cookie, site_headers

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

TIMEOUT = 5  # seconds for any one reply

#: Text frames that are not a JSON object with a known type: every socket says bad_message.
NOT_MESSAGES: list[tuple[str, str]] = [
    ("not JSON", "{not json"),
    ("empty text", ""),
    ("a list", "[1, 2]"),
    ("a number", "3"),
    ("null", "null"),
    ("a string", '"move"'),
    ("nested too deep", "[" * 2000 + "]" * 2000),  # under the size limit; used to crash
    ("object nested too deep", '{"a":' * 1000 + "1" + "}" * 1000),
    ("no type", '{"move": "p-c1"}'),
    ("unknown type", '{"type": "dance"}'),
    ("type not a string", '{"type": 7}'),
    ("type null", '{"type": null}'),
    ("type a list", '{"type": ["sync"]}'),
    ("a handler of the channel layer", '{"type": "game_event", "version": 99, "frames": {}}'),
    ("over the size limit", json.dumps({"type": "sync", "pad": "x" * 5000})),
]


def game_messages(version: int, move: str) -> list[tuple[str, dict[str, Any], str]]:
    """Messages of the game socket's types with missing or wrong fields: bad_message each."""
    good = {"type": "move", "move": move, "version": version, "id": "m1"}

    def move_with(**changes: Any) -> dict[str, Any]:
        return {k: v for k, v in {**good, **changes}.items() if v is not ...}

    return [
        ("move without id", move_with(id=...), "bad_message"),
        ("move without text", move_with(move=...), "bad_message"),
        ("move without version", move_with(version=...), "bad_message"),
        ("id a number", move_with(id=5), "bad_message"),
        ("id empty", move_with(id=""), "bad_message"),
        ("id too long", move_with(id="x" * 65), "bad_message"),
        ("id with NUL", move_with(id="a\x00b"), "bad_message"),
        ("id a lone surrogate", move_with(id="\ud800"), "bad_message"),
        ("id with a newline", move_with(id="a\nb"), "bad_message"),
        ("move a number", move_with(move=7), "bad_message"),
        ("move empty", move_with(move=""), "bad_message"),
        ("move too long", move_with(move="h:7D-c2" * 10), "bad_message"),
        ("move a list", move_with(move=[move]), "bad_message"),
        ("version a string", move_with(version=str(version)), "bad_message"),
        ("version a bool", move_with(version=False), "bad_message"),
        ("version a float", move_with(version=float(version)), "bad_message"),
        ("version null", move_with(version=None), "bad_message"),
        ("move text no move", move_with(move="h:ZZ-c1"), "illegal_move"),
        ("move text with NUL", move_with(move="p-\x00"), "illegal_move"),
        ("version far ahead", move_with(version=2**70), "stale_version"),
        ("version negative", move_with(version=-1), "stale_version"),
        ("resign without scope", {"type": "resign"}, "bad_message"),
        ("resign scope unknown", {"type": "resign", "scope": "set"}, "bad_message"),
        ("resign scope a list", {"type": "resign", "scope": ["game"]}, "bad_message"),
        ("resign scope an object", {"type": "resign", "scope": {"game": 1}}, "bad_message"),
        ("undo without version", {"type": "undo"}, "bad_message"),
        ("undo version a string", {"type": "undo", "version": "0"}, "bad_message"),
        ("rematch without action", {"type": "rematch"}, "bad_message"),
        ("rematch action unknown", {"type": "rematch", "action": "maybe"}, "bad_message"),
        ("rematch action a list", {"type": "rematch", "action": ["offer"]}, "bad_message"),
    ]


# --- helpers ------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _no_throttle(settings):
    """Many messages per test: the throttle has its own tests."""
    settings.GAMES_WS_THROTTLE = (10_000, 1.0)


def cookie_of(user) -> str:
    return session_cookie(user, Client())


@sync_to_async
def snapshot(game_id: int) -> tuple[Any, ...]:
    """What must not change: the game's version, state and status, its Move rows, its match."""
    game = Game.objects.select_related("match").get(pk=game_id)
    moves = list(Move.objects.filter(game_id=game_id).values_list("ply", "text"))
    match = game.match
    return (game.version, game.state, game.status, moves, match.status, match.score0, match.score1)


async def send_raw(socket: WebsocketCommunicator, frame: str | bytes | dict | list) -> None:
    if frame in ("", b""):  # the communicator's send_to refuses an empty frame
        key = "text" if isinstance(frame, str) else "bytes"
        await socket.send_input({"type": "websocket.receive", key: frame})
    elif isinstance(frame, bytes):
        await socket.send_to(bytes_data=frame)
    elif isinstance(frame, str):
        await socket.send_to(text_data=frame)
    else:
        await socket.send_to(text_data=json.dumps(frame))


def well_formed_error(frame: dict[str, Any]) -> None:
    assert frame["type"] == "error", frame
    assert frame["code"] in CODES, frame
    assert isinstance(frame["message"], str) and frame["message"], frame


async def game_refusal(socket: WebsocketCommunicator, frame: Any) -> dict[str, Any]:
    """Send ``frame`` and then ``sync`` on a game socket: the refusal, after which the socket
    still answers (a ``stale_version`` brings the state first, as the protocol says)."""
    await send_raw(socket, frame)
    await send_raw(socket, {"type": "sync"})
    error = await socket.receive_json_from(timeout=TIMEOUT)
    well_formed_error(error)
    states = 2 if error["code"] == "stale_version" else 1
    for _ in range(states):
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"
    return error


async def game_socket(game_id: int, cookie: str | None = None) -> WebsocketCommunicator:
    socket = await open_socket(f"/ws/games/{game_id}/", cookie)
    first = await socket.receive_json_from(timeout=TIMEOUT)
    assert first["type"] == "state", first
    return socket


async def quiet_spectators(*sockets: WebsocketCommunicator) -> None:
    """Read the ``spectators`` counts that connecting watchers send to earlier sockets."""
    for socket in sockets:
        while not await socket.receive_nothing(timeout=0.2):
            assert (await socket.receive_json_from())["type"] == "spectators"


@pytest.fixture
def table(alice, human_starts) -> Game:
    """Game 1 of alice against the greedy bot: alice to move, version 0."""
    return current_game(human_starts(alice))


# --- the game socket ----------------------------------------------------------------------------


async def test_a_player_is_refused_every_malformed_frame_and_the_game_stays(table, alice) -> None:
    before = await snapshot(table.pk)
    socket = await game_socket(table.pk, await sync_to_async(cookie_of)(alice))
    try:
        for label, text in NOT_MESSAGES:
            error = await game_refusal(socket, text)
            assert error["code"] == "bad_message", label
        binary = [("binary", b"\x00\x01"), ("JSON as binary", b'{"type": "sync"}'), ("empty", b"")]
        for label, data in binary:
            error = await game_refusal(socket, data)
            assert error["code"] == "bad_message", label
        for label, message, code in game_messages(0, a_center_move(table)):
            error = await game_refusal(socket, message)
            assert error["code"] == code, label
            move_id = message.get("id") if message["type"] == "move" else None
            if isinstance(move_id, str) and len(move_id) <= 64:
                assert error["id"] == move_id, label  # a move's refusal names it
            else:
                assert "id" not in error, label
        assert await snapshot(table.pk) == before
    finally:
        await socket.disconnect()


async def test_spectators_strangers_and_anonymous_sockets_cannot_act(table, bob) -> None:
    """bob (logged in, not a player) and an anonymous socket try everything a player may do."""
    before = await snapshot(table.pk)
    stranger = await game_socket(table.pk, await sync_to_async(cookie_of)(bob))
    anonymous = await game_socket(table.pk)
    await quiet_spectators(stranger)
    actions = [
        {"type": "move", "move": legal(table, 0)[0], "version": 0, "id": "s1"},
        {"type": "move", "move": legal(table, 0)[0], "version": 0, "id": "s1", "seat": 0},
        {"type": "resign", "scope": "game"},
        {"type": "resign", "scope": "match"},
        {"type": "undo", "version": 0},
        {"type": "abort"},
        {"type": "rematch", "action": "offer"},
    ]
    try:
        for action in actions:
            assert (await game_refusal(stranger, action))["code"] == "forbidden", action
            assert (await game_refusal(anonymous, action))["code"] == "unauthenticated", action
        assert await snapshot(table.pk) == before
    finally:
        await stranger.disconnect()
        await anonymous.disconnect()


async def test_a_socket_acts_only_in_its_own_game_whatever_a_frame_names(
    table, alice, bob, human_starts
) -> None:
    """Frames carry no game id: the socket's address names the game. alice on bob's game is a
    stranger there, even with a frame naming her own game; bob's and her game stay as they are."""
    bobs = await sync_to_async(lambda: current_game(human_starts(bob)))()
    mine, theirs = await snapshot(table.pk), await snapshot(bobs.pk)
    socket = await game_socket(bobs.pk, await sync_to_async(cookie_of)(alice))
    try:
        for move in (a_center_move(bobs), a_center_move(table)):
            for extra in ({}, {"game": table.pk}, {"game_id": table.pk, "match": table.match_id}):
                frame = {"type": "move", "move": move, "version": 0, "id": "x1", **extra}
                assert (await game_refusal(socket, frame))["code"] == "forbidden", frame
        for frame in ({"type": "resign", "scope": "match", "game": table.pk}, {"type": "abort"}):
            assert (await game_refusal(socket, frame))["code"] == "forbidden", frame
        assert (await snapshot(table.pk), await snapshot(bobs.pk)) == (mine, theirs)
    finally:
        await socket.disconnect()


async def test_a_finished_game_takes_no_more_moves(table, alice) -> None:
    await sync_to_async(services.game_resign)(game_id=table.pk, user=alice, scope="match")
    before = await snapshot(table.pk)
    assert before[2] != "active"
    socket = await game_socket(table.pk, await sync_to_async(cookie_of)(alice))
    try:
        cases = [
            (
                {"type": "move", "move": legal(table, 0)[0], "version": before[0], "id": "z"},
                "game_over",
            ),
            ({"type": "resign", "scope": "game"}, "game_over"),
            ({"type": "undo", "version": before[0]}, "game_over"),
            ({"type": "abort"}, "game_over"),
        ]
        for message, code in cases:
            assert (await game_refusal(socket, message))["code"] == code, message
        assert await snapshot(table.pk) == before
    finally:
        await socket.disconnect()


# --- the per-user socket, /ws/me/ ---------------------------------------------------------------


async def me_refusal(socket: WebsocketCommunicator, frame: Any) -> dict[str, Any]:
    """Send ``frame`` and then ``sync``: the refusal, then ``challenges`` and ``games``."""
    await send_raw(socket, frame)
    await send_raw(socket, {"type": "sync"})
    error = await socket.receive_json_from(timeout=TIMEOUT)
    well_formed_error(error)
    assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "challenges"
    assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "games"
    return error


@sync_to_async
def challenges_snapshot() -> list[tuple[Any, ...]]:
    return list(
        Challenge.objects.order_by("pk").values_list("pk", "status", "match_id", "answered_at")
    )


async def test_the_per_user_socket_refuses_bad_input_and_stays_open(alice, bob) -> None:
    await sync_to_async(UserFactory)(username="carol")
    to_bob = await sync_to_async(lobby_services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    to_carol = await sync_to_async(lobby_services.challenge_create)(
        challenger=bob, challenged_username="carol", rules=SMALL
    )
    before = await challenges_snapshot()
    socket = await open_socket("/ws/me/", await sync_to_async(cookie_of)(alice))
    for kind in ("challenges", "games"):
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == kind
    cases: list[tuple[Any, str]] = [
        *((text, "bad_message") for _, text in NOT_MESSAGES),
        (b"\x00", "bad_message"),
        ({"type": "challenge_answer", "accept": True}, "bad_message"),
        ({"type": "challenge_answer", "id": str(to_bob.pk), "accept": True}, "bad_message"),
        ({"type": "challenge_answer", "id": 0, "accept": True}, "bad_message"),
        ({"type": "challenge_answer", "id": True, "accept": True}, "bad_message"),
        ({"type": "challenge_answer", "id": 1.5, "accept": True}, "bad_message"),
        ({"type": "challenge_answer", "id": to_bob.pk, "accept": "yes"}, "bad_message"),
        ({"type": "challenge_answer", "id": to_bob.pk}, "bad_message"),
        ({"type": "challenge_answer", "id": 2**70, "accept": True}, "not_found"),
        ({"type": "challenge_answer", "id": to_bob.pk + 99, "accept": False}, "not_found"),
        # her own challenge to bob is not hers to answer; one between two other people is
        # not even hers to see
        ({"type": "challenge_answer", "id": to_bob.pk, "accept": True}, "forbidden"),
        ({"type": "challenge_answer", "id": to_carol.pk, "accept": True}, "not_found"),
        ({"type": "seek_take"}, "bad_message"),
        ({"type": "seek_take", "id": [1]}, "bad_message"),
        ({"type": "seek_take", "id": -3}, "bad_message"),
        ({"type": "seek_take", "id": 2**70}, "not_found"),
        ({"type": "move", "move": "p-c1", "version": 0, "id": "m"}, "bad_message"),
    ]
    try:
        for frame, code in cases:
            label = frame if not isinstance(frame, str) else frame[:40]
            assert (await me_refusal(socket, frame))["code"] == code, label
        assert await challenges_snapshot() == before
    finally:
        await socket.disconnect()


# --- the ranked queue socket --------------------------------------------------------------------


async def test_the_queue_socket_refuses_every_frame_and_keeps_the_place(alice) -> None:
    league = await sync_to_async(League.objects.create)(
        slug="north", name="North League", rules=SMALL.to_dict()
    )
    await sync_to_async(Membership.objects.create)(league=league, user=alice)
    socket = await open_socket("/ws/leagues/north/queue/", await sync_to_async(cookie_of)(alice))
    try:
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "queued"
        place = await sync_to_async(lambda: list(QueueEntry.objects.values_list("pk", "user")))()
        frames: list[Any] = [text for _, text in NOT_MESSAGES]
        frames += [b"\x00", {"type": "sync"}, {"type": "move", "move": "p-c1", "version": 0}]
        for frame in frames:
            await send_raw(socket, frame)
            reply = await socket.receive_json_from(timeout=TIMEOUT)
            while reply["type"] == "queue":  # a count or window change may come between
                reply = await socket.receive_json_from(timeout=TIMEOUT)
            well_formed_error(reply)
            assert reply["code"] == "bad_message", (
                frame if not isinstance(frame, str) else frame[:40]
            )
        assert (
            await sync_to_async(lambda: list(QueueEntry.objects.values_list("pk", "user")))()
            == place
        )
    finally:
        await socket.disconnect()


# --- origins ------------------------------------------------------------------------------------

ROUTES = ["/ws/games/{game}/", "/ws/me/", "/ws/leagues/north/queue/"]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "origin",
    [None, b"http://evil.example", b"https://localhost.evil.example", b"null"],
    ids=["no origin", "foreign", "look-alike", "null"],
)
async def test_every_socket_route_refuses_a_foreign_or_missing_origin(
    table, alice, route, origin
) -> None:
    from spite.asgi import application

    cookie = await sync_to_async(cookie_of)(alice)
    headers = [
        (b"host", b"localhost"),
        (b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    if origin is not None:
        headers.append((b"origin", origin))
    path = route.format(game=table.pk)
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    try:
        assert connected is False, path
    finally:
        await communicator.disconnect()


@pytest.mark.parametrize("route", ROUTES)
async def test_every_socket_route_accepts_the_sites_own_origin(table, alice, route) -> None:
    league = await sync_to_async(League.objects.create)(
        slug="north", name="North", rules=SMALL.to_dict()
    )
    await sync_to_async(Membership.objects.create)(league=league, user=alice)
    from spite.asgi import application

    cookie = await sync_to_async(cookie_of)(alice)
    headers = [
        *site_headers(),
        (b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()),
    ]
    path = route.format(game=table.pk)
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    try:
        assert connected is True
        first = await communicator.receive_json_from(timeout=TIMEOUT)
        assert (
            first["type"]
            == {"games": "state", "me": "challenges", "leagues": "queued"}[path.split("/")[2]]
        )
    finally:
        await communicator.disconnect()
