"""The row lock every game action starts with, written out as SQL once per database.

``Game.objects.select_for_update(of=("self", "match")).select_related("match", "match__user0",
"match__user1").get(pk=…)`` gives the same objects, but compiling that query took longer than
running it: 3.1 ms against 0.9 ms on PostgreSQL here (bench/profile_move.py), on every move,
in the one thread that does a server process's database work. The SQL is built from the
models' fields when first needed, and each value goes through the fields' own converters and
``Model.from_db``, as the ORM does, so a field added to a model is read with no change here
(``tests/games/test_lock.py`` compares the two on every field).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from games.models import Game, Match


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
        return self.model.from_db(connection.alias, self.attnames, converted)


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
