"""Undo against a bot: taking back the moves of your turn since cards last came into view.

The restored position is exactly the one before (shuffler included), the take-back is a row of
the log, and replays stay true. Refused in ranked play, against a person, for spectators, out
of turn, and when there is nothing to take back.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

import engine
from core.errors import GameError
from games import services
from games.models import Game, Move
from games.selectors import game_replay, game_state_frame
from games.services import game_play_move, game_undo
from tests.games.helpers import SMALL, a_side_move, center_line, current_game, seed_where

pytestmark = pytest.mark.django_db

#: Hands of two, so a few plays empty the hand and it is refilled mid-turn.
TINY_HAND = engine.Rules(payoff_size=5, hand_size=2, match_target=10)


def _error(call, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        call(**kwargs)
    return caught.value


def _table(alice, seeds, pattern, rules=SMALL, **create) -> tuple[Game, list[str]]:
    """Game 1 against the greedy bot, alice to move, with center plays whose "shows a card"
    flags follow ``pattern``."""
    seed, line = center_line(pattern, rules)
    seeds(seed, 4242)
    match = services.match_create(user=alice, bot="greedy", rules=rules, **create)
    return current_game(match), line


def _play(game: Game, user, moves: list[str]) -> Game:
    for move in moves:
        game.refresh_from_db()
        game_play_move(game_id=game.pk, user=user, move=move, version=game.version)
    game.refresh_from_db()
    return game


def test_undo_restores_exactly_the_position_before_the_turns_moves(alice, seeds) -> None:
    game, line = _table(alice, seeds, [False, False])
    before = game.state

    _play(game, alice, line)
    assert game.state != before and game.version == 2
    undone = game_undo(game_id=game.pk, user=alice, version=2)

    game.refresh_from_db()
    assert game.state == before  # every card, the engine's ply and the shuffler's state
    assert engine.Game.from_dict(game.state).to_dict() == before
    assert game.version == 3 and undone.version == 3
    row = Move.objects.get(game=game, kind="undo")
    assert (row.ply, row.seat, row.text, row.undoes, row.version) == (2, 0, "undo", 2, 3)
    assert game_replay(game).to_dict() == game.state


def test_plies_keep_growing_after_an_undo_and_the_replay_holds(alice, seeds) -> None:
    game, line = _table(alice, seeds, [False, False])
    _play(game, alice, line[:1])
    game_undo(game_id=game.pk, user=alice, version=1)
    _play(game, alice, line)  # the same plays again, and more
    game_undo(game_id=game.pk, user=alice, version=4)
    game.refresh_from_db()
    rows = list(game.moves.order_by("ply").values_list("ply", "kind", "undoes"))
    assert rows == [
        (0, "move", 0), (1, "undo", 1), (2, "move", 0), (3, "move", 0), (4, "undo", 2)
    ]  # fmt: skip
    assert game.ply == 0 and game.version == 5
    assert game_replay(game).to_dict() == game.state
    _play(game, alice, [a_side_move(game)])  # and the turn can still be ended
    assert game.moves.last().ply == 5 and game_replay(game).to_dict() == game.state


def test_undo_stops_at_a_refill_of_an_emptied_hand(alice, seeds) -> None:
    game, line = _table(alice, seeds, [False, True, False], rules=TINY_HAND)
    _play(game, alice, line[:2])
    after_refill = game.state
    _play(game, alice, line[2:])

    game_undo(game_id=game.pk, user=alice, version=3)
    game.refresh_from_db()
    assert game.state == after_refill and Move.objects.get(kind="undo").undoes == 1
    error = _error(game_undo, game_id=game.pk, user=alice, version=4)
    assert error.code == "nothing_to_undo"  # the refill's new cards cannot be unseen


def test_a_new_pay_off_top_cannot_be_unseen(alice, seeds) -> None:
    game, line = _table(alice, seeds, [False, True])
    assert line[1] == "p-c1" or line[1].startswith("p-")
    _play(game, alice, line)
    assert _error(game_undo, game_id=game.pk, user=alice, version=2).code == "nothing_to_undo"


def test_nothing_to_undo_at_the_start_of_the_turn(alice, seeds) -> None:
    game, _ = _table(alice, seeds, [False])
    error = _error(game_undo, game_id=game.pk, user=alice, version=0)
    assert error.code == "nothing_to_undo" and "Nothing to take back" in error.message
    assert not Move.objects.exists()


def test_undo_is_refused_in_ranked_play(alice, seeds) -> None:
    from leagues.models import League, Membership

    league = League.objects.create(
        name="Bots", slug="bots", rules=SMALL.to_dict(), bots_ranked=True
    )
    Membership.objects.create(league=league, user=alice)
    game, line = _table(alice, seeds, [False], ranked=True, league=league)
    _play(game, alice, line)
    error = _error(game_undo, game_id=game.pk, user=alice, version=1)
    assert error.code == "forbidden"
    assert error.message == "Moves cannot be taken back in ranked play."


def test_undo_is_refused_against_a_person(alice, bob, seeds) -> None:
    seeds(seed_where(0), 1)
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = current_game(match)
    move = next(m for m in engine.Game.from_dict(game.state).view(0)["legal_moves"] if "-c" in m)
    _play(game, alice, [move])
    error = _error(game_undo, game_id=game.pk, user=alice, version=1)
    assert error.code == "forbidden" and "against a bot" in error.message


def test_undo_is_refused_to_spectators_and_anonymous_visitors(alice, bob, seeds) -> None:
    game, line = _table(alice, seeds, [False])
    _play(game, alice, line)
    assert _error(game_undo, game_id=game.pk, user=bob, version=1).code == "forbidden"
    anonymous = _error(game_undo, game_id=game.pk, user=AnonymousUser(), version=1)
    assert anonymous.code == "unauthenticated"


def test_undo_out_of_turn_or_against_an_old_version(alice, bot_starts, seeds) -> None:
    game = current_game(bot_starts(alice))  # nothing commits here: the bot keeps the turn
    assert _error(game_undo, game_id=game.pk, user=alice, version=0).code == "not_your_turn"
    game, line = _table(alice, seeds, [False])
    _play(game, alice, line)
    stale = _error(game_undo, game_id=game.pk, user=alice, version=0)
    assert (stale.code, stale.params) == ("stale_version", {"version": 1})
    assert _error(game_undo, game_id=game.pk, user=alice, version="1").code == "bad_message"


def test_an_undone_moves_id_is_not_played_again(alice, seeds) -> None:
    game, line = _table(alice, seeds, [False])
    game_play_move(game_id=game.pk, user=alice, move=line[0], version=0, move_id="x")
    game_undo(game_id=game.pk, user=alice, version=1)
    again = game_play_move(game_id=game.pk, user=alice, move=line[0], version=0, move_id="x")
    game.refresh_from_db()
    assert again.replayed and game.version == 2 and game.moves.count() == 2


def test_state_frames_say_when_undo_is_possible(alice, bob, seeds) -> None:
    game, line = _table(alice, seeds, [False, True])
    assert game_state_frame(game, 0)["can_undo"] is False  # nothing played yet
    _play(game, alice, line[:1])
    assert game_state_frame(game, 0)["can_undo"] is True
    assert game_state_frame(game, None)["can_undo"] is False
    frame = game_state_frame(game, 0)
    assert frame["last_moves"] == [{"ply": 0, "seat": 0, "move": line[0]}]
    _play(game, alice, line[1:])  # a new pay-off top: nothing left to take back
    assert game_state_frame(game, 0)["can_undo"] is False


def test_last_moves_mark_taken_back_moves_and_the_undo(alice, seeds) -> None:
    game, line = _table(alice, seeds, [False, False])
    _play(game, alice, line)
    game_undo(game_id=game.pk, user=alice, version=2)
    game.refresh_from_db()
    frame = game_state_frame(game, 0)
    assert frame["last_moves"] == [
        {"ply": 0, "seat": 0, "move": line[0], "undone": True},
        {"ply": 1, "seat": 0, "move": line[1], "undone": True},
        {"ply": 2, "seat": 0, "move": "undo", "kind": "undo", "undoes": 2},
    ]
    assert frame["view"]["ply"] == 0 and frame["can_undo"] is False


@pytest.mark.django_db(transaction=True)
def test_after_an_undo_the_turn_goes_on_and_the_bot_answers(alice, seeds) -> None:
    game, line = _table(alice, seeds, [False, False])
    _play(game, alice, line)
    game_undo(game_id=game.pk, user=alice, version=2)
    game.refresh_from_db()
    _play(game, alice, line[:1])
    _play(game, alice, [a_side_move(game)])  # the bot plays its turn on commit
    assert game.moves.filter(seat=1).exists()
    assert game_replay(game).to_dict() == game.state
    if game.is_active and game.to_move == 0:
        assert game_state_frame(game, 0)["can_undo"] is False  # the bot's turn lies between


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_undo_over_the_socket_sends_the_restored_state_to_everyone(alice, seeds) -> None:
    from asgiref.sync import sync_to_async

    from tests.games.test_consumers import open_socket, session_cookie
    from tests.sockets import frames, send

    def make():
        from django.test import Client

        game, line = _table(alice, seeds, [False, False])
        return game, line, session_cookie(Client(), alice)

    game, line, cookie = await sync_to_async(make)()
    player = await open_socket(game.pk, cookie)
    watcher = await open_socket(game.pk)
    try:
        start = await player.receive_json_from()
        await watcher.receive_json_from()
        await frames(player)  # the spectator count
        assert start["can_undo"] is False
        await send(player, {"type": "undo", "version": 0})
        assert (await player.receive_json_from())["code"] == "nothing_to_undo"
        for version, move in enumerate(line):
            await send(player, {"type": "move", "move": move, "version": version, "id": move})
            [state] = await frames(player)
            assert state["can_undo"] is True
        await frames(watcher)

        await send(watcher, {"type": "undo", "version": 2})
        assert (await watcher.receive_json_from())["code"] == "unauthenticated"
        await send(player, {"type": "undo", "version": 1})
        error, fresh = await frames(player)
        assert error["code"] == "stale_version" and fresh["version"] == 2
        await send(player, {"type": "undo", "version": 2})
        [state] = await frames(player)
        [watched] = await frames(watcher)
        assert state["version"] == watched["version"] == 3
        assert state["view"]["players"][0]["hand"] == start["view"]["players"][0]["hand"]
        assert state["view"]["center"] == start["view"]["center"]
        assert state["can_undo"] is False and watched["can_undo"] is False
        assert state["last_moves"][-1] == {
            "ply": 2, "seat": 0, "move": "undo", "kind": "undo", "undoes": 2
        }  # fmt: skip
        await send(player, {"type": "undo"})
        assert (await player.receive_json_from())["code"] == "bad_message"
    finally:
        await player.disconnect()
        await watcher.disconnect()
