"""Plain SQL, with the ORM's own value conversions, for the few statements that run on every
move: the move path's storage (``games.move_store``) and the API token lookup that authenticates
each scripted move (``accounts.authentication``).

Why: on the move path the ORM spent more CPU compiling queries than PostgreSQL spent running
them (locking a game with its two players: 1.4 ms through the ORM, 0.25 ms as SQL). These helpers
keep what the ORM would do, done once per process where possible: column lists from the model's
``_meta``, values read through the same converters the ORM applies (so SQLite's datetimes come back
aware, exactly as through a queryset), and values written through ``get_db_prep_save``. Models,
migrations and every other query stay with the ORM.
"""

from __future__ import annotations

from functools import cache

from django.db import connections
from django.db.models import Model


def _quote(name: str) -> str:
    return connections["default"].ops.quote_name(name)


@cache
def columns(model: type[Model], alias: str) -> str:
    """``alias."col", ...`` for every concrete field of ``model``, in ``_meta`` order."""
    return ", ".join(f"{alias}.{_quote(f.column)}" for f in model._meta.concrete_fields)


def width(model: type[Model]) -> int:
    """How many values :func:`columns` selects."""
    return len(model._meta.concrete_fields)


@cache
def _converters(model: type[Model], vendor: str) -> tuple:
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        column, chain = _field_converters(field, vendor)
        if chain:
            found.append((index, column, chain))
    return tuple(found)


@cache
def _field_converters(field, vendor: str) -> tuple:
    connection = connections["default"]
    column = field.get_col(field.model._meta.db_table)
    chain = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
    return column, tuple(chain)


def _convert(value, column, chain, connection):
    for step in chain:
        value = step(value, column, connection)
    return value


def converter(field, *, using: str = "default"):
    """A function turning a raw database value of ``field`` into what the ORM would give."""
    connection = connections[using]
    column, chain = _field_converters(field, connection.vendor)
    if not chain:
        return _same
    return lambda value: _convert(value, column, chain, connection)


def _same(value):
    return value


def instance(model: type[Model], values, *, using: str = "default") -> Model:
    """A ``model`` instance from the values :func:`columns` selected, as a queryset builds it."""
    connection = connections[using]
    values = list(values)
    for index, column, chain in _converters(model, connection.vendor):
        values[index] = _convert(values[index], column, chain, connection)
    names = [f.attname for f in model._meta.concrete_fields]
    return model.from_db(using, names, values)


def instances(row, *models: type[Model], using: str = "default") -> list[Model]:
    """One instance per model from a row that selected :func:`columns` of each, in order."""
    built, start = [], 0
    for model in models:
        end = start + width(model)
        built.append(instance(model, row[start:end], using=using))
        start = end
    return built


@cache
def _insert_sql(model: type[Model], vendor: str) -> tuple[str, tuple]:
    fields = tuple(f for f in model._meta.concrete_fields if not f.primary_key)
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        _quote(model._meta.db_table),
        ", ".join(_quote(f.column) for f in fields),
        ", ".join(["%s"] * len(fields)),
    )
    return sql, fields


@cache
def _update_sql(model: type[Model], field_names: tuple[str, ...], vendor: str) -> tuple[str, tuple]:
    fields = tuple(model._meta.get_field(name) for name in field_names)
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        _quote(model._meta.db_table),
        ", ".join(f"{_quote(f.column)} = %s" for f in fields),
        _quote(model._meta.pk.column),
    )
    return sql, fields


def _insert_statement(obj: Model, connection) -> tuple[str, list]:
    sql, fields = _insert_sql(type(obj), connection.vendor)
    return sql, [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]


def _update_statement(obj: Model, field_names: list[str], connection) -> tuple[str, list]:
    sql, fields = _update_sql(type(obj), tuple(field_names), connection.vendor)
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    params.append(obj.pk)
    return sql, params


def insert(obj: Model, *, using: str = "default") -> None:
    """INSERT ``obj``'s concrete fields but its auto primary key; the pk stays unset."""
    connection = connections[using]
    sql, params = _insert_statement(obj, connection)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def insert_and_update(
    new: Model, obj: Model, field_names: list[str], *, using: str = "default"
) -> int:
    """:func:`insert` ``new`` and UPDATE ``field_names`` of ``obj``'s row: on PostgreSQL in one
    statement (a data-modifying ``WITH``, one round trip instead of two), elsewhere in two.
    Returns the number of rows the update changed."""
    connection = connections[using]
    insert_sql, insert_params = _insert_statement(new, connection)
    update_sql, update_params = _update_statement(obj, field_names, connection)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                f"WITH inserted AS ({insert_sql}) {update_sql}", insert_params + update_params
            )
        else:
            cursor.execute(insert_sql, insert_params)
            cursor.execute(update_sql, update_params)
        return cursor.rowcount


def update_if_then_insert(
    obj: Model,
    field_names: list[str],
    expected: dict[str, object],
    new: Model,
    *,
    using: str = "default",
) -> bool:
    """PostgreSQL only: UPDATE ``field_names`` of ``obj``'s row if its columns still hold the
    ``expected`` values (field name to value), and INSERT ``new`` only if the update did; one
    statement, so one round trip and atomic without a transaction. True if both were written.

    A compare-and-set: a concurrent writer that changed one of the ``expected`` columns first
    makes this one write nothing (under READ COMMITTED PostgreSQL waits for that writer's row
    lock, then checks the condition again on the row as it committed)."""
    connection = connections[using]
    _, update_params = _update_statement(obj, field_names, connection)
    _, insert_params = _insert_statement(new, connection)
    statement, checked = _update_if_then_insert_sql(
        type(obj), tuple(field_names), tuple(expected), type(new), using
    )
    update_params += [f.get_db_prep_save(expected[f.name], connection) for f in checked]
    with connection.cursor() as cursor:
        cursor.execute(statement, update_params + insert_params)
        return cursor.rowcount == 1


@cache
def _update_if_then_insert_sql(
    model: type[Model],
    field_names: tuple[str, ...],
    expected_names: tuple[str, ...],
    new_model: type[Model],
    using: str,
) -> tuple[str, tuple]:
    """The statement of :func:`update_if_then_insert`: :func:`_update_sql` with the expected
    columns added to its condition, and :func:`_insert_sql`'s columns filled from its row."""
    connection = connections[using]
    update_sql, _ = _update_sql(model, field_names, connection.vendor)
    _, inserted = _insert_sql(new_model, connection.vendor)
    checked = tuple(model._meta.get_field(name) for name in expected_names)
    conditions = "".join(f" AND {_quote(f.column)} = %s" for f in checked)
    insert_sql = "INSERT INTO {} ({}) SELECT {} FROM updated".format(
        _quote(new_model._meta.db_table),
        ", ".join(_quote(f.column) for f in inserted),
        ", ".join(f"CAST(%s AS {f.db_type(connection)})" for f in inserted),
    )
    return f"WITH updated AS ({update_sql}{conditions} RETURNING 1) {insert_sql}", checked
