"""Who is online on the per-user socket, /ws/me/: opening it puts a player online for every
server process, a page that sends ``watch_online`` gets the ``online`` list at once and again
whenever someone comes or goes, and the convergence check keeps the rows and the lists true
when a doorbell is lost (docs/protocol.md, "The per-user socket")."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from lobby import online
from lobby.consumers import USER_SOCKETS
from lobby.models import Presence
from tests.accounts.factories import UserFactory
from tests.sockets import QUIET, frames, open_socket, send, session_cookie

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def me(user) -> object:
    """A logged-in socket, past its opening ``challenges`` and ``games`` frames."""
    socket = await open_socket("/ws/me/", await sync_to_async(session_cookie)(user))
    assert (await socket.receive_json_from())["type"] == "challenges"
    assert (await socket.receive_json_from())["type"] == "games"
    return socket


async def watching(user) -> tuple[object, dict]:
    """A socket of ``user`` that asked for who is online, and the first list it got."""
    socket = await me(user)
    await send(socket, {"type": "watch_online"})
    frame = await socket.receive_json_from()
    assert frame["type"] == "online"
    return socket, frame


def usernames(frame: dict) -> list[str]:
    return [p["username"] for p in frame["players"]]


async def test_a_player_who_opens_any_page_shows_up_live_on_the_people_page(alice, bob):
    alices, first = await watching(alice)
    try:
        assert usernames(first) == [] and first["count"] == 0
        bobs = await me(bob)  # Bob opens any page: notify.js holds /ws/me/
        [frame] = await frames(alices)
        assert frame["type"] == "online" and usernames(frame) == ["bob"]
        assert frame["players"][0]["name"] == "Bob" and frame["players"][0]["flag"]
        bob_again = await me(bob)  # a second tab: nobody new, nothing sent
        assert await alices.receive_nothing(timeout=QUIET)
        await bob_again.disconnect()
        await bobs.disconnect()
        # He closed his last tab: gone at the next refresh (here the first check), which rings.
        await USER_SOCKETS.check()
        [frame] = await frames(alices)
        assert usernames(frame) == []
    finally:
        await alices.disconnect()


async def test_players_on_another_process_are_listed_and_a_lost_doorbell_costs_one_refresh(
    alice, bob, carol, settings, monkeypatch
):
    """Another server process writes its rows in the same table; its doorbell (here: none at
    all, as if lost) is only the fast path — the watching socket reads the list again on the
    convergence check once ``LOBBY_ONLINE_REFRESH`` has passed."""
    settings.LOBBY_ONLINE_REFRESH = 0
    alices, _first = await watching(alice)
    try:
        other = online.OnlineProcess("another-daphne")
        monkeypatch.setattr(online, "online_changed_send", lambda: None)  # the ring is lost
        await sync_to_async(other.refresh)({carol.pk})
        assert await alices.receive_nothing(timeout=QUIET)
        await USER_SOCKETS.check()
        [frame] = await frames(alices)
        assert usernames(frame) == ["carol"]
        await USER_SOCKETS.check()  # the same list: nothing sent
        assert await alices.receive_nothing(timeout=QUIET)
        assert set(
            await sync_to_async(list)(Presence.objects.values_list("process", flat=True))
        ) == {
            online.PROCESS.process,
            "another-daphne",
        }
    finally:
        await alices.disconnect()


async def test_hidden_players_and_guests_open_sockets_but_are_never_listed(alice):
    hidden = await sync_to_async(UserFactory)(username="hidden", show_online=False)
    guest = await sync_to_async(UserFactory)(username="guest-9", is_guest=True)
    alices, _first = await watching(alice)
    others = [await me(hidden), await me(guest)]
    try:
        assert await alices.receive_nothing(timeout=QUIET)  # the list it shows is unchanged
        # A guest who asks anyway sees nobody.
        guests = others[1]
        await send(guests, {"type": "watch_online"})
        frame = await guests.receive_json_from()
        assert frame["type"] == "online" and usernames(frame) == []
    finally:
        for socket in (alices, *others):
            await socket.disconnect()


async def test_sync_sends_the_list_again_once_watching(alice, bob):
    alices = await me(alice)
    bobs = await me(bob)
    try:
        await send(alices, {"type": "sync"})
        assert [f["type"] for f in await frames(alices)] == ["challenges", "games"]
        await send(alices, {"type": "watch_online"})
        await alices.receive_json_from()
        await send(alices, {"type": "sync"})
        sent = await frames(alices)
        assert [f["type"] for f in sent] == ["challenges", "games", "online"]
        assert usernames(sent[-1]) == ["bob"]
    finally:
        await alices.disconnect()
        await bobs.disconnect()
