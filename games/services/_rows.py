"""A move's rows written out as SQL: the lock, the log row, the game's update.

On every move, in the one thread that does a server process's database work, the ORM spent
longer compiling these queries than the database spent running them: the lock with its
select_related 3.1 ms against 0.9 ms on PostgreSQL here (bench/profile_move.py). The SQL is
built from the models' fields when first needed; values go through the fields' own converters
and ``Model.from_db`` (reading) and ``get_db_prep_save`` (writing), as the ORM does, so a field
added to a model needs no change here. ``tests/games/test_rows.py`` compares each with the ORM.

On PostgreSQL a move's statements travel together (psycopg's pipeline mode, ``pipelined``): the
transaction's BEGIN, the lock and the log's tail in one round trip, the log row and the game's
update in another, then the COMMIT: three round trips where there were six. Under load each
round trip also costs the database thread a wait for the GIL, so they are the move's largest
cost beside the work itself (docs/performance.md).

A move on a snapshot of the game (``games.services._snapshots``) needs no lock and no read: its
log row and update go out as one statement that applies only if the game and match rows are
still as the snapshot read them (``RowWrites.run_if_unchanged``): one round trip in all.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from games.models import Game, Match, Move
from games.selectors.frames import log_tail_query, log_tail_read

#: Where ``game_row_lock`` keeps the values it read, for ``game_row_save`` to compare.
_LOADED = "_rows_loaded"
#: Where ``game_row_lock(..., log_tail=True)`` keeps the log's tail it read with the lock.
_LOG_TAIL = "_rows_log_tail"


@contextmanager
def pipelined() -> Iterator[None]:
    """Statements executed inside go to PostgreSQL together and are answered in one round trip
    when the block ends (psycopg's pipeline mode): read their results after the block. An
    error of any of them is raised at the end of the block, as Django's exception. Elsewhere
    (SQLite) statements simply run one by one."""
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def statement_cursor() -> Any:
    """A cursor for this module's statements. On PostgreSQL it binds parameters on the server,
    so psycopg prepares each statement once a connection has run it a few times
    (``prepare_threshold``): planning the lock cost more than running it. Django's own cursors
    bind on the client, which never prepares. Wrapped as ``connection.cursor()`` wraps
    its cursors (errors translated, queries logged when Django logs them)."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.validate_thread_sharing()
    connection.ensure_connection()
    raw = ServerBindingCursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


class RowWrites:
    """A move's writes, which need no answer: its log row (``move_row_insert``) and the game's
    changed fields (``game_row_save``), queued, then sent together: ``run`` (two statements in
    one round trip on PostgreSQL) or ``run_if_unchanged`` (one statement, on PostgreSQL)."""

    def __init__(self) -> None:
        self.insert: list[Any] | None = None  # the log row's parameters
        self.update: _GameUpdate | None = None

    def run(self) -> None:
        """Send the queued writes (the log row first), inside the caller's transaction."""
        statements = []
        if self.insert is not None:
            statements.append((_insert_sql(connection.vendor)[0], self.insert))
        if self.update is not None:
            statements.append(self.update.statement())
        self.insert = self.update = None
        if not statements:
            return
        with statement_cursor() as cursor, pipelined():
            for sql, params in statements:
                cursor.execute(sql, params)

    def run_if_unchanged(self) -> bool:
        """Write the log row and the game's update as one statement (PostgreSQL) that applies
        only if the game row still holds the version, status, turn deadline and state it was
        read with, and its match the status and ``updated_at`` in memory (every change of a
        match goes through ``save()``, which stamps ``updated_at``). True if it applied; False
        if either row had changed, and then nothing was written. Outside a transaction the
        statement is its own (one round trip); in one, a savepoint keeps a failure from
        spoiling it. IntegrityError as ``run`` (a move id used before)."""
        insert, update = self.insert, self.update
        self.insert = self.update = None
        if insert is None or update is None:
            raise ValueError("run_if_unchanged writes one log row and one game update")
        sql, params = update.guarded_insert(insert)
        savepoint = transaction.atomic() if connection.in_atomic_block else nullcontext()
        with savepoint, statement_cursor() as cursor:
            cursor.execute(sql, params)
            return bool(cursor.rowcount == 1)


@dataclass(frozen=True)
class _GameUpdate:
    """The game's changed fields, and the row as it was read (for ``run_if_unchanged``)."""

    game: Game
    fields: list[Any]
    params: list[Any]
    read: dict[str, Any]  # attname -> value as read, before this change

    def statement(self) -> tuple[str, list[Any]]:
        return _update_sql(connection.vendor, self._columns()), [*self.params, self.game.pk]

    def guarded_insert(self, insert: list[Any]) -> tuple[str, list[Any]]:
        """``WITH changed AS (UPDATE … WHERE <the rows are as read> RETURNING 1) INSERT …
        SELECT … FROM changed``: the log row is inserted only if the update applied."""
        if connection.vendor != "postgresql":
            raise NotImplementedError("a guarded move is PostgreSQL's (a data-modifying WITH)")
        match = self.game.match
        updated_at = Match._meta.get_field("updated_at")
        params = [
            *self.params,
            self.game.pk,
            *(f.get_db_prep_save(self.read[f.attname], connection) for f in _guard_fields()),
            match.pk,
            match.status,
            updated_at.get_db_prep_save(match.updated_at, connection),
            *insert,
        ]
        return _guarded_sql(connection.vendor, self._columns()), params

    def _columns(self) -> tuple[str, ...]:
        return tuple(f.column for f in self.fields)


def _set_clause(columns: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    return ", ".join(f"{q(column)} = %s" for column in columns)


@lru_cache(maxsize=64)
def _update_sql(vendor: str, columns: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    table, pk = q(Game._meta.db_table), q(Game._meta.pk.column)
    return f"UPDATE {table} SET {_set_clause(columns)} WHERE {pk} = %s"


@lru_cache(maxsize=64)
def _guarded_sql(vendor: str, columns: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    game, match = Game._meta, Match._meta
    insert_head, marks = _insert_parts(vendor)
    return (
        f"WITH changed AS (UPDATE {q(game.db_table)} SET {_set_clause(columns)}"
        f" WHERE {q(game.pk.column)} = %s"
        + "".join(f" AND {q(f.column)} IS NOT DISTINCT FROM %s" for f in _guard_fields())
        + f" AND EXISTS (SELECT 1 FROM {q(match.db_table)} WHERE {q(match.pk.column)} = %s"
        f" AND {q(match.get_field('status').column)} = %s"
        f" AND {q(match.get_field('updated_at').column)} = %s)"
        f" RETURNING 1) {insert_head} SELECT {marks} FROM changed"
    )


@cache
def _guard_fields() -> tuple[Any, ...]:
    return tuple(Game._meta.get_field(name) for name in _GAME_GUARD)


#: The game's columns a move on a snapshot must find as the snapshot read them: whatever
#: changes a game bumps ``version``, except the turn clock's deadline, which is checked too.
_GAME_GUARD = ("version", "status", "turn_deadline", "state")


@dataclass(frozen=True)
class _Table:
    model: type[Model]
    alias: str
    attnames: list[str]
    pk_index: int
    converters: list[list[Any]]  # per column: the backend's converters, then the field's
    expressions: list[Any]

    def read(self, values: tuple[Any, ...]) -> Model:
        converted = []
        for value, converters, expression in zip(
            values, self.converters, self.expressions, strict=True
        ):
            for convert in converters:
                value = convert(value, expression, connection)
            converted.append(value)
        instance = self.model.from_db(connection.alias, self.attnames, converted)
        setattr(instance, _LOADED, dict(zip(self.attnames, converted, strict=True)))
        return instance


def _table(model: type[Model], alias: str) -> _Table:
    fields = model._meta.concrete_fields
    expressions = [field.get_col(alias) for field in fields]
    converters = [
        connection.ops.get_db_converters(expression) + field.get_db_converters(connection)
        for field, expression in zip(fields, expressions, strict=True)
    ]
    attnames = [f.attname for f in fields]
    pk_index = attnames.index(model._meta.pk.attname)
    return _Table(model, alias, attnames, pk_index, converters, expressions)


@cache
def _plan(vendor: str, lock: bool) -> tuple[str, list[_Table]]:
    """The SELECT (… FOR UPDATE if ``lock``) and the tables its columns come from, in order."""
    user = Match._meta.get_field("user0").related_model
    tables = [_table(Game, "g"), _table(Match, "m"), _table(user, "u0"), _table(user, "u1")]
    q = connection.ops.quote_name
    columns = ", ".join(
        f"{t.alias}.{q(field.column)}" for t in tables for field in t.model._meta.concrete_fields
    )

    def column(model: type[Model], name: str) -> str:
        field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        return q(field.column)

    users = q(user._meta.db_table)
    sql = (
        f"SELECT {columns} FROM {q(Game._meta.db_table)} g"
        f" INNER JOIN {q(Match._meta.db_table)} m"
        f" ON m.{column(Match, 'pk')} = g.{column(Game, 'match')}"
        f" LEFT OUTER JOIN {users} u0 ON u0.{column(user, 'pk')} = m.{column(Match, 'user0')}"
        f" LEFT OUTER JOIN {users} u1 ON u1.{column(user, 'pk')} = m.{column(Match, 'user1')}"
        f" WHERE g.{column(Game, 'pk')} = %s"
    )
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE"
        if connection.features.has_select_for_update_of:
            sql += " OF g, m"  # seated users are read, not locked
    return sql, tables


def game_row_lock(game_id: int, *, log_tail: bool = False) -> Game | None:
    """Game ``game_id`` with its match and seated users, the game and match rows locked until
    the transaction ends; None if there is no such game. With ``log_tail``, the log's latest
    rows are read in the same round trip, after the lock is held (so no move can come between)
    and kept for ``prefetched_log_tail``."""
    return _game_row(game_id, log_tail=log_tail, lock=True)


def game_row_read(game_id: int) -> Game | None:
    """What ``game_row_lock(game_id, log_tail=True)`` reads, without a lock or a transaction
    (one round trip): for a snapshot (``games.services._snapshots``), which a move trusts only
    as far as ``RowWrites.run_if_unchanged`` finds the rows unchanged. A move committed between
    the row and the tail is caught there too: the row read is then older than the database's."""
    return _game_row(game_id, log_tail=True, lock=False)


def _game_row(game_id: int, *, log_tail: bool, lock: bool) -> Game | None:
    sql, tables = _plan(connection.vendor, lock)
    with statement_cursor() as cursor, statement_cursor() as tail_cursor:
        with pipelined():
            cursor.execute(sql, [game_id])
            if log_tail:
                tail_cursor.execute(*log_tail_query(game_id))
        row = cursor.fetchone()
        tail = log_tail_read(tail_cursor.fetchall()) if log_tail else None
    if row is None:
        return None
    parts, start = [], 0
    for table in tables:
        end = start + len(table.attnames)
        parts.append(row[start:end])
        start = end
    game, match = tables[0].read(parts[0]), tables[1].read(parts[1])
    for seat, (table, values) in enumerate(zip(tables[2:], parts[2:], strict=True)):
        user = table.read(values) if values[table.pk_index] is not None else None
        setattr(match, f"user{seat}", user)
    game.match = match
    if tail is not None:
        setattr(game, _LOG_TAIL, tail)
    return game


def prefetched_log_tail(game: Game) -> list[dict[str, Any]] | None:
    """The log's tail ``game_row_lock(..., log_tail=True)`` read with ``game``, handed out once
    (the caller extends it as it adds rows); None if it read none."""
    tail: list[dict[str, Any]] | None = getattr(game, _LOG_TAIL, None)
    if tail is not None:
        delattr(game, _LOG_TAIL)
    return tail


def game_row_save(game: Game, *, writes: RowWrites | None = None) -> None:
    """Write the fields of ``game`` that changed since ``game_row_lock`` read it (none: no
    query); queued on ``writes`` if given, else now. A game not read by the lock is saved whole,
    now."""
    loaded = getattr(game, _LOADED, None)
    if loaded is None:
        game.save()
        return
    fields = [
        f for f in Game._meta.concrete_fields if not f.primary_key
        and getattr(game, f.attname) != loaded[f.attname]
    ]  # fmt: skip
    if not fields:
        return
    params = [f.get_db_prep_save(getattr(game, f.attname), connection) for f in fields]
    update = _GameUpdate(game, fields, params, dict(loaded))
    if writes is not None:
        writes.update = update
    else:
        with statement_cursor() as cursor:
            cursor.execute(*update.statement())
    loaded.update({f.attname: getattr(game, f.attname) for f in fields})


def game_row_loaded(game: Game) -> dict[str, Any] | None:
    """The values of ``game``'s fields as last read or written here (``game_row_lock``,
    ``game_row_save``), or None for a game read otherwise."""
    loaded: dict[str, Any] | None = getattr(game, _LOADED, None)
    return loaded


def game_row_copy(game: Game, *, log_tail: list[dict[str, Any]]) -> Game:
    """A copy of ``game`` to change, as read here (its record of what was read copied too),
    with ``log_tail`` for ``prefetched_log_tail``; it shares the match and users, which the
    caller must not change."""
    copied = copy.copy(game)  # Django's Model copies its _state and cached relations
    setattr(copied, _LOADED, dict(getattr(game, _LOADED)))
    setattr(copied, _LOG_TAIL, log_tail)
    return copied


@cache
def _insert_sql(vendor: str) -> tuple[str, list[Any]]:
    head, marks = _insert_parts(vendor)
    return f"{head} VALUES ({marks})", _insert_fields()


@cache
def _insert_parts(vendor: str) -> tuple[str, str]:
    """``INSERT INTO <log> (<columns>)`` and the ``%s`` marks of its values."""
    fields = _insert_fields()
    q = connection.ops.quote_name
    columns = ", ".join(q(f.column) for f in fields)
    return f"INSERT INTO {q(Move._meta.db_table)} ({columns})", ", ".join("%s" for _ in fields)


def _insert_fields() -> list[Any]:
    return [f for f in Move._meta.concrete_fields if not f.primary_key]


def move_row_insert(*, writes: RowWrites | None = None, **values: Any) -> None:
    """Insert one Move row: ``values`` by attname (``game_id``, ``ply``, …); fields left out
    take their defaults (``auto_now_add``: now). Queued on ``writes`` if given, else now.
    Raises IntegrityError as ``create`` would (when ``writes`` runs, if queued)."""
    sql, fields = _insert_sql(connection.vendor)
    now = timezone.now()
    params = []
    for field in fields:
        if field.attname in values:
            value = values[field.attname]
        elif getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
            value = now
        else:
            value = field.get_default()
        params.append(field.get_db_prep_save(value, connection))
    if writes is not None:
        writes.insert = params
        return
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
