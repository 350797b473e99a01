"""The event stream of the per-user socket (docs/protocol.md, "The per-user socket"): the
``games`` list on connect and ``sync``, ``game_started`` however a game starts, ``your_turn``
whenever the turn passes to a person — over the service calls, and over /ws/me/ opened with an
API token as a program does."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from asgiref.sync import sync_to_async

import engine
from api.services import api_token_create, api_token_revoke
from games import services as games
from games.models import Game, Match
from games.sending import players as notify
from lobby import services as lobby
from tests.accounts.factories import UserFactory
from tests.games import conftest as games_fixtures
from tests.games.helpers import (
    SMALL,
    a_center_move,
    a_side_move,
    center_line,
    current_game,
    seed_where_the_bot_hands_over,
)
from tests.sockets import QUIET, frames, open_socket, send

seeds = games_fixtures.seeds
human_starts = games_fixtures.human_starts
bot_starts = games_fixtures.bot_starts


class Sent:
    """What ``games.sending.players.user_frames_send`` was asked to send: every call (one group send
    per user in it), and the frames per user id."""

    def __init__(self) -> None:
        self.calls: list[dict[int, list[dict[str, Any]]]] = []
        self.frames: dict[int, list[dict[str, Any]]] = defaultdict(list)

    def __call__(self, frames: dict[int, list[dict[str, Any]]]) -> None:
        self.calls.append(frames)
        for user_id, sent in frames.items():
            self.frames[user_id].extend(sent)

    def of(self, user: Any, kind: str | None = None) -> list[dict[str, Any]]:
        return [f for f in self.frames.get(user.pk, []) if kind is None or f["type"] == kind]

    def group_sends(self) -> int:
        return sum(len(call) for call in self.calls)

    def clear(self) -> None:
        self.calls.clear()
        self.frames.clear()


@pytest.fixture
def sent(monkeypatch) -> Sent:
    box = Sent()
    monkeypatch.setattr(notify, "user_frames_send", box)
    return box


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """``committed(service, **kwargs)``: call a service and run its on-commit callbacks (and
    the ones those add: the inline bot runner's moves), as real commits would."""

    def call(service: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return service(**kwargs)

    return call


@pytest.fixture
def alice(db):
    return UserFactory(username="alice", display_name="Alice")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", display_name="Bob")


def addresses(game_id: int) -> dict[str, str]:
    return {"url": f"/play/games/{game_id}/", "api_url": f"/api/v1/games/{game_id}/"}


def play_turn(committed, game: Game, user: Any) -> None:
    """``user`` plays a whole turn in ``game``: center plays a greedy bot picks, then a discard."""
    seat = game.match.seat_of(user)
    chooser = engine.bot("greedy", seed=1)
    while True:
        game = current_game(game.match)
        if not game.is_active or game.to_move != seat:
            return
        view = engine.Game.from_dict(game.state).view(seat)
        move = str(chooser.choose_from_view(view))
        committed(
            games.game_play_move,
            game_id=game.pk,
            user=user,
            move=move,
            version=game.version,
            move_id=f"t-{game.version}",
        )


# --- game_started and your_turn, from the services --------------------------------------------


def test_a_person_who_starts_a_bot_match_hears_game_started_then_your_turn(
    alice, human_starts, sent, committed
) -> None:
    match = committed(human_starts, user=alice)
    game = current_game(match)
    assert sent.of(alice) == [
        {
            "type": "game_started",
            "match": match.pk,
            "game": game.pk,
            "number": 1,
            "seat": 0,
            "your_turn": True,
            **addresses(game.pk),
        },
        {
            "type": "your_turn",
            "match": match.pk,
            "game": game.pk,
            "version": 0,
            **addresses(game.pk),
        },
    ]
    assert sent.group_sends() == 1  # both frames in one message to alice's sockets


def test_when_the_bot_starts_your_turn_comes_once_its_turn_is_over(
    alice, bot_starts, sent, committed
) -> None:
    match = committed(bot_starts, user=alice)
    game = current_game(match)
    assert game.to_move == 0 and game.version > 0  # the inline runner played the bot's turn
    started, turn = sent.of(alice)
    assert (started["type"], started["your_turn"], started["seat"]) == ("game_started", False, 0)
    assert turn == {
        "type": "your_turn",
        "match": match.pk,
        "game": game.pk,
        "version": game.version,
        **addresses(game.pk),
    }


def test_your_own_moves_ring_nothing_and_the_turn_coming_back_rings_once(
    alice, human_starts, sent, committed
) -> None:
    match = committed(human_starts, user=alice)
    sent.clear()
    game = current_game(match)
    committed(
        games.game_play_move, game_id=game.pk, user=alice, move=a_center_move(game), version=0
    )
    assert sent.calls == []  # still alice's turn: no doorbell on /ws/me/

    game = current_game(match)
    committed(games.game_play_move, game_id=game.pk, user=alice, move=a_side_move(game), version=1)
    game = current_game(match)
    if game.is_active and game.number == 1:
        assert game.to_move == 0
        assert sent.of(alice) == [
            {
                "type": "your_turn",
                "match": match.pk,
                "game": game.pk,
                "version": game.version,
                **addresses(game.pk),
            }
        ]
        assert sent.group_sends() == 1


def test_an_undo_in_your_own_turn_rings_nothing(alice, seeds, sent, committed) -> None:
    seed, [move] = center_line([False])  # a first play that shows no new card: undoable
    seeds(seed, 4242)
    match = committed(games.match_create, user=alice, bot="greedy", rules=SMALL)
    game = current_game(match)
    committed(games.game_play_move, game_id=game.pk, user=alice, move=move, version=0)
    sent.clear()
    committed(games.game_undo, game_id=game.pk, user=alice, version=1)
    assert sent.calls == []


def test_between_people_both_hear_the_start_and_each_hears_their_own_turns(
    alice, bob, sent, committed
) -> None:
    challenge = lobby.challenge_create(challenger=alice, challenged_username="bob", rules=SMALL)
    match = committed(lobby.challenge_accept, challenge_id=challenge.pk, user=bob)
    game = current_game(match)
    starter, waiter = (alice, bob) if game.to_move == 0 else (bob, alice)
    [started] = sent.of(waiter)
    assert started["type"] == "game_started" and started["your_turn"] is False
    assert started["seat"] == match.seat_of(waiter)
    first, turn = sent.of(starter)
    assert (first["type"], first["your_turn"], turn["type"]) == ("game_started", True, "your_turn")

    sent.clear()
    play_turn(committed, game, starter)
    game = current_game(match)
    if game.number == 1:
        assert sent.of(starter) == []
        assert [f["version"] for f in sent.of(waiter, "your_turn")] == [game.version]


def test_taking_a_seek_starts_the_game_for_both(alice, bob, sent, committed) -> None:
    seek = lobby.seek_create(owner=alice, rules=SMALL)
    match = committed(lobby.seek_take, seek_id=seek.pk, user=bob)
    for user, seat in ((alice, 0), (bob, 1)):
        [started] = sent.of(user, "game_started")
        assert (started["match"], started["seat"], started["number"]) == (match.pk, seat, 1)


def test_the_next_game_of_a_match_and_a_rematch_start_with_game_started(
    alice, human_starts, seeds, sent, committed
) -> None:
    match = committed(human_starts, user=alice)
    game = current_game(match)
    sent.clear()
    seeds(seed_where_the_bot_hands_over(bot_seat=1), 4242)  # game 2's deal: the bot hands over
    committed(games.game_resign, game_id=game.pk, user=alice, scope="game")  # 5 points of 10
    second = current_game(match)
    assert second.number == 2
    [started] = sent.of(alice, "game_started")
    assert (started["game"], started["number"], started["your_turn"]) == (second.pk, 2, False)
    [turn] = sent.of(alice, "your_turn")  # the bot starts game 2, then hands alice the turn
    assert (turn["game"], turn["version"]) == (second.pk, second.version)

    committed(games.game_resign, game_id=second.pk, user=alice, scope="match")
    sent.clear()
    result = committed(games.match_rematch, match_id=match.pk, user=alice, action="offer")
    # The rematch's deal is random: a bot that starts it may win its first game at once (small
    # knobs), and game 2's start is told too. The rematch's start is its first game's.
    [started] = [f for f in sent.of(alice, "game_started") if f["number"] == 1]
    assert (started["match"], started["game"], started["number"]) == (
        result.match_id,
        result.game_id,
        1,
    )


def test_a_game_or_match_that_ends_rings_no_turn(alice, bob, sent, committed) -> None:
    match = games.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = current_game(match)
    sent.clear()
    committed(games.game_resign, game_id=game.pk, user=alice, scope="match")
    assert sent.calls == []


def test_the_frames_are_built_without_a_query(alice, bob, django_assert_num_queries) -> None:
    game = current_game(games.match_create_between(user0=alice, user1=bob, rules=SMALL))
    with django_assert_num_queries(0):
        assert set(notify.game_started_frames(game)) == {alice.pk, bob.pk}
        assert notify.turn_passed_frames(game, to_move_before=game.to_move) == {}
        assert list(notify.turn_passed_frames(game, to_move_before=1 - game.to_move)) == [
            game.match.user_id_at(game.to_move)
        ]


# --- the games list ---------------------------------------------------------------------------


def test_the_games_frame_lists_your_games_in_progress_with_whose_turn_and_the_opponent(
    alice, bob, human_starts
) -> None:
    robo = UserFactory(username="robo", display_name="Robo", is_bot=True)
    against_bot = human_starts(alice, bot="expert")
    against_robo = games.match_create_between(user0=robo, user1=alice, rules=SMALL)
    over = games.match_create_between(user0=alice, user1=bob, rules=SMALL)
    games.game_resign(game_id=current_game(over).pk, user=bob, scope="match")
    games.match_create_between(user0=bob, user1=robo, rules=SMALL)  # not alice's

    frame = notify.games_frame(user=alice)
    assert frame["type"] == "games"
    listed = {entry["match"]: entry for entry in frame["games"]}
    assert set(listed) == {against_bot.pk, against_robo.pk}
    bot_game = current_game(against_bot)
    assert listed[against_bot.pk] == {
        "match": against_bot.pk,
        "game": bot_game.pk,
        "version": 0,
        "seat": 0,
        "your_turn": True,
        "opponent": {"bot": "expert"},
        **addresses(bot_game.pk),
    }
    robo_game = current_game(against_robo)
    entry = listed[against_robo.pk]
    assert entry["seat"] == 1 and entry["your_turn"] == (robo_game.to_move == 1)
    assert entry["opponent"] == {"username": "robo", "name": "Robo", "is_bot": True}
    assert notify.games_frame(user=UserFactory()) == {"type": "games", "games": []}


# --- over the socket, as a program --------------------------------------------------------------


async def token_socket(key: str, *, header: bool = True):
    """/ws/me/ opened with an API token (a header, or ``?token=``) and no session cookie."""
    if header:
        return await open_socket("/ws/me/", headers=[(b"authorization", f"Bearer {key}".encode())])
    return await open_socket(f"/ws/me/?token={key}")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_program_follows_its_games_over_the_socket_with_a_token(alice) -> None:
    _, key = await sync_to_async(api_token_create)(user=alice, name="bot")
    match = await sync_to_async(games.match_create)(user=alice, bot="random", rules=SMALL)
    game = await sync_to_async(current_game)(match)
    socket = await token_socket(key)
    try:
        assert (await socket.receive_json_from())["type"] == "challenges"
        listed = await socket.receive_json_from()
        assert listed["type"] == "games"
        [entry] = listed["games"]
        assert (entry["game"], entry["version"], entry["opponent"]) == (
            game.pk,
            game.version,
            {"bot": "random"},
        )
        assert entry["your_turn"] is True  # the bot, if it started, has played its turn

        second = await sync_to_async(games.match_create)(user=alice, bot="greedy", rules=SMALL)
        received = await frames(socket)
        started = received[0]
        assert started["type"] == "game_started" and started["match"] == second.pk
        assert received[-1]["type"] == "your_turn" and received[-1]["match"] == second.pk
        second_game = await sync_to_async(current_game)(second)
        assert received[-1]["version"] == second_game.version

        await send(socket, {"type": "sync"})
        challenges, again = await frames(socket)
        assert challenges == {"type": "challenges", "challenges": []}
        assert [e["match"] for e in again["games"]] == [second.pk, match.pk]
    finally:
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_query_token_works_and_a_revoked_token_is_refused_with_4401(alice) -> None:
    token, key = await sync_to_async(api_token_create)(user=alice, name="bot")
    socket = await token_socket(key, header=False)
    try:
        assert [f["type"] for f in await frames(socket)] == ["challenges", "games"]
    finally:
        await socket.disconnect()

    await sync_to_async(api_token_revoke)(user=alice, token_id=token.pk)
    socket = await token_socket(key)
    try:
        error = await socket.receive_json_from()
        assert error["type"] == "error" and error["code"] == "unauthenticated"
        assert await socket.receive_output() == {"type": "websocket.close", "code": 4401}
    finally:
        await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_your_turn_reaches_only_the_player_to_move(alice, bob) -> None:
    _, alice_key = await sync_to_async(api_token_create)(user=alice, name="a")
    _, bob_key = await sync_to_async(api_token_create)(user=bob, name="b")
    sockets = {alice.pk: await token_socket(alice_key), bob.pk: await token_socket(bob_key)}
    try:
        for socket in sockets.values():
            await frames(socket)
        match = await sync_to_async(games.match_create_between)(user0=alice, user1=bob, rules=SMALL)
        game = await sync_to_async(current_game)(match)
        mover = match.user_id_at(game.to_move)
        waiter = match.user_id_at(1 - game.to_move)
        assert [f["type"] for f in await frames(sockets[mover])] == ["game_started", "your_turn"]
        [started] = await frames(sockets[waiter])
        assert started["type"] == "game_started" and started["your_turn"] is False

        user = alice if mover == alice.pk else bob
        await sync_to_async(games.game_play_move)(
            game_id=game.pk, user=user, move=a_side_move(game, game.to_move), version=0
        )
        [turn] = await frames(sockets[waiter])
        assert (turn["type"], turn["game"], turn["version"]) == ("your_turn", game.pk, 1)
        assert await sockets[mover].receive_nothing(timeout=QUIET)
        assert (await sync_to_async(Match.objects.get)(pk=match.pk)).status == "active"
    finally:
        for socket in sockets.values():
            await socket.disconnect()
