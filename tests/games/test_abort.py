"""Aborting: either player may call off a match in its first game, before both seats have
moved; the game and the match end as aborted, with no winner and no points."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from core.errors import GameError
from games import services
from games.models import Game, Match
from games.selectors import game_state_frame
from games.services import game_abort, game_play_move, game_resign
from tests.games.helpers import SMALL, a_center_move, a_side_move, current_game, seed_where

pytestmark = pytest.mark.django_db


def _error(call, **kwargs) -> GameError:
    with pytest.raises(GameError) as caught:
        call(**kwargs)
    return caught.value


@pytest.fixture
def people(alice, bob, seeds) -> Game:
    """Game 1 of alice (seat 0, to move) against bob."""
    seeds(seed_where(0), 1)
    return current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))


def _assert_aborted(game: Game, version: int) -> None:
    game.refresh_from_db()
    match = Match.objects.get(pk=game.match_id)
    assert (game.status, game.reason, game.winner, game.points, game.version) == (
        "aborted", "aborted", None, 0, version
    )  # fmt: skip
    assert (match.status, match.end_reason, match.winner, match.scores) == (
        "aborted", "aborted", None, [0, 0]
    )  # fmt: skip
    assert game.finished_at and match.finished_at
    assert match.games.count() == 1  # no next game dealt


def test_either_player_may_abort_before_anyone_moved(people, alice, bob) -> None:
    assert game_state_frame(people, 0)["can_abort"] is True
    assert game_state_frame(people, 1)["can_abort"] is True
    assert game_state_frame(people, None)["can_abort"] is False
    game_abort(game_id=people.pk, user=bob)
    _assert_aborted(people, 1)
    assert _error(game_abort, game_id=people.pk, user=alice).code == "game_over"


def test_the_second_player_may_abort_after_only_the_first_moved(people, alice, bob) -> None:
    game_play_move(game_id=people.pk, user=alice, move=a_center_move(people), version=0)
    people.refresh_from_db()
    assert game_state_frame(people, 1)["can_abort"] is True
    game_abort(game_id=people.pk, user=alice)  # the one who moved may still abort too
    _assert_aborted(people, 2)


def test_no_abort_once_both_seats_moved(people, alice, bob) -> None:
    game_play_move(game_id=people.pk, user=alice, move=a_side_move(people), version=0)
    people.refresh_from_db()
    bob_move = _legal(people, 1)[0]
    game_play_move(game_id=people.pk, user=bob, move=bob_move, version=1)
    people.refresh_from_db()
    assert game_state_frame(people, 0)["can_abort"] is False
    for user in (alice, bob):
        error = _error(game_abort, game_id=people.pk, user=user)
        assert error.code == "forbidden" and "resign" in error.message
    assert Game.objects.get(pk=people.pk).is_active


def _legal(game: Game, seat: int) -> list[str]:
    import engine

    return engine.Game.from_dict(game.state).view(seat)["legal_moves"]


def test_no_abort_in_game_two(people, alice, bob) -> None:
    game_resign(game_id=people.pk, user=alice, scope="game")
    second = current_game(people.match)
    assert second.number == 2 and not second.moves.exists()
    assert game_state_frame(second, 0)["can_abort"] is False
    error = _error(game_abort, game_id=second.pk, user=bob)
    assert error.code == "forbidden" and "first game" in error.message


def test_spectators_and_visitors_cannot_abort(people) -> None:
    from django.contrib.auth.models import AnonymousUser

    from tests.accounts.factories import UserFactory

    carol = UserFactory(username="carol")
    assert _error(game_abort, game_id=people.pk, user=carol).code == "forbidden"
    assert _error(game_abort, game_id=people.pk, user=AnonymousUser()).code == "unauthenticated"


def test_against_a_bot_the_person_aborts_until_both_moved(alice, bot_starts, human_starts):
    game = current_game(bot_starts(alice))  # nothing commits: the bot has not moved
    assert game_state_frame(game, 0)["can_abort"] is True
    game_abort(game_id=game.pk, user=alice)
    _assert_aborted(game, 1)

    game = current_game(human_starts(alice))
    game_play_move(game_id=game.pk, user=alice, move=a_side_move(game), version=0)
    game.refresh_from_db()
    bot_move = _legal(game, 1)[0]
    game_play_move(game_id=game.pk, bot=True, seat=1, move=bot_move, version=1)
    assert _error(game_abort, game_id=game.pk, user=alice).code == "forbidden"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_abort_over_the_socket_sends_state_game_end_and_match_end(alice, bob, seeds) -> None:
    from tests.games.test_consumers import open_socket, session_cookie
    from tests.sockets import frames, send

    def make():
        from django.test import Client

        seeds(seed_where(0), 1)
        game = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
        return game, session_cookie(Client(), alice), session_cookie(Client(), bob)

    game, alice_cookie, bob_cookie = await sync_to_async(make)()
    mine = await open_socket(game.pk, alice_cookie)
    theirs = await open_socket(game.pk, bob_cookie)
    try:
        assert (await mine.receive_json_from())["can_abort"] is True
        await theirs.receive_json_from()
        await send(theirs, {"type": "abort"})
        state, game_end, match_end = await frames(mine)
        assert [f["type"] for f in await frames(theirs)] == ["state", "game_end", "match_end"]
        assert state["game"]["status"] == "aborted" and state["match"]["status"] == "aborted"
        assert state["game"]["outcome"] == {"winner": None, "points": 0, "reason": "aborted"}
        assert state["can_abort"] is False and state["view"]["legal_moves"] == []
        assert state["match"]["reason"] == "aborted" and state["match"]["rematch"] is None
        assert game_end == {
            "type": "game_end", "game": game.pk, "winner": None, "points": 0,
            "reason": "aborted", "scores": [0, 0], "match_over": True, "next_game": None,
        }  # fmt: skip
        assert match_end == {
            "type": "match_end", "match": game.match_id, "winner": None, "scores": [0, 0],
            "reason": "aborted",
        }  # fmt: skip
        await send(mine, {"type": "abort"})
        assert (await mine.receive_json_from())["code"] == "game_over"
    finally:
        await mine.disconnect()
        await theirs.disconnect()
