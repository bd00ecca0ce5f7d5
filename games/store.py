"""The move path's statements, written once from the models' own metadata.

Every move runs the same few statements: authenticate the token, lock the game,
insert the move, read the history, update the game, write the turn e-mail's
outbox row, list the moves for the answer.  Built by the ORM, each cost about
1 ms of CPU to compile and read back on our 2-core machine, more than PostgreSQL
took to run it (docs/performance.md).  Here their SQL is built once per process
and each call only binds parameters; values still go through the fields' own
conversions, in and out, so what is stored is exactly what ``save()`` stores.

On PostgreSQL they also run prepared (``_cursor``).  Everything else uses the ORM.
Works on SQLite too, which has no row locks: there, as with the ORM's
``select_for_update()``, its database lock serialises writers.
"""

from __future__ import annotations

from datetime import UTC
from functools import cache, lru_cache

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connection, connections

INSERT_BATCH = 500  # rows a statement: well inside PostgreSQL's and SQLite's parameter limits


def _db():
    """The default connection itself: each use of the ``connection`` proxy looks it up
    again, dozens of times a move."""
    return connections[DEFAULT_DB_ALIAS]


def _cursor(db):
    """A cursor for these statements on ``db`` (``_db()``).

    On PostgreSQL the server binds its parameters (Django's own cursors bind them
    client-side and never prepare), so psycopg prepares a statement once it has run
    ``prepare_threshold`` times on a connection (settings): PostgreSQL then no
    longer parses and plans it, more than half of its CPU for a move.  Only these
    statements, which are plain key lookups and writes: a prepared statement may
    run a generic plan, and a generic plan cannot use a partial index whose
    condition is a parameter, such as the clock sweep's ``game_due_idx``.
    """
    if db.vendor != "postgresql":
        return db.cursor()
    import psycopg

    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    cursor = psycopg.Cursor(db.connection)
    if db.timezone is UTC:
        _load_timestamps_in_c(cursor)
    return db.make_debug_cursor(cursor) if db.queries_logged else db.make_cursor(cursor)


def _load_timestamps_in_c(cursor) -> None:
    """Read ``timestamptz`` columns with psycopg's own loader, written in C.

    Django's loader is psycopg's Python one, whose result it gives Django's time
    zone; with that zone UTC, which Django also makes the session's, psycopg's own
    gives the same datetimes, UTC (``datetime.UTC``) included.  A move reads a dozen
    timestamps (token, game, players): in Python they cost it 3.5% of its instructions.
    """
    from psycopg.types.datetime import TimestamptzLoader

    cursor.adapters.register_loader("timestamptz", TimestamptzLoader)


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def _column(field, alias: str | None = None) -> str:
    name = connection.ops.quote_name(field.column)
    return f"{alias}.{name}" if alias else name


def _stored_fields(model) -> list:
    """The fields with a column the site writes (not the key, not generated)."""
    return [
        field
        for field in model._meta.concrete_fields
        if not field.primary_key and not field.generated
    ]


@cache
def _converters(model, vendor: str) -> list[tuple[int, list]]:
    """For each concrete field that needs one, the backend's and the field's converters."""
    found = []
    for index, field in enumerate(model._meta.concrete_fields):
        col = field.get_col(model._meta.db_table)
        chain = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if chain:
            found.append((index, chain))
    return found


def _instance(db, model, values: list):
    """A model instance from its concrete fields' raw values, as the ORM would build it."""
    for index, chain in _converters(model, db.vendor):
        value = values[index]
        for convert in chain:
            value = convert(value, None, db)
        values[index] = value
    return model.from_db(db.alias, None, values)


@cache
def _select_sql(model, vendor: str, where: str, related: tuple[str, ...], lock: bool) -> str:
    columns = [_column(field, "m") for field in model._meta.concrete_fields]
    joins = []
    for n, name in enumerate(related):
        field = model._meta.get_field(name)
        target = field.related_model
        alias = f"r{n}"
        columns += [_column(f, alias) for f in target._meta.concrete_fields]
        joins.append(
            f"JOIN {_table(target)} {alias} ON {alias}.{_column(target._meta.pk)} = "
            f"{_column(field, 'm')}"
        )
    sql = f"SELECT {', '.join(columns)} FROM {_table(model)} m {' '.join(joins)} WHERE {where}"
    if lock and connection.features.has_select_for_update:
        sql += " FOR UPDATE OF m" if connection.features.has_select_for_update_of else " FOR UPDATE"
    return sql


def select_one(model, where: str, params, *, related: tuple[str, ...] = (), lock=False):
    """The first row of ``model`` matching ``where`` (on alias ``m``), or None.

    ``related`` names foreign keys (not null) fetched in the same statement and
    cached on the instance; ``lock`` locks the model's row only, as
    ``select_for_update(of=("self",))``.
    """
    db = _db()
    sql = _select_sql(model, db.vendor, where, related, lock)
    with _cursor(db) as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    size = len(model._meta.concrete_fields)
    instance = _instance(db, model, list(row[:size]))
    start = size
    for name in related:
        field = model._meta.get_field(name)
        target = field.related_model
        end = start + len(target._meta.concrete_fields)
        field.set_cached_value(instance, _instance(db, target, list(row[start:end])))
        start = end
    return instance


def _prepared(db, obj, fields: list, *, adding: bool) -> list:
    return [field.get_db_prep_save(field.pre_save(obj, adding), db) for field in fields]


@lru_cache(maxsize=64)
def _insert_sql(model, vendor: str, rows: int, conflict: str | None) -> tuple[str, list]:
    fields = _stored_fields(model)
    values = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = (
        f"INSERT INTO {_table(model)} ({', '.join(_column(f) for f in fields)}) "
        f"VALUES {', '.join([values] * rows)}"
    )
    if conflict:
        sql += " ON CONFLICT DO NOTHING"
    returned = model._meta.get_field(conflict) if conflict else model._meta.pk
    return sql + f" RETURNING {_column(returned)}", fields


def insert(obj) -> None:
    """INSERT ``obj`` as ``save()`` would, and set its primary key."""
    db = _db()
    sql, fields = _insert_sql(type(obj), db.vendor, 1, None)
    with _cursor(db) as cursor:
        cursor.execute(sql, _prepared(db, obj, fields, adding=True))
        obj.pk = cursor.fetchone()[0]
    obj._state.adding = False
    obj._state.db = db.alias


def insert_new(objs: list, unique: str) -> set:
    """INSERT the rows whose ``unique`` value is not taken yet; the values written.

    A row whose value another transaction wrote first is skipped, not an error.
    The instances get no primary key.
    """
    db, written = _db(), set()
    for start in range(0, len(objs), INSERT_BATCH):
        batch = objs[start : start + INSERT_BATCH]
        sql, fields = _insert_sql(type(batch[0]), db.vendor, len(batch), unique)
        params = [value for obj in batch for value in _prepared(db, obj, fields, adding=True)]
        with _cursor(db) as cursor:
            cursor.execute(sql, params)
            written.update(value for (value,) in cursor.fetchall())
    return written


@cache
def _update_sql(model, vendor: str) -> tuple[str, list]:
    fields = _stored_fields(model)
    assignments = ", ".join(f"{_column(f)} = %s" for f in fields)
    sql = f"UPDATE {_table(model)} SET {assignments} WHERE {_column(model._meta.pk)} = %s"
    return sql, fields


def update(obj) -> None:
    """UPDATE every stored column of ``obj``'s row, as ``save()`` would."""
    db = _db()
    sql, fields = _update_sql(type(obj), db.vendor)
    with _cursor(db) as cursor:
        cursor.execute(sql, [*_prepared(db, obj, fields, adding=False), obj.pk])
        if cursor.rowcount != 1:
            raise DatabaseError(f"{type(obj).__name__} {obj.pk} is gone")


def rows(sql: str, params) -> list[tuple]:
    """A plain read, for the move path's lists (history, move texts)."""
    with _cursor(_db()) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
