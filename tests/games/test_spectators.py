"""Spectator counts: spectator sockets only (players never count), shared through the cache,
sent to the table as ``spectators`` frames and in every state; entries of a vanished process
expire after a TTL."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games import spectators
from games.selectors import game_state_frame
from games.spectators import spectator_count, spectator_counts, spectator_join, spectator_leave
from tests.games.helpers import current_game
from tests.games.test_consumers import open_socket, session_cookie
from tests.sockets import QUIET, frames


def test_joins_and_leaves_are_counted_per_game(settings) -> None:
    assert spectator_count(1) == 0
    assert spectator_join(game_id=1, channel="a") == 1
    assert spectator_join(game_id=1, channel="b") == 2
    assert spectator_join(game_id=1, channel="a") == 2  # a refresh, not a second viewer
    assert spectator_join(game_id=2, channel="c") == 1
    assert spectator_counts([1, 2, 3]) == {1: 2, 2: 1, 3: 0}
    assert spectator_leave(game_id=1, channel="a") == 1
    assert spectator_leave(game_id=1, channel="a") == 1
    assert spectator_leave(game_id=1, channel="b") == 0
    assert spectator_leave(game_id=2, channel="c") == 0
    assert spectator_counts([1, 2]) == {1: 0, 2: 0}


def test_entries_not_refreshed_within_the_ttl_stop_counting(settings, monkeypatch) -> None:
    settings.GAMES_SPECTATORS_TTL = 60
    now = [1_000_000.0]
    monkeypatch.setattr(spectators.time, "time", lambda: now[0])
    spectator_join(game_id=7, channel="dead-process")
    now[0] += 30
    spectator_join(game_id=7, channel="alive")
    assert spectator_count(7) == 2
    now[0] += 31  # the first entry is 61 s old: its process never said goodbye
    assert spectator_count(7) == 1
    assert spectator_join(game_id=7, channel="alive") == 1  # a refresh drops it for good
    now[0] += 61
    assert spectator_count(7) == 0


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_spectator_sockets_count_up_and_down_and_players_never_count(
    alice, bob, human_starts
) -> None:
    def make():
        from django.test import Client

        game = current_game(human_starts(alice))
        return game, session_cookie(Client(), alice), session_cookie(Client(), bob)

    game, alice_cookie, bob_cookie = await sync_to_async(make)()
    player = await open_socket(game.pk, alice_cookie)
    second_tab = await open_socket(game.pk, alice_cookie)
    try:
        assert (await player.receive_json_from())["spectators"] == 0
        assert (await second_tab.receive_json_from())["spectators"] == 0
        # A player's second socket is still a player.
        assert await player.receive_nothing(timeout=QUIET)

        watcher = await open_socket(game.pk, bob_cookie)
        assert (await watcher.receive_json_from())["spectators"] == 1
        assert await frames(player) == [{"type": "spectators", "count": 1}]
        assert await watcher.receive_nothing(timeout=QUIET)  # it knew already, from its state

        anonymous = await open_socket(game.pk)
        assert (await anonymous.receive_json_from())["spectators"] == 2
        assert await frames(player) == [{"type": "spectators", "count": 2}]
        assert await frames(watcher) == [{"type": "spectators", "count": 2}]
        frame = await sync_to_async(lambda: game_state_frame(current_game(game.match), 0))()
        assert frame["spectators"] == 2

        await watcher.disconnect()
        assert await frames(player) == [{"type": "spectators", "count": 1}]
        await anonymous.disconnect()
        assert await frames(player) == [{"type": "spectators", "count": 0}]
        assert await sync_to_async(spectator_count)(game.pk) == 0
    finally:
        await player.disconnect()
        await second_tab.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_open_spectator_socket_refreshes_its_entry(
    alice, human_starts, settings, monkeypatch
) -> None:
    import asyncio

    settings.GAMES_SPECTATORS_REFRESH = 0.05
    game = await sync_to_async(lambda: current_game(human_starts(alice)))()
    touched = []
    original = spectators.spectator_touch
    monkeypatch.setattr(
        spectators, "spectator_touch", lambda **kw: touched.append(kw) or original(**kw)
    )
    watcher = await open_socket(game.pk)
    await watcher.receive_json_from()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while len(touched) < 2 and loop.time() < deadline:  # two refreshes, 0.05 s apart
        await asyncio.sleep(0.01)
    assert len(touched) >= 2 and touched[0]["game_id"] == game.pk
    assert await sync_to_async(spectator_count)(game.pk) == 1
    await watcher.disconnect()
    count = len(touched)
    await asyncio.sleep(0.2)
    assert len(touched) == count  # the refresher stops with the socket


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_state_after_a_move_carries_the_count_each_socket_knows(
    alice, bob, human_starts
) -> None:
    """A move's broadcast reads no count: each socket fills in the one it keeps current."""
    from tests.games.helpers import legal

    def make():
        from django.test import Client

        game = current_game(human_starts(alice))
        return game, session_cookie(Client(), alice), legal(game, 0)[0]

    game, alice_cookie, move = await sync_to_async(make)()
    player = await open_socket(game.pk, alice_cookie)
    try:
        assert (await player.receive_json_from())["spectators"] == 0
        watchers = [await open_socket(game.pk) for _ in range(2)]
        for watcher in watchers:
            await watcher.receive_json_from()
        assert (await frames(player))[-1] == {"type": "spectators", "count": 2}

        await player.send_json_to({"type": "move", "move": move, "version": 0, "id": "m1"})
        states = [f for f in await frames(player) if f["type"] == "state"]
        assert [(s["version"], s["spectators"]) for s in states] == [(1, 2)]
        for watcher in watchers:
            state = [f for f in await frames(watcher) if f["type"] == "state"][-1]
            assert (state["version"], state["spectators"]) == (1, 2)
            await watcher.disconnect()
    finally:
        await player.disconnect()
