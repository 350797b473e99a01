"""games.services._lock.game_row_lock: the row lock written out as SQL reads exactly what the
ORM's select_related would, on every field of the game, the match and both seated users."""

from __future__ import annotations

import pytest
from django.db import transaction

from games import services
from games.models import Game, Match
from games.services._lock import game_row_lock
from tests.games.helpers import SMALL, current_game, legal

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def _assert_same(game_id: int) -> None:
    with transaction.atomic():
        locked = game_row_lock(game_id)
    expected = Game.objects.select_related("match__user0", "match__user1").get(pk=game_id)
    assert locked is not None
    assert _fields(locked) == _fields(expected)
    assert _fields(locked.match) == _fields(expected.match)
    for seat in (0, 1):
        user, wanted = locked.match.user_at(seat), expected.match.user_at(seat)
        assert (user is None) == (wanted is None)
        if wanted is not None:
            assert _fields(user) == _fields(wanted)
    assert not locked._state.adding and locked._state.db == expected._state.db


def test_a_game_between_people_reads_as_the_orm_reads_it(alice, bob) -> None:
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = current_game(match)
    services.game_play_move(
        game_id=game.pk, user=alice if game.to_move == 0 else bob,
        move=legal(game, game.to_move)[0], version=0, move_id="a",
    )  # fmt: skip
    _assert_same(game.pk)


def test_a_game_against_a_bot_reads_an_empty_seat_as_none(alice) -> None:
    match = services.match_create(user=alice, bot="random", rules=SMALL)
    game = current_game(match)
    _assert_same(game.pk)
    with transaction.atomic():
        locked = game_row_lock(game.pk)
    assert locked is not None and None in (locked.match.user0, locked.match.user1)


def test_an_ended_game_reads_its_end_as_the_orm_reads_it(alice, bob) -> None:
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = current_game(match)
    services.game_resign(game_id=game.pk, user=alice, scope="match")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    _assert_same(game.pk)


def test_no_such_game_is_none() -> None:
    with transaction.atomic():
        assert game_row_lock(987654) is None
