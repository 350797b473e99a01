"""The per-user socket, /ws/me/, against the whole ASGI application (spite.asgi.application),
authenticated by real session cookies as a browser would be. docs/protocol.md ("The per-user
socket") is the contract."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import user_block
from games.models import Game
from lobby import services
from lobby.models import Challenge, Seek
from tests.lobby.conftest import SMALL
from tests.sockets import QUIET, frames, open_socket, send, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

cookie_for = session_cookie


async def connect(cookie: str | None = None) -> WebsocketCommunicator:
    return await open_socket("/ws/me/", cookie)


async def me(cookie: str) -> WebsocketCommunicator:
    """A logged-in socket, past its opening ``challenges`` and ``games`` frames."""
    socket = await connect(cookie)
    first = await socket.receive_json_from()
    assert first["type"] == "challenges"
    second = await socket.receive_json_from()
    assert second["type"] == "games"
    return socket


def lobby_frames(received: list[dict]) -> list[dict]:
    """The lobby's own frames, without the games app's ``game_started`` and ``your_turn``
    (tests/lobby/test_events.py covers those)."""
    return [f for f in received if f["type"] not in ("game_started", "your_turn")]


@pytest.fixture
def cookies(alice, bob, carol) -> dict[str, str]:
    return {user.username: cookie_for(user) for user in (alice, bob, carol)}


async def test_an_anonymous_socket_is_told_and_closed_with_4401() -> None:
    socket = await connect()
    error = await socket.receive_json_from()
    assert error["type"] == "error" and error["code"] == "unauthenticated"
    closed = await socket.receive_output()
    assert closed == {"type": "websocket.close", "code": 4401}
    await socket.disconnect()


async def test_connecting_lists_the_pending_challenges(alice, bob, cookies) -> None:
    sent = await sync_to_async(services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    socket = await connect(cookies["bob"])
    try:
        frame = await socket.receive_json_from()
        assert frame["type"] == "challenges"
        [shown] = frame["challenges"]
        assert (shown["id"], shown["state"], shown["from"]["username"]) == (
            sent.pk,
            "received",
            "alice",
        )
        assert await socket.receive_json_from() == {"type": "games", "games": []}
        assert await socket.receive_nothing(timeout=QUIET)
    finally:
        await socket.disconnect()


async def test_a_challenge_reaches_the_challenged_player_and_nobody_else(
    alice, bob, carol, cookies
) -> None:
    to_bob = await me(cookies["bob"])
    bob_again = await me(cookies["bob"])  # a second tab
    by_alice = await me(cookies["alice"])
    carols = await me(cookies["carol"])
    try:
        sent = await sync_to_async(services.challenge_create)(
            challenger=alice, challenged_username="bob", rules=SMALL
        )
        for socket in (to_bob, bob_again):
            [frame] = await frames(socket)
            assert frame["type"] == "challenge" and frame["id"] == sent.pk
            assert frame["state"] == "received"
            assert frame["from"] == {"username": "alice", "name": "Alice", "is_bot": False}
            assert frame["summary"] == "Pay-off pile of 5, first to 10 points"
        [mine] = await frames(by_alice)
        assert mine["state"] == "sent"
        assert await carols.receive_nothing(timeout=QUIET)
    finally:
        for socket in (to_bob, bob_again, by_alice, carols):
            await socket.disconnect()


async def test_accepting_over_the_socket_sends_both_players_to_the_table(
    alice, bob, carol, cookies
) -> None:
    sent = await sync_to_async(services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    bobs = await me(cookies["bob"])
    alices = await me(cookies["alice"])
    carols = await me(cookies["carol"])
    try:
        await send(bobs, {"type": "challenge_answer", "id": sent.pk, "accept": True})
        game = None
        for socket in (bobs, alices):
            changed, started = lobby_frames(await frames(socket))
            assert (changed["type"], changed["state"]) == ("challenge", "accepted")
            assert started["type"] == "challenge_accepted" and started["challenge"] == sent.pk
            game = await sync_to_async(Game.objects.select_related("match").get)(pk=started["game"])
            assert started["url"] == f"/play/games/{game.pk}/"
        assert (game.match.user0_id, game.match.user1_id) == (alice.pk, bob.pk)
        assert await carols.receive_nothing(timeout=QUIET)
    finally:
        for socket in (bobs, alices, carols):
            await socket.disconnect()


async def test_declining_over_the_socket_tells_the_challenger(alice, bob, cookies) -> None:
    sent = await sync_to_async(services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    bobs = await me(cookies["bob"])
    alices = await me(cookies["alice"])
    try:
        await send(bobs, {"type": "challenge_answer", "id": sent.pk, "accept": False})
        [told] = await frames(alices)
        assert (told["type"], told["id"], told["state"]) == ("challenge", sent.pk, "declined")
        assert (await sync_to_async(Challenge.objects.get)(pk=sent.pk)).status == "declined"
    finally:
        await bobs.disconnect()
        await alices.disconnect()


async def test_refusals_come_back_as_error_frames(alice, bob, carol, cookies) -> None:
    sent = await sync_to_async(services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    alices = await me(cookies["alice"])
    try:
        cases = [
            ({"type": "challenge_answer", "id": sent.pk, "accept": True}, "forbidden"),
            ({"type": "challenge_answer", "id": sent.pk + 9, "accept": True}, "not_found"),
            ({"type": "challenge_answer", "id": sent.pk}, "bad_message"),
            ({"type": "challenge_answer", "id": "7", "accept": True}, "bad_message"),
            ({"type": "seek_take", "id": True}, "bad_message"),
            ({"type": "seek_take", "id": 12345}, "not_found"),
            ({"type": "dance"}, "bad_message"),
            (["not", "an", "object"], "bad_message"),
        ]
        for message, code in cases:
            await send(alices, message)
            [error] = await frames(alices)
            assert (error["type"], error["code"]) == ("error", code), message
            assert error["message"]
        await alices.send_to(text_data="{not json")
        assert (await alices.receive_json_from())["code"] == "bad_message"
    finally:
        await alices.disconnect()


async def test_seek_lists_reach_the_sockets_that_watch_them(alice, bob, carol, cookies) -> None:
    watcher = await me(cookies["bob"])
    owner = await me(cookies["alice"])
    elsewhere = await me(cookies["carol"])  # on another page: no watch_seeks
    try:
        for socket in (watcher, owner):
            await send(socket, {"type": "watch_seeks"})
            assert await socket.receive_json_from() == {"type": "seeks", "seeks": []}

        seek = await sync_to_async(services.seek_create)(owner=alice, rules=SMALL)
        [listed] = await frames(watcher)
        assert listed["type"] == "seeks"
        [shown] = listed["seeks"]
        assert (shown["id"], shown["owner"]["username"], shown["mine"]) == (seek.pk, "alice", False)
        [own] = await frames(owner)
        assert own["seeks"][0]["mine"] is True
        assert await elsewhere.receive_nothing(timeout=QUIET)

        await sync_to_async(services.seek_cancel)(seek_id=seek.pk, user=alice)
        assert await frames(watcher) == [{"type": "seeks", "seeks": []}]
        assert await elsewhere.receive_nothing(timeout=QUIET)
    finally:
        for socket in (watcher, owner, elsewhere):
            await socket.disconnect()


async def test_taking_a_seek_over_the_socket(alice, bob, carol, cookies) -> None:
    seek = await sync_to_async(services.seek_create)(owner=alice, rules=SMALL)
    bobs = await me(cookies["bob"])
    alices = await me(cookies["alice"])
    carols = await me(cookies["carol"])
    try:
        await send(carols, {"type": "watch_seeks"})
        assert len((await carols.receive_json_from())["seeks"]) == 1

        await send(bobs, {"type": "seek_take", "id": seek.pk})
        for socket in (bobs, alices):
            [taken] = lobby_frames(await frames(socket))
            assert taken["type"] == "seek_taken" and taken["seek"] == seek.pk
            assert taken["owner"]["username"] == "alice"
            assert taken["taker"]["username"] == "bob"
        assert await frames(carols) == [{"type": "seeks", "seeks": []}]  # only the list changed

        await send(carols, {"type": "seek_take", "id": seek.pk})
        [error] = await frames(carols)
        assert error["code"] == "taken"
        assert (await sync_to_async(Seek.objects.get)(pk=seek.pk)).taken_by_id == bob.pk
    finally:
        for socket in (bobs, alices, carols):
            await socket.disconnect()


async def test_a_blocked_player_never_sees_the_blockers_seeks(alice, bob, carol, cookies) -> None:
    await sync_to_async(user_block)(blocker=alice, blocked=bob)
    bobs = await me(cookies["bob"])
    carols = await me(cookies["carol"])
    try:
        for socket in (bobs, carols):
            await send(socket, {"type": "watch_seeks"})
            await socket.receive_json_from()
        await sync_to_async(services.seek_create)(owner=alice, rules=SMALL)
        assert await frames(bobs) == [{"type": "seeks", "seeks": []}]
        [listed] = await frames(carols)
        assert [s["owner"]["username"] for s in listed["seeks"]] == ["alice"]
    finally:
        await bobs.disconnect()
        await carols.disconnect()


async def test_sync_sends_the_challenges_and_for_a_watcher_the_seeks(alice, bob, cookies) -> None:
    bobs = await me(cookies["bob"])
    try:
        await send(bobs, {"type": "sync"})
        assert await frames(bobs) == [
            {"type": "challenges", "challenges": []},
            {"type": "games", "games": []},
        ]
        await send(bobs, {"type": "watch_seeks"})
        await bobs.receive_json_from()
        await sync_to_async(services.challenge_create)(
            challenger=alice, challenged_username="bob", rules=SMALL
        )
        await frames(bobs)
        await send(bobs, {"type": "sync"})
        challenges, games, seeks = await frames(bobs)
        assert games == {"type": "games", "games": []}
        assert challenges["type"] == "challenges" and len(challenges["challenges"]) == 1
        assert seeks == {"type": "seeks", "seeks": []}
    finally:
        await bobs.disconnect()


async def test_a_flood_of_messages_is_throttled(alice, cookies, settings) -> None:
    settings.GAMES_WS_THROTTLE = (2, 60.0)
    alices = await me(cookies["alice"])
    try:
        for _ in range(3):
            await send(alices, {"type": "sync"})
        received = await frames(alices)
        assert [f["type"] for f in received] == [
            "challenges",
            "games",
            "challenges",
            "games",
            "error",
        ]
        assert received[-1]["code"] == "throttled" and received[-1]["params"]["retry_after"] > 0
    finally:
        await alices.disconnect()


async def test_a_challenger_whose_page_was_loading_is_sent_to_the_table_on_connecting(
    alice, bob, cookies, settings
) -> None:
    """Alice's page reloads after she sends the challenge; bob accepts before her socket is
    open. Her new socket still says the match started, for ``LOBBY_TABLE_WAITING`` seconds."""
    sent = await sync_to_async(services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    match = await sync_to_async(services.challenge_accept)(challenge_id=sent.pk, user=bob)
    alices = await connect(cookies["alice"])
    try:
        challenges, games, started = await frames(alices)
        assert challenges == {"type": "challenges", "challenges": []}
        [listed] = games["games"]
        assert started == {
            "type": "challenge_accepted",
            "challenge": sent.pk,
            "match": match.pk,
            "game": listed["game"],
            "url": listed["url"],
        }
    finally:
        await alices.disconnect()

    settings.LOBBY_TABLE_WAITING = 0  # the wait is over: the lists, nothing more
    alices = await me(cookies["alice"])
    try:
        assert await alices.receive_nothing(timeout=QUIET)
    finally:
        await alices.disconnect()


# --- convergence: a lost doorbell costs one check, not a reload --------------------------------


async def test_the_convergence_check_brings_a_challenge_and_a_turn_that_no_frame_told(
    alice, bob, cookies, monkeypatch
) -> None:
    """Every doorbell lost (nothing reaches any user's group): a challenge bob never heard of
    and a match whose first turn is his reach his /ws/me/ at the next check; a check that
    finds nothing new sends nothing."""
    from games.sending import players
    from lobby.consumers import USER_SOCKETS

    bobs = await me(cookies["bob"])
    try:
        assert await USER_SOCKETS.check() == 1
        assert await bobs.receive_nothing(timeout=QUIET)  # nothing changed: nothing sent
        monkeypatch.setattr(services, "user_frames_send", lambda frames: None)
        monkeypatch.setattr(players, "user_frames_send", lambda frames: None)
        sent = await sync_to_async(services.challenge_create)(
            challenger=alice, challenged_username="bob", rules=SMALL
        )
        assert await bobs.receive_nothing(timeout=QUIET)
        assert await USER_SOCKETS.check() == 1
        challenges, games = await frames(bobs)
        assert [c["id"] for c in challenges["challenges"]] == [sent.pk]
        assert games == {"type": "games", "games": []}

        await sync_to_async(services.challenge_accept)(challenge_id=sent.pk, user=bob)
        assert await USER_SOCKETS.check() == 1
        challenges, games, started = await frames(bobs)
        assert challenges["challenges"] == [] and len(games["games"]) == 1
        assert (started["type"], started["challenge"]) == ("challenge_accepted", sent.pk)
        assert await USER_SOCKETS.check() == 1
        assert await bobs.receive_nothing(timeout=QUIET)
    finally:
        await bobs.disconnect()


async def test_a_turn_told_by_its_frame_needs_no_second_telling(
    alice, bob, cookies, monkeypatch
) -> None:
    """The doorbell works: the ``your_turn`` bob's socket forwarded is what the check finds,
    so it sends nothing more (a turn that passed on, by his own move, neither)."""
    from lobby.consumers import USER_SOCKETS

    sent = await sync_to_async(services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    bobs, alices = await me(cookies["bob"]), await me(cookies["alice"])
    try:
        await sync_to_async(services.challenge_accept)(challenge_id=sent.pk, user=bob)
        told = await frames(bobs) + await frames(alices)
        assert "game_started" in {f["type"] for f in told}
        assert await USER_SOCKETS.check() == 2  # read (a failed read would hand none)
        assert await bobs.receive_nothing(timeout=QUIET)
        assert await alices.receive_nothing(timeout=QUIET)
    finally:
        await bobs.disconnect()
        await alices.disconnect()


# --- a deleted account's socket (docs/protocol.md, "Signed out") -------------------------------


async def _signed_out(socket: WebsocketCommunicator) -> None:
    error = await socket.receive_json_from()
    assert error["type"] == "error" and error["code"] == "unauthenticated", error
    assert await socket.receive_output() == {"type": "websocket.close", "code": 4401}


async def test_a_deleted_accounts_socket_cannot_accept_a_challenge(
    alice, bob, cookies, monkeypatch
) -> None:
    from accounts.services import user_delete
    from core import layer
    from games.models import Match

    sent = await sync_to_async(services.challenge_create)(
        challenger=alice, challenged_username="bob", rules=SMALL
    )
    socket = await me(cookies["bob"])
    try:
        # The doorbell that would close the socket is lost (at most once): its own check refuses.
        monkeypatch.setattr(layer, "group_send_soon", lambda *args, **kwargs: None)
        await sync_to_async(user_delete)(user=bob)
        await send(socket, {"type": "challenge_answer", "id": sent.pk, "accept": True})
        await _signed_out(socket)
    finally:
        await socket.disconnect()
    assert not await sync_to_async(Match.objects.exists)()
    challenge = await sync_to_async(Challenge.objects.get)(pk=sent.pk)
    assert challenge.status != Challenge.Status.ACCEPTED


async def test_deleting_an_account_closes_its_sockets(bob, cookies) -> None:
    from accounts.services import user_delete

    socket = await me(cookies["bob"])
    try:
        await sync_to_async(user_delete)(user=bob)
        await _signed_out(socket)
    finally:
        await socket.disconnect()
