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
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
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
    """Writes of one change that need no answer, queued and then sent together by ``run``
    (one round trip on PostgreSQL), in the order they were queued."""

    def __init__(self) -> None:
        self.statements: list[tuple[str, list[Any]]] = []

    def add(self, sql: str, params: list[Any]) -> None:
        self.statements.append((sql, params))

    def run(self) -> None:
        statements, self.statements = self.statements, []
        if not statements:
            return
        with statement_cursor() as cursor, pipelined():
            for sql, params in statements:
                cursor.execute(sql, params)


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
def _plan(vendor: str) -> tuple[str, list[_Table]]:
    """The SELECT … FOR UPDATE and the tables its columns come from, in order."""
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
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
        if connection.features.has_select_for_update_of:
            sql += " OF g, m"  # seated users are read, not locked
    return sql, tables


def game_row_lock(game_id: int, *, log_tail: bool = False) -> Game | None:
    """Game ``game_id`` with its match and seated users, the game and match rows locked until
    the transaction ends; None if there is no such game. With ``log_tail``, the log's latest
    rows are read in the same round trip, after the lock is held (so no move can come between)
    and kept for ``prefetched_log_tail``."""
    sql, tables = _plan(connection.vendor)
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
    q = connection.ops.quote_name
    sets = ", ".join(f"{q(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(getattr(game, f.attname), connection) for f in fields]
    update = f"UPDATE {q(Game._meta.db_table)} SET {sets} WHERE {q(Game._meta.pk.column)} = %s"
    _write(writes, update, [*params, game.pk])
    loaded.update({f.attname: getattr(game, f.attname) for f in fields})


@cache
def _insert_sql(vendor: str) -> tuple[str, list[Any]]:
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    q = connection.ops.quote_name
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join("%s" for _ in fields)
    return f"INSERT INTO {q(Move._meta.db_table)} ({columns}) VALUES ({marks})", fields


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
    _write(writes, sql, params)


def _write(writes: RowWrites | None, sql: str, params: list[Any]) -> None:
    if writes is not None:
        writes.add(sql, params)
        return
    with statement_cursor() as cursor:
        cursor.execute(sql, params)
