"""games.services.store: a change's rows written out as SQL do exactly what the ORM would. The
lock reads every field of the game, the match and both seated users as select_related does, and
the log's tail; the write sends the changed fields only; the log row matches the ORM's; a move's
statements travel together on PostgreSQL (three round trips: BEGIN with the lock and the tail,
the log row with the update, COMMIT); nothing is left on the model instances."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Game, Match, Move
from games.selectors import log_tail
from games.services.store import GameRow, log_append, row_lock, row_write
from tests.games.helpers import SMALL, a_center_move, current_game, legal

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def _lock(game_id: int) -> GameRow | None:
    with transaction.atomic():
        return row_lock(game_id)


def _assert_same(game_id: int) -> None:
    row = _lock(game_id)
    assert row is not None
    locked = row.game
    assert row.log_tail == log_tail(game_id)
    assert row.read == _fields(locked) and row.to_move_before == locked.to_move
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
    row = _lock(game.pk)
    assert row is not None and None in (row.match.user0, row.match.user1)


def test_an_ended_game_reads_its_end_as_the_orm_reads_it(alice, bob) -> None:
    match = services.match_create_between(user0=alice, user1=bob, rules=SMALL)
    game = current_game(match)
    services.game_resign(game_id=game.pk, user=alice, scope="match")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
    _assert_same(game.pk)


def test_no_such_game_is_none() -> None:
    assert _lock(987654) is None


def test_the_update_writes_only_what_changed_and_nothing_when_nothing_did(alice, bob) -> None:
    game = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
    with transaction.atomic():
        row = row_lock(game.pk)
        assert row is not None
        locked = row.game
        with CaptureQueriesContext(connection) as nothing:
            row_write(row)
        locked.version += 5
        locked.turn_deadline = timezone.now()
        with CaptureQueriesContext(connection) as changed:
            row_write(row)
        with CaptureQueriesContext(connection) as again:
            row_write(row)  # written: nothing changed since
    assert nothing.captured_queries == [] and again.captured_queries == []
    [update] = [q["sql"] for q in changed.captured_queries]
    q = connection.ops.quote_name
    assert update.startswith("UPDATE") and " SET " in update
    set_clause = update.split(" SET ", 1)[1].rsplit(" WHERE ", 1)[0]
    written = [part.split(" = ")[0] for part in set_clause.split(", ")]
    assert written == [q("version"), q("turn_deadline")]
    fresh = Game.objects.get(pk=game.pk)
    assert (fresh.version, fresh.turn_deadline) == (locked.version, locked.turn_deadline)


def test_the_log_row_is_the_row_create_would_make(alice, bob) -> None:
    game = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
    before = timezone.now()
    with transaction.atomic():
        row = row_lock(game.pk)
        assert row is not None and row.log_tail == []
        row.game.version = 1
        tail = log_append(row, seat=1, text="p-c1", client_move_id="x")
        row.game.version = 0  # only the log row is written
        row_write(row)
    assert tail == [{"ply": 0, "seat": 1, "kind": "move", "text": "p-c1", "undoes": 0}]
    Move.objects.create(
        game=game, ply=1, seat=0, kind=Move.Kind.UNDO, text="undo", undoes=1, version=2
    )
    raw = Move.objects.filter(game=game).order_by("ply").first()
    assert (raw.seat, raw.kind, raw.text, raw.undoes, raw.client_move_id, raw.version) == (
        1, "move", "p-c1", 0, "x", 1
    )  # fmt: skip
    assert before <= raw.created_at <= timezone.now()
    assert log_tail(game.pk) == list(
        Move.objects.filter(game=game).order_by("ply").values(
            "ply", "seat", "kind", "text", "undoes"
        )
    )  # fmt: skip
    with pytest.raises(IntegrityError), transaction.atomic():
        row = row_lock(game.pk)
        assert row is not None and [r["ply"] for r in row.log_tail] == [0, 1]
        log_append(row, seat=1, text="p-c2", client_move_id="x")
        row_write(row)
    Move.objects.filter(game=game).delete()  # made-up moves: the suite's replay check would fail


def _played(alice, bob, moves: int) -> Game:
    game = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
    for i in range(moves):
        game = Game.objects.get(pk=game.pk)
        services.game_play_move(
            game_id=game.pk, user=alice if game.to_move == 0 else bob,
            move=legal(game, game.to_move)[0], version=game.version, move_id=f"p{i}",
        )  # fmt: skip
    return Game.objects.get(pk=game.pk)


def test_the_lock_reads_the_log_tail_along(alice, bob) -> None:
    game = _played(alice, bob, 3)
    row = _lock(game.pk)
    assert row is not None and row.log_tail == log_tail(game.pk) and len(row.log_tail) == 3


def test_queued_writes_run_in_order_only_when_written(alice, bob) -> None:
    game = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
    with transaction.atomic():
        row = row_lock(game.pk)
        assert row is not None
        row.game.version = 1
        log_append(row, seat=0, text="p-c1")
        assert Move.objects.filter(game=game).count() == 0
        assert Game.objects.get(pk=game.pk).version == 0
        row_write(row)
        with CaptureQueriesContext(connection) as again:
            row_write(row)  # nothing left: runs nothing
        assert again.captured_queries == []
        assert Move.objects.filter(game=game).count() == 1
        assert Game.objects.get(pk=game.pk).version == 1
    Move.objects.filter(game=game).delete()  # a made-up move: the suite's replay check


def test_a_queued_write_that_breaks_a_constraint_raises_djangos_integrity_error(alice, bob) -> None:
    game = _played(alice, bob, 1)
    before = list(Move.objects.filter(game=game).values_list("ply", flat=True))
    with pytest.raises(IntegrityError), transaction.atomic():
        row = row_lock(game.pk)
        assert row is not None
        row.log_tail.clear()  # numbers the row 0 again: the log's unique ply refuses it
        log_append(row, seat=0, text="p-c1")
        row_write(row)
    assert list(Move.objects.filter(game=game).values_list("ply", flat=True)) == before


def test_after_a_move_the_game_holds_only_its_fields(alice, bob) -> None:
    """No state is hung on a model instance between calls: the service's game, and the one the
    store reads, carry their fields (and Django's ``_state``) and nothing else."""
    game = current_game(services.match_create_between(user0=alice, user1=bob, rules=SMALL))
    fields = {f.attname for f in Game._meta.concrete_fields} | {"_state"}
    with transaction.atomic():
        row = row_lock(game.pk)
        assert row is not None
        assert set(vars(row.game)) == fields
        services.game_play_move(
            game_id=game.pk, user=alice if game.to_move == 0 else bob,
            move=legal(game, game.to_move)[0], version=0, move_id="a",
        )  # fmt: skip
        assert set(vars(row.game)) == fields
    ended = services.game_resign(game_id=game.pk, user=alice, scope="match")
    assert set(vars(ended)) == fields
    assert set(vars(ended.match)) <= {f.attname for f in Match._meta.concrete_fields} | {"_state"}


def test_a_moves_statements_travel_together_on_postgresql(alice, bob) -> None:
    """Each statement of a move is recorded with whether psycopg's pipeline was on: the lock
    and the tail go out together, and so do the log row and the game's update."""
    if connection.vendor != "postgresql":
        pytest.skip("psycopg's pipeline mode is PostgreSQL's; SQLite runs statements in-process")
    game = _played(alice, bob, 1)
    seen: list[tuple[str, bool]] = []

    def record(execute, sql, params, many, context):
        seen.append((sql.split()[0], bool(connection.connection.pgconn.pipeline_status)))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        services.game_play_move(
            game_id=game.pk, user=alice if game.to_move == 0 else bob,
            move=legal(game, game.to_move)[0], version=game.version, move_id="together",
        )  # fmt: skip
    statements = [(verb, piped) for verb, piped in seen if verb not in ("SAVEPOINT", "RELEASE")]
    assert statements == [("SELECT", True), ("SELECT", True), ("INSERT", True), ("UPDATE", True)]


def test_a_moves_statements_are_prepared_once_a_connection_has_run_them_on_postgresql(
    alice, bob
) -> None:
    """The lock, the tail, the log row and the update bind on the server, so psycopg prepares
    them (settings: prepare_threshold); Django's own queries are never prepared."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    _played(alice, bob, 8)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    q = connection.ops.quote_name
    wanted = {
        "the lock": lambda sql: sql.startswith("SELECT") and "FOR UPDATE" in sql,
        "the tail": lambda sql: sql.startswith("SELECT") and f"FROM {q('games_move')}" in sql,
        "the log row": lambda sql: sql.startswith(f"INSERT INTO {q('games_move')}"),
        "the update": lambda sql: sql.startswith(f"UPDATE {q('games_game')}"),
    }
    missing = [name for name, is_it in wanted.items() if not any(map(is_it, prepared))]
    assert not missing, (missing, prepared)


def _needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("psycopg's pipeline mode is PostgreSQL's; SQLite runs statements in-process")


@pytest.mark.django_db(transaction=True)
def test_in_a_real_transaction_a_reused_id_still_answers_the_earlier_move(
    alice, human_starts
) -> None:
    """Outside a test's wrapping transaction: the insert of a reused move id fails when the
    pipelined writes run, the transaction rolls back, the pipeline is closed, and the earlier
    move answers; the game plays on."""
    _needs_postgresql()
    game = current_game(human_starts(alice))
    first = a_center_move(game)
    assert first is not None  # a center move keeps the turn
    one = services.game_play_move(
        game_id=game.pk, user=alice, move=first, version=0, move_id="same"
    )
    assert not connection.connection.pgconn.pipeline_status
    game = Game.objects.get(pk=game.pk)
    assert (game.version, game.moves.count(), game.to_move) == (1, 1, 0)

    again = services.game_play_move(
        game_id=game.pk, user=alice, move=legal(game, 0)[0], version=1, move_id="same"
    )
    assert again.replayed and (again.version, again.move) == (one.version, first)
    assert not connection.connection.pgconn.pipeline_status
    game = Game.objects.get(pk=game.pk)
    assert (game.version, game.moves.count()) == (1, 1)
    services.game_play_move(
        game_id=game.pk, user=alice, move=legal(game, 0)[0], version=1, move_id="next"
    )
    assert Game.objects.get(pk=game.pk).version >= 2


@pytest.mark.django_db(transaction=True)
def test_the_hooks_after_a_real_commit_reach_the_database(alice, human_starts) -> None:
    """The inline bot runner plays in an on-commit hook (ORM reads and writes): no pipeline is
    open by then, so the bot's whole turn applies."""
    _needs_postgresql()
    game = current_game(human_starts(alice))
    for i in range(40):  # play until the person's turn passes to the bot, which then plays
        game = Game.objects.get(pk=game.pk)
        if not game.is_active or game.to_move != 0:
            break
        services.game_play_move(
            game_id=game.pk, user=alice, move=legal(game, 0)[-1], version=game.version,
            move_id=f"h{i}",
        )  # fmt: skip
    game = Game.objects.get(pk=game.pk)
    bot_rows = game.moves.filter(seat=1).count()
    assert bot_rows > 0 and (not game.is_active or game.to_move == 0)
    assert not connection.connection.pgconn.pipeline_status
