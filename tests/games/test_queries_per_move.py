"""How many queries a move costs: the service, and the frames every socket receives. Counts,
never times (bench/profile_move.py measures the time). A count that grows means a query per
move crept in: find it before raising the bound."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import services
from games.models import Game
from games.selectors import game_connect, game_event_frames, game_may_abort
from games.sending import groups
from tests.games.helpers import SMALL, legal

pytestmark = pytest.mark.django_db

#: game_play_move: the game row locked with its match and seated users, the log's latest rows
#: read (they number the new row and feed the frames), the row inserted, the game updated. A
#: fresh move's id is checked by the log's unique constraint, not looked up. A test's
#: transaction is a savepoint (SAVEPOINT + RELEASE), SQLite's a BEGIN: two more at most.
MOVE_QUERIES = 4 + 2
#: The frames of every viewer after a move: the last moves, read once for all of them.
FRAME_QUERIES = 1
#: A socket that connects or asks ``sync``: the game with its match, users and league, and
#: the last moves.
CONNECT_QUERIES = 2


def _game(alice, bob) -> Game:
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    return Game.objects.select_related("match__user0", "match__user1").get(match=match, number=1)


def _play(game: Game, users: dict[int, object], n: int) -> Game:
    for i in range(n):
        game = Game.objects.get(pk=game.pk)
        if not game.is_active:
            break
        seat = game.to_move
        moves = legal(game, seat)
        services.game_play_move(
            game_id=game.pk, user=users[seat], move=moves[0], version=game.version, move_id=f"q{i}"
        )
    return Game.objects.select_related("match__user0", "match__user1").get(pk=game.pk)


def test_a_move_costs_a_fixed_number_of_queries_first_game_included(alice, bob) -> None:
    game = _game(alice, bob)
    users = {0: alice, 1: bob}
    # The first game's first moves: before the fix, the abort check read the log once more.
    # A move that ends the game also scores the match and deals the next game (more queries,
    # once a game): it is not counted, and the deal is random, so it may come early.
    counted = 0
    for i in range(30):
        game = Game.objects.get(pk=game.pk)
        if not game.is_active:
            break
        seat = game.to_move
        move = legal(game, seat)[0]
        with CaptureQueriesContext(connection) as ctx:
            services.game_play_move(
                game_id=game.pk, user=users[seat], move=move, version=game.version,
                move_id=f"m{i}",
            )  # fmt: skip
        if not Game.objects.get(pk=game.pk).is_active:
            break
        sql = [q["sql"] for q in ctx.captured_queries]
        assert len(sql) <= MOVE_QUERIES, "\n".join(sql)
        counted += 1
    assert counted >= 5


def test_the_frames_sent_after_a_move_equal_the_frames_read_afresh(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """The service builds the frames from the engine game and log rows it holds; they must be
    exactly what reading the game and its log again gives."""
    sent: list[dict] = []
    monkeypatch.setattr(groups, "game_event_send", lambda **kwargs: sent.append(kwargs))
    game = _game(alice, bob)
    users = {0: alice, 1: bob}
    for i in range(45):
        game = Game.objects.select_related("match__user0", "match__user1").get(pk=game.pk)
        if not game.is_active:
            break
        seat = game.to_move
        with django_capture_on_commit_callbacks(execute=True):
            services.game_play_move(
                game_id=game.pk, user=users[seat], move=legal(game, seat)[-1],
                version=game.version, move_id=f"f{i}",
            )  # fmt: skip
        game = Game.objects.select_related("match__user0", "match__user1").get(pk=game.pk)
        if game.is_active:
            assert sent[-1]["frames"] == game_event_frames(game), f"after move {i}"
    assert len(sent) >= 20


def test_a_moves_result_carries_the_movers_frames_of_its_event(
    alice, bob, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """The socket that sent the move answers with these at once (games.consumers._on_move)."""
    sent: list[dict] = []
    monkeypatch.setattr(groups, "game_event_send", lambda **kwargs: sent.append(kwargs))
    game = _game(alice, bob)
    seat = game.to_move
    with django_capture_on_commit_callbacks(execute=True):
        result = services.game_play_move(
            game_id=game.pk, user={0: alice, 1: bob}[seat], move=legal(game, seat)[-1],
            version=game.version, move_id="mine",
        )  # fmt: skip

    assert result.frames == tuple(sent[-1]["frames"][str(seat)])
    assert result.frames[0]["type"] == "state" and result.frames[0]["version"] == result.version


@pytest.mark.parametrize("moves", [0, 1, 3, 40])
def test_building_every_viewers_frames_reads_the_log_once(alice, bob, moves) -> None:
    game = _play(_game(alice, bob), {0: alice, 1: bob}, moves)
    with CaptureQueriesContext(connection) as ctx:
        frames = game_event_frames(game)
    # A finished game's frames also name the next game (the deal is random: 40 moves may end it).
    bound = FRAME_QUERIES if game.is_active else FRAME_QUERIES + 1
    assert len(ctx.captured_queries) <= bound, [q["sql"] for q in ctx.captured_queries]
    assert set(frames) == {"0", "1", "spectator"}
    # The same answer as reading the log: who may abort.
    for seat in (0, 1):
        state = frames[str(seat)][0]
        assert state["can_abort"] == game_may_abort(game, seat)


def test_a_socket_connecting_costs_a_fixed_number_of_queries(alice, bob) -> None:
    game = _play(_game(alice, bob), {0: alice, 1: bob}, 5)
    for user in (alice, bob, AnonymousUser()):
        with CaptureQueriesContext(connection) as ctx:
            game_connect(game_id=game.pk, user=user)
        assert len(ctx.captured_queries) <= CONNECT_QUERIES, [
            q["sql"] for q in ctx.captured_queries
        ]
