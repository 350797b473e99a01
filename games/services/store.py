"""A change's rows, written out as SQL: the locked read of a game and the write of its move.

Every change of a game (a move, an undo, a resignation, a timeout) starts with ``row_lock``: the
game and match rows locked until the transaction ends, the seated users and the log's latest
rows read along, all in one round trip with the transaction's BEGIN. It returns a ``GameRow``,
the one value the service works on; ``row_write`` then sends the change's log row and the
game's changed fields in one more round trip. Nothing is kept on the model instances.

Why SQL and not the ORM: a move runs these on the one thread that does a server process's
database work, and compiling them through the ORM cost more than running them. On PostgreSQL the
statements travel together (psycopg's pipeline mode) and bind on the server, so PostgreSQL
prepares them (docs/performance.md). Values go through the fields' own converters and
``Model.from_db`` (reading) and ``get_db_prep_save`` (writing) as the ORM does, so a field added
to a model needs no change here; ``tests/games/test_store.py`` compares each with the ORM.
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


@dataclass(slots=True)
class GameRow:
    """A game locked for a change, and what the change needs beside it.

    ``game.match`` is the locked match, its seated users read along. ``log_tail`` is the log's
    latest rows, oldest first (the change's own row is appended by ``log_append``).
    ``to_move_before`` is the seat that was to move when the row was locked (the frames tell
    from it whether the turn passed). ``read`` holds the game's field values as last read or
    written, so ``row_write`` sends only what changed."""

    game: Game
    log_tail: list[dict[str, Any]]
    to_move_before: int
    read: dict[str, Any]
    new_log_row: list[Any] | None = None  # queued by log_append, sent by row_write

    @property
    def match(self) -> Match:
        return self.game.match


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
    (``prepare_threshold``); Django's own cursors bind on the client, which never prepares.
    Wrapped as ``connection.cursor()`` wraps its cursors (errors translated, queries logged when
    Django logs them)."""
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.validate_thread_sharing()
    connection.ensure_connection()
    raw = ServerBindingCursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(raw)
    return connection.make_cursor(raw)


def row_lock(game_id: int) -> GameRow | None:
    """Game ``game_id`` with its match and seated users, the game and match rows locked until
    the transaction ends (PostgreSQL locks no nullable side of an outer join, so the users are
    read, not locked), and the log's tail read after the lock is held, so no move comes
    between; None if there is no such game."""
    sql, tables = _lock_plan(connection.vendor)
    with statement_cursor() as cursor, statement_cursor() as tail_cursor:
        with pipelined():
            cursor.execute(sql, [game_id])
            tail_cursor.execute(*log_tail_query(game_id))
        row = cursor.fetchone()
        tail = log_tail_read(tail_cursor.fetchall())
    if row is None:
        return None
    parts, start = [], 0
    for table in tables:
        end = start + len(table.attnames)
        parts.append(row[start:end])
        start = end
    (game, read), (match, _) = tables[0].read(parts[0]), tables[1].read(parts[1])
    for seat, (table, values) in enumerate(zip(tables[2:], parts[2:], strict=True)):
        user = table.read(values)[0] if values[table.pk_index] is not None else None
        setattr(match, f"user{seat}", user)
    game.match = match
    return GameRow(game=game, log_tail=tail, to_move_before=game.to_move, read=read)


def log_append(
    row: GameRow,
    *,
    seat: int,
    text: str,
    kind: str = Move.Kind.MOVE,
    undoes: int = 0,
    client_move_id: str = "",
) -> list[dict[str, Any]]:
    """Queue a row of the game's log for ``row_write``, produced at ``row.game.version`` (bump it
    first), at the next ply: rows are numbered 0, 1, … whatever they are, so after an undo the
    ply runs ahead of the engine's (which counts moves in force). Returns the log's latest rows
    ending with the new one (what the frames show)."""
    ply = row.log_tail[-1]["ply"] + 1 if row.log_tail else 0
    row.new_log_row = _log_row_params(
        game_id=row.game.pk,
        ply=ply,
        seat=seat,
        kind=kind,
        text=text,
        undoes=undoes,
        client_move_id=client_move_id,
        version=row.game.version,
    )
    row.log_tail.append({"ply": ply, "seat": seat, "kind": kind, "text": text, "undoes": undoes})
    return row.log_tail


def row_write(row: GameRow) -> None:
    """Send the queued log row (``log_append``) and the game's fields that changed since the
    row was read, in one round trip, inside the caller's transaction. Raises IntegrityError
    as ``create`` would (a client move id used before)."""
    game = row.game
    fields = [
        f for f in Game._meta.concrete_fields if not f.primary_key
        and getattr(game, f.attname) != row.read[f.attname]
    ]  # fmt: skip
    statements = []
    if row.new_log_row is not None:
        statements.append((_insert_sql(connection.vendor), row.new_log_row))
        row.new_log_row = None
    if fields:
        params = [f.get_db_prep_save(getattr(game, f.attname), connection) for f in fields]
        columns = tuple(f.column for f in fields)
        statements.append((_update_sql(connection.vendor, columns), [*params, game.pk]))
    if not statements:
        return
    with statement_cursor() as cursor, pipelined():
        for sql, params in statements:
            cursor.execute(sql, params)
    row.read.update({f.attname: getattr(game, f.attname) for f in fields})


# --- the statements, built from the models' fields when first needed ---------------------------


@dataclass(frozen=True)
class _Table:
    model: type[Model]
    alias: str
    attnames: list[str]
    pk_index: int
    converters: list[list[Any]]  # per column: the backend's converters, then the field's
    expressions: list[Any]

    def read(self, values: tuple[Any, ...]) -> tuple[Model, dict[str, Any]]:
        """The instance, and its field values by attname."""
        converted = []
        for value, converters, expression in zip(
            values, self.converters, self.expressions, strict=True
        ):
            for convert in converters:
                value = convert(value, expression, connection)
            converted.append(value)
        instance = self.model.from_db(connection.alias, self.attnames, converted)
        return instance, dict(zip(self.attnames, converted, strict=True))


def _table(model: type[Model], alias: str) -> _Table:
    fields = model._meta.concrete_fields
    expressions = [f.get_col(alias) for f in fields]
    converters = [
        connection.ops.get_db_converters(expression) + f.get_db_converters(connection)
        for f, expression in zip(fields, expressions, strict=True)
    ]
    attnames = [f.attname for f in fields]
    pk_index = attnames.index(model._meta.pk.attname)
    return _Table(model, alias, attnames, pk_index, converters, expressions)


@cache
def _lock_plan(vendor: str) -> tuple[str, list[_Table]]:
    """The SELECT … FOR UPDATE and the tables its columns come from, in order."""
    user = Match._meta.get_field("user0").related_model
    tables = [_table(Game, "g"), _table(Match, "m"), _table(user, "u0"), _table(user, "u1")]
    q = connection.ops.quote_name
    columns = ", ".join(
        f"{t.alias}.{q(f.column)}" for t in tables for f in t.model._meta.concrete_fields
    )

    def column(model: type[Model], name: str) -> str:
        f = model._meta.pk if name == "pk" else model._meta.get_field(name)
        return q(f.column)

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


@cache
def _update_sql(vendor: str, columns: tuple[str, ...]) -> str:
    q = connection.ops.quote_name
    table, pk = q(Game._meta.db_table), q(Game._meta.pk.column)
    assignments = ", ".join(f"{q(column)} = %s" for column in columns)
    return f"UPDATE {table} SET {assignments} WHERE {pk} = %s"


def _insert_fields() -> list[Any]:
    return [f for f in Move._meta.concrete_fields if not f.primary_key]


@cache
def _insert_sql(vendor: str) -> str:
    q = connection.ops.quote_name
    fields = _insert_fields()
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join("%s" for _ in fields)
    return f"INSERT INTO {q(Move._meta.db_table)} ({columns}) VALUES ({marks})"


def _log_row_params(**values: Any) -> list[Any]:
    """One Move row's parameters: ``values`` by attname; fields left out take their defaults
    (``auto_now_add``: now)."""
    now = timezone.now()
    params = []
    for f in _insert_fields():
        if f.attname in values:
            value = values[f.attname]
        elif getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False):
            value = now
        else:
            value = f.get_default()
        params.append(f.get_db_prep_save(value, connection))
    return params
