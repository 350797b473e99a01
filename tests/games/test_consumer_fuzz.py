"""Generated messages against the real game socket (issue 10, "Bad input"): JSON objects with
the real message types and made-up ones, fields of every JSON type, values that are not
objects, text that is not JSON, binary frames. They go to a game where it is the bot's turn,
from its player, a logged-in stranger and an anonymous socket, so no message can rightly
change it (a player's valid ``resign`` or ``abort`` is sent by the stranger instead). Every
reply must be a JSON object with a ``type`` (an ``error`` with a known ``code`` and a message),
every socket must still answer ``sync``, and the game must be exactly as it was.

One event loop and three sockets serve every example; hypothesis runs derandomized.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import CODES, STALE_VERSION
from games.models import Game, Move
from tests.games.helpers import current_game, legal
from tests.sockets import open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5
TYPES = ["move", "undo", "resign", "abort", "rematch", "sync"]

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats()
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)


def messages(moves: list[str], kinds: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects shaped like the protocol's messages: a ``type`` drawn from ``kinds``, the other
    fields right, wrong or missing, and made-up fields besides."""
    fields = {
        "move": st.sampled_from([*moves, "p-c1", "h:ZZ-c1", "", "s9-c1"]) | json_values,
        "version": st.sampled_from([0, 1, -1, 2**63, 2**70]) | json_values,
        "id": st.text(min_size=1, max_size=70) | json_values,
        "scope": st.sampled_from(["game", "match", "set"]) | json_values,
        "action": st.sampled_from(["offer", "accept", "decline", "no"]) | json_values,
        "game": st.integers(min_value=-1, max_value=10**6),
    }
    known = st.fixed_dictionaries({"type": kinds}, optional=fields)
    extra = st.dictionaries(st.text(max_size=8), json_values, max_size=3)
    return st.builds(lambda a, b: {**b, **a}, known, extra)


def frames(moves: list[str]) -> st.SearchStrategy[tuple[str, Any]]:
    """(how to send it, what): mostly messages of the real types, and also messages of made-up
    types, any JSON value, any text, bytes, nesting past the decoder's depth, oversize."""
    real = messages(moves, st.sampled_from(TYPES))
    proper = st.fixed_dictionaries(  # every field of the right type: only the rules refuse it
        {
            "type": st.sampled_from(TYPES),
            "move": st.sampled_from([*moves, "p-c1", "h:ZZ-c1"]),
            "version": st.sampled_from([0, 1, -1, 2**70]),
            "id": st.text("abcdef0123456789-", min_size=1, max_size=64),
            "scope": st.sampled_from(["game", "match"]),
            "action": st.sampled_from(["offer", "accept", "decline"]),
        }
    )
    other = messages(moves, st.sampled_from(["dance", "", "game_event", "MOVE"]) | json_values)
    return st.one_of(
        st.tuples(st.just("json"), proper),
        st.tuples(st.just("json"), proper),
        st.tuples(st.just("json"), real),
        st.tuples(st.just("json"), real),
        st.tuples(st.just("json"), other),
        st.tuples(st.just("json"), json_values),
        st.tuples(st.just("text"), st.text(max_size=60)),
        st.tuples(st.just("text"), st.builds(lambda t: "{" + t, st.text(max_size=30))),
        st.tuples(st.just("bytes"), st.binary(min_size=1, max_size=40)),
        st.tuples(st.just("text"), st.builds(nested, depths, st.booleans())),
        st.tuples(st.just("json"), st.builds(padded, real, st.integers(4000, 5000))),
    )


#: How deep ``nested`` goes, within the size limit. Hypothesis raises the recursion limit while
#: it runs a test, so the decoder's RecursionError is tested in test_bad_input.py instead.
depths = st.sampled_from([2, 999, 2040]) | st.integers(1, 2040)


def nested(depth: int, objects: bool) -> str:
    """Arrays ``depth`` deep, with an object at every level when ``objects`` (at most as deep
    as the size limit allows)."""
    if objects:
        depth = min(depth, 800)
        return '{"":' * depth + "0" + "}" * depth
    return "[" * depth + "]" * depth


def padded(message: dict[str, Any], size: int) -> dict[str, Any]:
    """``message`` with a field that takes it to about ``size`` characters, near the limit."""
    return {**message, "pad": "x" * size}


def rightly_changes(frame: Any) -> bool:
    """What a player may do off turn: resign, or abort before both seats moved."""
    if not isinstance(frame, dict):
        return False
    kind = frame.get("type")
    return kind == "abort" or (kind == "resign" and frame.get("scope") in ("game", "match"))


def snapshot(game_id: int) -> tuple[Any, ...]:
    game = Game.objects.select_related("match").get(pk=game_id)
    count = Move.objects.filter(game_id=game_id).count()
    return (game.version, game.state, game.status, count, game.match.status)


class Sockets:
    """The three sockets, on one event loop that lives as long as the test."""

    def __init__(self, game_id: int, cookies: dict[str, str | None]) -> None:
        self.loop = asyncio.new_event_loop()
        self.sockets: dict[str, WebsocketCommunicator] = {}
        for name, cookie in cookies.items():
            self.sockets[name] = self.run(self._open(game_id, cookie))
        for socket in self.sockets.values():  # the spectator counts of those connecting later
            self.run(self._drain(socket))

    def run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    async def _open(self, game_id: int, cookie: str | None) -> WebsocketCommunicator:
        socket = await open_socket(f"/ws/games/{game_id}/", cookie)
        assert (await socket.receive_json_from(timeout=TIMEOUT))["type"] == "state"
        return socket

    async def _drain(self, socket: WebsocketCommunicator) -> None:
        while not await socket.receive_nothing(timeout=0.2):
            assert (await socket.receive_json_from())["type"] == "spectators"

    def exchange(self, name: str, how: str, frame: Any) -> list[dict[str, Any]]:
        return self.run(self._exchange(self.sockets[name], how, frame))

    async def _exchange(self, socket: WebsocketCommunicator, how: str, frame: Any) -> list[Any]:
        """Send ``frame``, then ``sync``; every reply up to the sync's ``state``."""
        if how == "json":
            await socket.send_to(text_data=json.dumps(frame))
        elif how == "text" and frame:
            await socket.send_to(text_data=frame)
        elif how == "text":
            await socket.send_input({"type": "websocket.receive", "text": ""})
        else:
            await socket.send_to(bytes_data=frame)
        await socket.send_to(text_data='{"type": "sync"}')
        # Two states when the frame is itself a sync, unless it was refused (e.g. too long).
        states = 1 + (how == "json" and isinstance(frame, dict) and frame.get("type") == "sync")
        replies: list[Any] = []
        while states:
            output = await socket.receive_output(timeout=TIMEOUT)
            assert output["type"] == "websocket.send", output  # not a close
            reply = json.loads(output["text"])
            if states == 2 and not replies and isinstance(reply, dict) and reply["type"] == "error":
                states = 1
            replies.append(reply)
            if not isinstance(reply, dict):
                continue
            if reply.get("type") == "state":
                states -= 1
            elif reply.get("type") == "error" and reply.get("code") == STALE_VERSION:
                states += 1  # the state that follows a stale version
        return replies

    def close(self) -> None:
        for socket in self.sockets.values():
            self.run(socket.disconnect())
        self.loop.close()


@pytest.fixture
def sockets(alice, bob, bot_starts, settings):
    """alice's game against the greedy bot, the bot to move (and kept from moving)."""
    settings.JOBS_INLINE = False
    settings.GAMES_WS_THROTTLE = (100_000, 1.0)  # the throttle has its own tests
    game = current_game(bot_starts(alice))
    cookies = {
        "player": session_cookie(alice, Client()),
        "stranger": session_cookie(bob, Client()),
        "anonymous": None,
    }
    opened = Sockets(game.pk, cookies)
    yield game, opened
    opened.close()


def test_generated_messages_get_well_formed_answers_and_change_nothing(sockets) -> None:
    game, opened = sockets
    moves = legal(game, 1)  # the bot's: alice may not play them, nor anyone else
    before = snapshot(game.pk)
    assert before[0] == 0 and game.to_move == 1

    @settings(
        max_examples=100,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        sender=st.sampled_from(["player", "stranger", "anonymous"]),
        sent=frames(moves),
    )
    def check(sender: str, sent: tuple[str, Any]) -> None:
        how, frame = sent
        if sender == "player" and rightly_changes(frame):
            sender = "stranger"
        replies = opened.exchange(sender, how, frame)
        for reply in replies:
            assert isinstance(reply, dict) and isinstance(reply.get("type"), str), reply
            if reply["type"] == "error":
                assert reply["code"] in CODES, reply
                assert isinstance(reply["message"], str) and reply["message"], reply
            else:
                assert reply["type"] == "state", reply
        assert snapshot(game.pk) == before

    check()
