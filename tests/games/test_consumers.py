"""The game socket against the whole ASGI application (spite.asgi.application), authenticated
by a real session cookie, as a browser would be. docs/protocol.md is the contract."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

import engine
from games import services
from games.models import Game
from games.refusals import refusal_message
from games.selectors import game_event_frames, game_state_frame
from games.sending import groups
from games.sending.groups import game_group
from tests import sockets
from tests.games.helpers import a_center_move, a_side_move, current_game, legal
from tests.sockets import QUIET, GroupJoins, frames, send

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def session_cookie(client, user) -> str:
    return sockets.session_cookie(user, client)


async def open_socket(game_id: int, cookie: str | None = None) -> WebsocketCommunicator:
    return await sockets.open_socket(f"/ws/games/{game_id}/", cookie)


@sync_to_async
def reload(game: Game) -> Game:
    return Game.objects.select_related("match__user0", "match__user1").get(pk=game.pk)


@sync_to_async
def frame_for(game: Game, seat: int | None) -> dict[str, Any]:
    return game_state_frame(
        Game.objects.select_related("match__user0", "match__user1").get(pk=game.pk), seat
    )


@pytest.fixture
def alice_cookie(client, alice) -> str:
    return session_cookie(client, alice)


@pytest.fixture
def bob_cookie(alice_cookie, bob) -> str:
    from django.test import Client

    return session_cookie(Client(), bob)


@pytest.fixture
def table(alice, human_starts) -> Game:
    """Game 1 of alice against the greedy bot, alice to move, version 0."""
    return current_game(human_starts(alice))


# --- views: each connection its own -------------------------------------------------------------


async def test_a_player_and_spectators_each_receive_only_their_own_view(
    table, alice_cookie, bob_cookie
) -> None:
    player = await open_socket(table.pk, alice_cookie)
    mine = await player.receive_json_from()
    watcher = await open_socket(table.pk, bob_cookie)
    theirs = await watcher.receive_json_from()
    # Each spectator is counted before its first state; the others hear of it.
    assert await frames(player) == [{"type": "spectators", "count": 1}]
    anonymous = await open_socket(table.pk)
    try:
        nobodys = await anonymous.receive_json_from()
        assert await frames(player) == await frames(watcher) == [{"type": "spectators", "count": 2}]
        assert (mine["spectators"], theirs["spectators"], nobodys["spectators"]) == (0, 1, 2)
        assert await anonymous.receive_nothing(timeout=QUIET)
        assert mine == {**await frame_for(table, 0), "spectators": 0}
        assert theirs == {**await frame_for(table, None), "spectators": 1}
        assert nobodys == await frame_for(table, None)
        assert (mine["type"], mine["you"], mine["version"], mine["view"]["seat"]) == (
            "state", 0, 0, 0
        )  # fmt: skip
        assert mine["view"]["players"][0]["hand"] and mine["view"]["players"][1]["hand"] is None
        assert mine["view"]["legal_moves"] == legal(table, 0)
        assert theirs["you"] is None and theirs["view"]["legal_moves"] == []
        assert [p["hand"] for p in theirs["view"]["players"]] == [None, None]
        assert theirs["match"]["seats"] == [
            {"name": "Alice", "kind": "human", "is_bot": False},
            {"name": "Greedy bot", "kind": "bot", "level": "greedy", "is_bot": True},
        ]

        move = a_center_move(table)
        await send(player, {"type": "move", "move": move, "version": 0, "id": "c-1"})
        [mine] = await frames(player)
        [theirs] = await frames(watcher)
        [nobodys] = await frames(anonymous)
        assert mine == await frame_for(table, 0) and mine["version"] == 1
        assert mine["last_moves"] == [{"ply": 0, "seat": 0, "move": move}]
        assert theirs == nobodys == await frame_for(table, None)
    finally:
        for communicator in (player, watcher, anonymous):
            await communicator.disconnect()


def _hidden_variant(state: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The same position with every card ``viewer`` cannot see dealt differently: the other
    hand(s), the cards under both pay-off tops, the stock's order; another seed and shuffler."""
    variant = json.loads(json.dumps(state))
    players = variant["players"]
    hidden_hands = [p for p in (0, 1) if p != viewer]
    pool = [c for p in hidden_hands for c in players[p]["hand"]]
    pool += [c for p in (0, 1) for c in players[p]["payoff"][:-1]] + variant["stock"]
    original = list(pool)
    rng = random.Random(5)
    while pool == original:
        rng.shuffle(pool)
    for p in hidden_hands:
        n = len(players[p]["hand"])
        players[p]["hand"], pool = pool[:n], pool[n:]
    for p in (0, 1):
        n = len(players[p]["payoff"]) - 1
        players[p]["payoff"] = pool[:n] + players[p]["payoff"][-1:]
        pool = pool[n:]
    variant["stock"] = pool
    variant["seed"] = state["seed"] + 1
    variant["rng"] = engine.Game.new(seed=state["seed"] + 1).to_dict()["rng"]
    engine.Game.from_dict(variant)  # still a valid position
    assert variant != state
    return variant


@pytest.mark.parametrize("viewer", [0, None], ids=["player", "spectator"])
async def test_games_differing_only_in_hidden_cards_give_identical_frames(
    table, alice_cookie, viewer
) -> None:
    original = table.state
    variant = _hidden_variant(original, viewer)

    @sync_to_async
    def set_state(state: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
        Game.objects.filter(pk=table.pk).update(state=state)
        game = Game.objects.select_related("match__user0", "match__user1").get(pk=table.pk)
        return game_event_frames(game)

    communicator = await open_socket(table.pk, alice_cookie if viewer == 0 else None)
    try:
        on_connect = await communicator.receive_json_from()
        broadcast = await set_state(original)
        await set_state(variant)
        await send(communicator, {"type": "sync"})
        after_sync = await communicator.receive_json_from()
        broadcast_variant = await set_state(variant)
        key = "spectator" if viewer is None else str(viewer)

        assert json.dumps(on_connect) == json.dumps(after_sync)
        assert json.dumps(broadcast[key]) == json.dumps(broadcast_variant[key])
        if viewer is None:  # the variant really differs: alice sees her new hand
            assert broadcast["0"] != broadcast_variant["0"]
    finally:
        await set_state(original)  # the replay check expects the real position back
        await communicator.disconnect()


async def test_no_frame_ever_shows_a_hidden_card_list(table, alice_cookie) -> None:
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        seen = [await communicator.receive_json_from()]
        await send(
            communicator, {"type": "move", "move": a_side_move(table), "version": 0, "id": "e"}
        )
        seen += await frames(communicator)  # alice's move, then the bot's turn card by card
        assert len(seen) >= 3
        for frame in seen:
            view = frame["view"]
            assert view["players"][1]["hand"] is None
            assert set(view) == {
                "seat", "to_move", "legal_moves", "players", "center", "stock_size",
                "outcome", "rules", "ply",
            }  # fmt: skip
            assert set(view["players"][0]) == {
                "hand", "hand_size", "payoff_top", "payoff_size", "sides"
            }  # fmt: skip
            text = json.dumps(frame)
            assert '"stock"' not in text and '"seed"' not in text and '"rng"' not in text
            assert '"payoff"' not in text
    finally:
        await communicator.disconnect()


# --- the bot's turn, card by card ---------------------------------------------------------------


async def test_the_bots_turn_arrives_one_state_per_move(table, alice_cookie) -> None:
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        await send(
            communicator, {"type": "move", "move": a_side_move(table), "version": 0, "id": "e"}
        )
        received = await frames(communicator)
        game = await reload(table)
        states = [f for f in received if f["type"] == "state"]
        assert [f["version"] for f in states] == list(range(1, game.version + 1))
        assert all(f["last_moves"][-1]["ply"] == f["version"] - 1 for f in states)
        assert states[0]["last_moves"][-1]["seat"] == 0
        assert {f["last_moves"][-1]["seat"] for f in states[1:]} == {1}
        if game.is_active:
            assert states[-1]["view"]["to_move"] == 0 and states[-1]["view"]["legal_moves"]
    finally:
        await communicator.disconnect()


# --- errors are frames --------------------------------------------------------------------------


async def test_malformed_messages_are_bad_messages(table, alice_cookie) -> None:
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        for text in ["{not json", "[1, 2]", '{"type": "dance"}', '{"no": "type"}', "x" * 5000]:
            await communicator.send_to(text_data=text)
            error = await communicator.receive_json_from()
            assert (error["type"], error["code"]) == ("error", "bad_message"), text
            assert error["message"]
        await communicator.send_to(bytes_data=b"\x00\x01")
        assert (await communicator.receive_json_from())["code"] == "bad_message"
        for message in [
            {"type": "move", "move": "p-c1", "version": 0},  # no id
            {"type": "move", "move": "p-c1", "version": "0", "id": "a"},
            {"type": "move", "move": "p-c1", "version": True, "id": "a"},
            {"type": "move", "version": 0, "id": "a"},
            {"type": "move", "move": "p-c1", "version": 0, "id": "x" * 65},
            {"type": "resign", "scope": "set"},
        ]:
            await send(communicator, message)
            error = await communicator.receive_json_from()
            assert error["code"] == "bad_message", message
        assert await communicator.receive_nothing(timeout=QUIET)
        assert (await reload(table)).version == 0
    finally:
        await communicator.disconnect()


async def test_an_illegal_move_keeps_the_engines_code_and_echoes_the_id(
    table, alice_cookie
) -> None:
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        await send(communicator, {"type": "move", "move": "h:AS-c9", "version": 0, "id": "m7"})
        error = await communicator.receive_json_from()
        with pytest.raises(engine.IllegalMove) as refused:
            engine.Game.from_dict(table.state).play("h:AS-c9")
        assert error == {
            "type": "error",
            "code": "illegal_move",
            "engine_code": refused.value.code,
            "message": str(refusal_message(refused.value)),  # the engine's, in player words
            "params": refused.value.params,
            "id": "m7",
        }
        assert await communicator.receive_nothing(timeout=QUIET)
    finally:
        await communicator.disconnect()


async def test_a_stale_version_is_answered_with_the_error_then_the_state(
    table, alice_cookie
) -> None:
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        move = a_center_move(table)
        await send(communicator, {"type": "move", "move": move, "version": 0, "id": "a"})
        [state] = await frames(communicator)
        next_move = state["view"]["legal_moves"][0]
        await send(communicator, {"type": "move", "move": next_move, "version": 0, "id": "b"})
        error, fresh = await frames(communicator)
        assert (error["code"], error["id"], error["params"]) == (
            "stale_version",
            "b",
            {"version": 1},
        )
        assert fresh == await frame_for(table, 0)
    finally:
        await communicator.disconnect()


async def test_a_resent_move_is_applied_once_and_answered_with_the_state(
    table, alice_cookie
) -> None:
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        message = {"type": "move", "move": a_center_move(table), "version": 0, "id": "once"}
        await send(communicator, message)
        [first] = await frames(communicator)
        await send(communicator, message)
        [again] = await frames(communicator)
        assert first == again and again["version"] == 1
        assert (await reload(table)).version == 1
    finally:
        await communicator.disconnect()


async def test_watchers_cannot_act(table, bob_cookie) -> None:
    watcher = await open_socket(table.pk, bob_cookie)
    await watcher.receive_json_from()
    anonymous = await open_socket(table.pk)
    try:
        await anonymous.receive_json_from()
        assert await frames(watcher) == [{"type": "spectators", "count": 2}]
        move = {"type": "move", "move": legal(table, 0)[0], "version": 0, "id": "w"}
        await send(watcher, move)
        await send(anonymous, move)
        assert (await watcher.receive_json_from())["code"] == "forbidden"
        assert (await anonymous.receive_json_from())["code"] == "unauthenticated"
        await send(watcher, {"type": "resign", "scope": "match"})
        assert (await watcher.receive_json_from())["code"] == "forbidden"
        assert await watcher.receive_nothing(timeout=QUIET)
        assert await anonymous.receive_nothing(timeout=0.1)
        assert (await reload(table)).version == 0
    finally:
        await watcher.disconnect()
        await anonymous.disconnect()


async def test_not_your_turn(alice, alice_cookie, bot_starts, settings) -> None:
    settings.JOBS_INLINE = False  # the bot keeps the turn
    game = await sync_to_async(lambda: current_game(bot_starts(alice)))()
    communicator = await open_socket(game.pk, alice_cookie)
    try:
        assert (await communicator.receive_json_from())["view"]["to_move"] == 1
        await send(communicator, {"type": "move", "move": "p-c1", "version": 0, "id": "t"})
        error = await communicator.receive_json_from()
        assert (error["code"], error["id"]) == ("not_your_turn", "t")
        assert error["message"] == "It is not your turn: the Greedy bot is playing."
    finally:
        await communicator.disconnect()


async def test_an_unknown_game_is_not_found_and_closed(alice_cookie) -> None:
    communicator = await open_socket(987654321, alice_cookie)
    try:
        error = await communicator.receive_json_from()
        assert (error["type"], error["code"]) == ("error", "not_found")
        assert await communicator.receive_output() == {"type": "websocket.close", "code": 4404}
    finally:
        await communicator.disconnect()


async def test_too_many_messages_are_throttled(table, alice_cookie, settings) -> None:
    settings.GAMES_WS_THROTTLE = (3, 60.0)
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        for _ in range(3):
            await send(communicator, {"type": "sync"})
            assert (await communicator.receive_json_from())["type"] == "state"
        await send(communicator, {"type": "sync"})
        error = await communicator.receive_json_from()
        assert error["code"] == "throttled" and 0 < error["params"]["retry_after"] <= 20
    finally:
        await communicator.disconnect()


async def test_moves_past_the_throttle_keep_their_ids_and_a_resend_later_is_applied(
    table, alice_cookie, settings, monkeypatch
) -> None:
    """Past the burst every move is refused ``throttled`` with its own id (the table resends it
    after ``retry_after``); once the bucket has refilled, the resent id is applied."""
    settings.GAMES_WS_THROTTLE = (2, 10.0)  # 2 at once, then one every 5 s
    now = [1000.0]
    monkeypatch.setattr("core.sockets.monotonic", lambda: now[0])  # the bucket's clock alone
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        move = a_center_move(table) or a_side_move(table)
        await send(communicator, {"type": "sync"})
        assert (await communicator.receive_json_from())["type"] == "state"
        await send(communicator, {"type": "move", "move": move, "version": 0, "id": "m-1"})
        [state] = await frames(communicator)
        assert state["version"] == 1
        for move_id in ("m-2", "m-3", "m-4"):
            await send(communicator, {"type": "move", "move": "x", "version": 1, "id": move_id})
            [refusal] = await frames(communicator)
            assert (refusal["code"], refusal["id"]) == ("throttled", move_id)
            assert 0 < refusal["params"]["retry_after"] <= 5
        now[0] += 5.0
        next_move = state["view"]["legal_moves"][0]
        await send(communicator, {"type": "move", "move": next_move, "version": 1, "id": "m-4"})
        [applied] = await frames(communicator)
        assert (applied["type"], applied["version"]) == ("state", 2)
    finally:
        await communicator.disconnect()


# --- resync, resignation ------------------------------------------------------------------------


async def test_sync_after_a_missed_event_brings_the_current_state(
    table, alice, alice_cookie, monkeypatch
) -> None:
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        monkeypatch.setattr(groups, "game_event_send", lambda **kwargs: None)  # a lost doorbell
        await sync_to_async(services.game_play_move)(
            game_id=table.pk, user=alice, move=a_center_move(table), version=0, move_id="lost"
        )
        assert await communicator.receive_nothing(timeout=QUIET)
        await send(communicator, {"type": "sync"})
        state = await communicator.receive_json_from()
        assert state["version"] == 1 and state == await frame_for(table, 0)
    finally:
        await communicator.disconnect()


async def test_a_lost_doorbell_is_caught_up_by_the_convergence_check(
    table, alice, alice_cookie, bob_cookie, monkeypatch, settings
) -> None:
    """A move whose group event never went out (the process died, Redis lost it): the
    player's other socket and a spectator show the committed state after the next check, and
    a socket that already shows it is sent nothing."""
    from games.consumers import GAME_SOCKETS

    player, spectator = await open_socket(table.pk, alice_cookie), None
    try:
        await player.receive_json_from()
        spectator = await open_socket(table.pk, bob_cookie)
        await spectator.receive_json_from()
        await frames(player)  # the spectators count
        monkeypatch.setattr(groups, "game_event_send", lambda **kwargs: None)  # a lost doorbell
        await sync_to_async(services.game_play_move)(
            game_id=table.pk, user=alice, move=a_center_move(table), version=0, move_id="lost"
        )
        assert await player.receive_nothing(timeout=QUIET)
        assert await GAME_SOCKETS.check() == 2
        assert (await player.receive_json_from()) == await frame_for(table, 0)
        caught_up = await spectator.receive_json_from()
        assert (caught_up["type"], caught_up["version"]) == ("state", 1)
        assert caught_up["view"] == (await frame_for(table, None))["view"]
        assert await GAME_SOCKETS.check() == 2  # both current now: nothing more is sent
        assert await player.receive_nothing(timeout=QUIET)
        assert await spectator.receive_nothing(timeout=QUIET)
    finally:
        await player.disconnect()
        if spectator is not None:
            await spectator.disconnect()
    assert table.pk not in GAME_SOCKETS.sockets  # closed sockets leave the watch


async def test_with_the_channel_layer_away_a_socket_still_plays_and_joins_when_it_is_back(
    table, alice, bob, alice_cookie, bob_cookie, monkeypatch
) -> None:
    """Redis refusing: sockets open and get their state, and a player's move is answered (the
    mover's answer needs no layer). Once the layer is back, the next convergence check joins
    the game's group again, and the doorbell rings for the spectator who came meanwhile."""
    from core.credentials import credentials_group
    from games.consumers import GAME_SOCKETS

    joins = GroupJoins(monkeypatch)
    player = await open_socket(table.pk, alice_cookie)
    spectator = await open_socket(table.pk, bob_cookie)
    try:
        assert (await player.receive_json_from())["version"] == 0
        assert (await spectator.receive_json_from())["version"] == 0
        move = a_center_move(table)
        await send(player, {"type": "move", "move": move, "version": 0, "id": "away"})
        assert [f["version"] for f in await frames(player) if f["type"] == "state"] == [1]
        assert await GAME_SOCKETS.check() == 2  # the layer still away: a check catches up
        assert (await spectator.receive_json_from())["version"] == 1
        joins.back()
        assert await GAME_SOCKETS.check() == 2  # joined again; both current: nothing sent
        # Each socket joins its game's group and its signed-in user's (core/credentials.py).
        assert sorted(joins.added) == sorted(
            [game_group(table.pk)] * 2 + [credentials_group(alice.pk), credentials_group(bob.pk)]
        )
        assert await spectator.receive_nothing(timeout=QUIET)
        next_move = legal(await reload(table), 0)[0]
        await sync_to_async(services.game_play_move)(
            game_id=table.pk, user=alice, move=next_move, version=1, move_id="back"
        )
        state = await spectator.receive_json_from()  # the doorbell, no check
        assert (state["type"], state["version"]) == ("state", 2)
    finally:
        await player.disconnect()
        await spectator.disconnect()


async def test_a_catch_up_racing_the_doorbell_sends_that_version_once(
    table, alice, bob_cookie, monkeypatch
) -> None:
    """The convergence check finds a spectator behind and reads the state; meanwhile the
    move's doorbell arrives and the socket sends that version. The catch-up then sends
    nothing: the spectator sees each version once (CI once saw version 87 twice)."""
    import time

    from games import consumers
    from games.consumers import GAME_SOCKETS

    spectator = await open_socket(table.pk, bob_cookie)
    try:
        assert (await spectator.receive_json_from())["version"] == 0
        held: list[dict[str, Any]] = []
        ring = groups.game_event_send
        monkeypatch.setattr(groups, "game_event_send", lambda **kwargs: held.append(kwargs))
        await sync_to_async(services.game_play_move)(
            game_id=table.pk, user=alice, move=a_center_move(table), version=0, move_id="late"
        )
        read_state = consumers.game_connect

        def read_while_the_doorbell_rings(**kwargs: Any) -> Any:
            read = read_state(**kwargs)
            ring(**held[0])
            deadline = time.monotonic() + 5
            while spectator.output_queue.empty() and time.monotonic() < deadline:
                time.sleep(0.01)  # until the socket has sent the doorbell's state
            return read

        monkeypatch.setattr(consumers, "game_connect", read_while_the_doorbell_rings)
        assert await GAME_SOCKETS.check() == 1
        state = await spectator.receive_json_from()
        assert (state["type"], state["version"]) == ("state", 1)
        assert await spectator.receive_nothing(timeout=QUIET)
    finally:
        await spectator.disconnect()


async def test_the_convergence_timer_catches_a_socket_up_by_itself(
    table, alice, alice_cookie, monkeypatch, settings
) -> None:
    settings.SOCKETS_CONVERGE_INTERVAL = 0.05
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        monkeypatch.setattr(groups, "game_event_send", lambda **kwargs: None)
        await sync_to_async(services.game_play_move)(
            game_id=table.pk, user=alice, move=a_center_move(table), version=0, move_id="lost"
        )
        state = await communicator.receive_json_from(timeout=10)
        assert (state["type"], state["version"]) == ("state", 1)
    finally:
        await communicator.disconnect()


async def test_the_mover_is_answered_without_waiting_for_the_channel_layer(
    table, alice_cookie, monkeypatch
) -> None:
    """The socket that sent a move sends its new state as soon as the move commits; the
    group event (here lost) is for the other viewers and the mover's other sockets."""
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        monkeypatch.setattr(groups, "game_event_send", lambda **kwargs: None)
        await send(
            communicator, {"type": "move", "move": a_center_move(table), "version": 0, "id": "q"}
        )
        state = await communicator.receive_json_from()
        assert state["version"] == 1 and state == await frame_for(table, 0)
        assert await communicator.receive_nothing(timeout=QUIET)  # once, not twice
    finally:
        await communicator.disconnect()


async def test_the_mover_gets_each_version_once_from_the_answer_the_return_and_the_event(
    table, alice_cookie
) -> None:
    """Three paths carry the mover's frames of a move: the answer handed over as it commits,
    the service's return, and the group event; the socket sends them once."""
    communicator = await open_socket(table.pk, alice_cookie)
    try:
        await communicator.receive_json_from()
        await send(
            communicator, {"type": "move", "move": a_center_move(table), "version": 0, "id": "q"}
        )
        state = await communicator.receive_json_from()
        assert state["type"] == "state" and state["version"] == 1
        assert state == await frame_for(table, 0)
        assert await communicator.receive_nothing(timeout=QUIET)
    finally:
        await communicator.disconnect()


async def test_a_reconnecting_player_gets_the_current_state(table, alice_cookie) -> None:
    first = await open_socket(table.pk, alice_cookie)
    await first.receive_json_from()
    await send(first, {"type": "move", "move": a_center_move(table), "version": 0, "id": "r"})
    await frames(first)
    await first.disconnect()
    second = await open_socket(table.pk, alice_cookie)
    try:
        state = await second.receive_json_from()
        assert state["version"] == 1 and state == await frame_for(table, 0)
    finally:
        await second.disconnect()


async def test_resigning_the_game_sends_state_then_game_end(table, alice_cookie) -> None:
    player = await open_socket(table.pk, alice_cookie)
    watcher = await open_socket(table.pk)
    try:
        await player.receive_json_from()
        await watcher.receive_json_from()
        assert await frames(player) == [{"type": "spectators", "count": 1}]
        left = len(table.state["players"][0]["payoff"])
        await send(player, {"type": "resign", "scope": "game"})
        state, end = await frames(player)
        watched = await frames(watcher)
        following = await sync_to_async(lambda: current_game(table.match))()
        assert state["version"] == 1 and state["game"]["status"] == "finished"
        assert state["game"]["outcome"] == {"winner": 1, "points": left, "reason": "resigned"}
        assert state["view"]["legal_moves"] == [] and state["match"]["next_game"] == following.pk
        assert end == {
            "type": "game_end", "game": table.pk, "winner": 1, "points": left,
            "reason": "resigned", "scores": [0, left], "match_over": False,
            "next_game": following.pk,
        }  # fmt: skip
        assert [f["type"] for f in watched] == ["state", "game_end"]
    finally:
        await player.disconnect()
        await watcher.disconnect()


async def test_resigning_the_match_sends_state_game_end_and_match_end(table, alice_cookie) -> None:
    player = await open_socket(table.pk, alice_cookie)
    try:
        await player.receive_json_from()
        await send(player, {"type": "resign", "scope": "match"})
        state, game_end, match_end = await frames(player)
        assert state["match"]["status"] == "finished" and state["match"]["winner"] == 1
        assert game_end["match_over"] is True and game_end["next_game"] is None
        assert match_end == {
            "type": "match_end", "match": table.match_id, "winner": 1, "scores": [0, 0],
            "reason": "resigned",
        }  # fmt: skip
        await send(player, {"type": "resign", "scope": "game"})
        assert (await player.receive_json_from())["code"] == "game_over"
    finally:
        await player.disconnect()
