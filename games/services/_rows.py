"""A move's rows written out as SQL: the lock, the log row, the game's update.

On every move, in the one thread that does a server process's database work, the ORM spent
longer compiling these queries than the database spent running them: the lock with its
select_related 3.1 ms against 0.9 ms on PostgreSQL here (bench/profile_move.py). The SQL is
built from the models' fields when first needed; values go through the fields' own converters
and ``Model.from_db`` (reading) and ``get_db_prep_save`` (writing), as the ORM does, so a field
added to a model needs no change here. ``tests/games/test_rows.py`` compares each with the ORM.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model
from django.utils import timezone

from games.models import Game, Match, Move

#: Where ``game_row_lock`` keeps the values it read, for ``game_row_save`` to compare.
_LOADED = "_rows_loaded"


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


def game_row_lock(game_id: int) -> Game | None:
    """Game ``game_id`` with its match and seated users, the game and match rows locked until
    the transaction ends; None if there is no such game."""
    sql, tables = _plan(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
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
    return game


def game_row_save(game: Game) -> None:
    """Write the fields of ``game`` that changed since ``game_row_lock`` read it (none: no
    query). A game not read by the lock is saved whole."""
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
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(Game._meta.db_table)} SET {sets} WHERE {q(Game._meta.pk.column)} = %s",
            [*params, game.pk],
        )
    loaded.update({f.attname: getattr(game, f.attname) for f in fields})


@cache
def _insert_sql(vendor: str) -> tuple[str, list[Any]]:
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    q = connection.ops.quote_name
    columns = ", ".join(q(f.column) for f in fields)
    marks = ", ".join("%s" for _ in fields)
    return f"INSERT INTO {q(Move._meta.db_table)} ({columns}) VALUES ({marks})", fields


def move_row_insert(**values: Any) -> None:
    """Insert one Move row: ``values`` by attname (``game_id``, ``ply``, …); fields left out
    take their defaults (``auto_now_add``: now). Raises IntegrityError as ``create`` would."""
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
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
