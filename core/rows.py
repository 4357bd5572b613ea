"""Whole model rows read and written in one plain statement, for the hottest paths.

Building a query through the ORM costs more CPU than PostgreSQL spends running it (about
a millisecond for a row with its joins, against a tenth of that for the same statement as
text). The few statements every live action runs are therefore written out here once, and
their rows made into model instances the way the ORM makes them (``Model.from_db``, each
field's ``from_db_value``); what they write goes through each field's
``get_db_prep_save``, as ``Model.save`` would. They run on SQLite as on PostgreSQL.

``remember`` notes a row's values as read; ``save_changed`` then writes only the columns
that changed since, in one ``UPDATE``: a column another statement wrote meanwhile (an
``UPDATE`` with ``F()``) is left alone unless this object changed it too.
``prepared_cursor`` runs a hot statement that PostgreSQL plans once per connection.

Within ``written_together`` (PostgreSQL), what ``insert`` and ``save_changed`` write is held
and sent with the next statement, or at the block's end, in one round trip: an action's log
row, its game and its match travel together.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models.base import ModelState
from django.db.models.expressions import RawSQL
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

from core.bulk import PLAIN, column_source, prepared

Row = TypeVar("Row", bound=models.Model)

_LOADED = "_loaded_values"
_MUTABLE = (dict, list)
# The ORM's descriptors of a field's value: they keep it in the instance's ``__dict__``.
_PLAIN_DESCRIPTORS = (DeferredAttribute, ForeignKeyDeferredAttribute)


@dataclass(frozen=True, eq=False)
class Columns:
    """The concrete columns of ``model`` under a table alias, in a SELECT list."""

    model: type[models.Model]
    alias: str
    fields: tuple[models.Field[Any, Any], ...]

    @property
    def sql(self) -> str:
        name = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{name(field.column)}" for field in self.fields)

    @cached_property
    def converters(self) -> tuple[tuple[int, Any, tuple[Any, ...]], ...]:
        """Per column that needs it, the converters the ORM would apply: the database
        backend's (SQLite's dates, say), then the field's own (``from_db_value``)."""
        found = []
        for index, field in enumerate(self.fields):
            expression = field.get_col(self.alias)
            chain = tuple(
                connection.ops.get_db_converters(expression)
                + expression.get_db_converters(connection)
            )
            if chain:
                found.append((index, expression, chain))
        return tuple(found)

    @cached_property
    def attnames(self) -> tuple[str, ...]:
        return tuple(field.attname for field in self.fields)

    def build(self, values: Sequence[Any]) -> models.Model:
        """The instance these columns' ``values`` make, remembered for ``save_changed``.

        Made as ``Model.from_db`` makes it from a full row (each value set on its attribute,
        the row marked as read from this database), without the per-field work of the
        model's ``__init__`` where nothing would notice: no ``pre_init`` or ``post_init``
        receiver for the model, and the values of plain attributes stored as they are
        (those whose field type sets them through a descriptor of its own still are).
        """
        database = _default()
        converted = list(values)
        for index, expression, chain in self.converters:
            for convert in chain:
                converted[index] = convert(converted[index], expression, database)
        model = self.model
        if (
            pre_init.has_listeners(model)
            or post_init.has_listeners(model)
            or len(converted) != len(model._meta.concrete_fields)
        ):
            return remember(model.from_db(database.alias, list(self.attnames), converted))
        row = model.__new__(model)
        state = row._state = ModelState()
        state.adding = False
        state.db = database.alias
        row.__dict__.update(zip(self.attnames, converted, strict=True))
        for name in _attributes(model)[1]:
            setattr(row, name, row.__dict__.pop(name))
        return remember(row)


@cache
def columns(model: type[models.Model], alias: str) -> Columns:
    return Columns(model, alias, tuple(model._meta.concrete_fields))


def _default() -> Any:
    """The default database's connection of this thread, looked up once: every attribute
    read through ``django.db.connection`` looks it up again."""
    return connections[DEFAULT_DB_ALIAS]


def table(model: type[models.Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def column(model: type[models.Model], field_name: str) -> str:
    field = model._meta.get_field(field_name)
    assert isinstance(field, models.Field)
    assert field.column
    return connection.ops.quote_name(field.column)


@cache
def _attributes(model: type[models.Model]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The attribute names of ``model``'s concrete fields: those kept in the instance's
    ``__dict__`` as they are (the ORM's own descriptors), and those a field type reads or
    sets through a descriptor of its own."""
    plain: list[str] = []
    through: list[str] = []
    for field in model._meta.concrete_fields:
        descriptor = inspect.getattr_static(model, field.attname, None)
        (plain if type(descriptor) in _PLAIN_DESCRIPTORS else through).append(field.attname)
    return tuple(plain), tuple(through)


@cache
def _compared(model: type[models.Model]) -> tuple[tuple[models.Field[Any, Any], str, bool], ...]:
    """The fields ``save_changed`` compares (all concrete ones but the key), each with its
    attribute's name and whether it is plain (``_attributes``): read from ``__dict__``."""
    plain = set(_attributes(model)[0])
    return tuple(
        (field, field.attname, field.attname in plain)
        for field in model._meta.concrete_fields
        if not field.primary_key
    )


def remember(row: Row) -> Row:
    """Note ``row``'s values as they are, so ``save_changed`` writes only later changes."""
    plain, through = _attributes(type(row))
    data = row.__dict__
    values = {name: data[name] if name in data else getattr(row, name) for name in plain}
    for name in through:
        values[name] = getattr(row, name)
    for name, value in values.items():
        if isinstance(value, _MUTABLE):
            values[name] = copy.deepcopy(value)
    setattr(row, _LOADED, values)
    return row


def save_changed(row: models.Model) -> None:
    """Write the columns of ``row`` that changed since ``remember``, in one ``UPDATE``; the
    whole row through ``save()`` when it was never remembered (a new row, say)."""
    loaded: dict[str, Any] | None = getattr(row, _LOADED, None)
    if loaded is None:
        row.save()
        remember(row)
        return
    data = row.__dict__
    changed = [
        field
        for field, name, plain in _compared(type(row))
        if (data[name] if plain and name in data else getattr(row, name)) != loaded[name]
    ]
    if not changed:
        return
    database = _default()
    name = database.ops.quote_name
    assignments = ", ".join(f"{name(field.column)} = %s" for field in changed)
    values = [field.get_db_prep_save(getattr(row, field.attname), database) for field in changed]
    primary = row._meta.pk
    assert primary is not None
    gone = f"{type(row).__name__} {row.pk} is gone"

    def updated(cursor: Any) -> None:
        if cursor.rowcount != 1:
            raise models.ObjectDoesNotExist(gone)

    _write(
        f"UPDATE {table(type(row))} SET {assignments} WHERE {name(primary.column)} = %s",  # noqa: S608
        [*values, row.pk],
        updated,
    )
    for field in changed:  # the rest is as remembered
        value = getattr(row, field.attname)
        loaded[field.attname] = copy.deepcopy(value) if isinstance(value, _MUTABLE) else value


def insert(row: Row) -> Row:
    """Insert a new ``row`` in one statement, as ``save()`` would (defaults, ``auto_now_add``),
    and set its primary key (within ``written_together``, once the statement is sent)."""
    primary = row._meta.pk
    assert primary is not None
    database = _default()
    if not database.features.can_return_columns_from_insert or row.pk is not None:
        row.save(force_insert=True)
        return row
    fields = [field for field in row._meta.concrete_fields if field is not primary]
    name = database.ops.quote_name
    values = [field.get_db_prep_save(field.pre_save(row, True), database) for field in fields]
    sql = (
        f"INSERT INTO {table(type(row))} ({', '.join(name(f.column) for f in fields)})"  # noqa: S608
        f" VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {name(primary.column)}"
    )

    def inserted(cursor: Any) -> None:
        (key,) = cursor.fetchone()
        setattr(row, primary.attname, key)

    row._state.adding = False
    row._state.db = database.alias
    _write(sql, values, inserted)
    return row


def insert_many(new_rows: Sequence[models.Model]) -> None:
    """Insert new rows of one model, setting their keys, as ``bulk_create`` does but in one
    statement however many, and without its per-value query building (which costs more than
    the database's work): on PostgreSQL each column travels as one JSON array taken apart
    into rows (``core.bulk``). A foreign key to a row saved since the object was made is
    taken from that row."""
    if not new_rows:
        return
    model = type(new_rows[0])
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(new_rows)
        return
    primary = model._meta.pk
    assert primary is not None
    fields = [field for field in model._meta.concrete_fields if field is not primary]
    for row in new_rows:
        row._prepare_related_fields_for_save(operation_name="insert_many")  # type: ignore[attr-defined]
    name = connection.ops.quote_name
    listed = ", ".join(name(field.column) for field in fields)
    with connection.cursor() as cursor:
        source, params = column_source(
            fields, [_column_values(field, new_rows, adding=True) for field in fields]
        )
        cursor.execute(
            f"INSERT INTO {table(model)} ({listed}) {source} RETURNING {name(primary.column)}",
            params,
        )
        keys = [key for (key,) in cursor.fetchall()]
    for row, key in zip(new_rows, keys, strict=True):
        setattr(row, primary.attname, key)
        row._state.adding = False
        row._state.db = connection.alias


def update_many(saved: Sequence[models.Model], field_names: Sequence[str]) -> None:
    """Write ``field_names`` of saved rows of one model, each its own values, in one
    ``UPDATE`` from the columns sent as ``core.bulk`` sends them (``bulk_update`` on other
    databases)."""
    if not saved:
        return
    model = type(saved[0])
    if connection.vendor != "postgresql":
        model._default_manager.bulk_update(saved, field_names)
        return
    primary = model._meta.pk
    assert primary is not None
    fields = []
    for field_name in field_names:
        field = model._meta.get_field(field_name)
        assert isinstance(field, models.Field)
        fields.append(field)
    name = connection.ops.quote_name
    key = name(primary.column)
    columns = [primary, *fields]
    assignments = ", ".join(f"{name(f.column)} = v.{name(f.column)}" for f in fields)
    named = ", ".join(name(field.column) for field in columns)
    source, params = column_source(
        columns, [_column_values(field, saved, adding=False) for field in columns]
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table(model)} AS t SET {assignments}"  # noqa: S608
            f" FROM ({source}) AS v({named}) WHERE t.{key} = v.{key}",
            params,
        )


def among(values: Collection[Any], sql_type: str = "bigint") -> Any:
    """For ``field__in=among(values)``: on PostgreSQL the values travel as one array parameter
    of ``sql_type`` (a list of thousands costs more to write out and parse as placeholders
    than to look up); elsewhere the list itself."""
    if connection.vendor != "postgresql":
        return list(values)
    return RawSQL(f"SELECT unnest(%s::{sql_type}[])", [list(values)])


def _column_values(
    field: models.Field[Any, Any], of: Sequence[models.Model], *, adding: bool
) -> list[Any]:
    target = field.target_field if isinstance(field, models.ForeignKey) else field
    if isinstance(target, PLAIN) and not isinstance(field, models.JSONField):
        return [getattr(row, field.attname) for row in of]
    database = connections[connection.alias]  # once, not through the proxy for every value
    return list(prepared(field, [field.pre_save(row, adding) for row in of], database))


@contextmanager
def prepared_cursor() -> Iterator[Any]:
    """A cursor whose statements PostgreSQL keeps prepared on the connection: planned on
    their first run there, not at every run. For the statements every live action runs
    whose planning costs more than their run (the match lock with its joins: about 0.5 ms
    to plan, 0.3 ms to run). Only such fixed statements belong here: each distinct text
    is kept on every connection. Elsewhere, or with ``DB_PREPARED_STATEMENTS`` off, an
    ordinary cursor.

    psycopg forgets them at every rollback (a refused action's too) and prepares them again
    on their next run. A migration that changes the type of a column one of them returns
    fails its next run on each open connection ("cached plan must not change result
    type"), once: that transaction's rollback drops them."""
    database = connections[connection.alias]
    database.ensure_connection()
    if database.vendor != "postgresql" or database.connection.prepare_threshold is None:
        with database.cursor() as cursor:
            yield cursor
        return
    import psycopg

    with database.wrap_database_errors:
        raw = psycopg.Cursor(database.connection)
    # Wrapped as ``connection.cursor()`` wraps its own: logged, errors translated, and
    # ``execute_wrapper`` hooks run.
    wrapper = CursorDebugWrapper if database.queries_logged else CursorWrapper
    cursor = wrapper(raw, database)
    with cursor:
        yield cursor


@dataclass(frozen=True)
class _Held:
    sql: str
    params: list[Any]
    done: Callable[[Any], None]  # reads the statement's result from the cursor


_HELD = "_crawford_rows_held"


@contextmanager
def written_together() -> Iterator[None]:
    """Within the block, ``insert`` and ``save_changed`` hold their statements and send
    them ahead of the next statement the connection runs, or at the block's end: several
    writes in one round trip (PostgreSQL with client-side binding; elsewhere each is sent at
    once).

    A held insert's key is set when it is sent: a row that refers to it must be made after
    the next statement (its foreign key would be NULL). A held write's error (a row gone, a
    constraint) is raised by the statement it travels with. Use the block inside a
    transaction: when the block raises, what it holds is dropped with the rollback.
    """
    database = connections[connection.alias]
    together = (
        database.vendor == "postgresql"
        and not database.settings_dict.get("OPTIONS", {}).get("server_side_binding")
        and getattr(database, _HELD, None) is None
    )
    if not together:
        yield
        return
    assert database.in_atomic_block, "written_together needs a transaction"
    held: list[_Held] = []
    setattr(database, _HELD, held)
    try:
        with database.execute_wrapper(_send_with_held):
            yield
            if held:
                _flush(database, held)
    finally:
        setattr(database, _HELD, None)


def _write(sql: str, params: list[Any], done: Callable[[Any], None]) -> None:
    held: list[_Held] | None = getattr(connections[connection.alias], _HELD, None)
    if held is not None:
        held.append(_Held(sql, params, done))
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        done(cursor)


def _send_with_held(
    execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]
) -> Any:
    """An ``execute_wrapper``: the held statements go in front of ``sql``, in one message,
    and each reads its own result before the cursor is left on ``sql``'s."""
    held: list[_Held] | None = getattr(context["connection"], _HELD, None)
    if not held:
        return execute(sql, params, many, context)
    if many or isinstance(params, dict) or not _client_bound(context["cursor"]):
        # They cannot travel with this statement (a prepared one takes a single statement):
        # they go first, on a cursor of their own.
        _flush(context["connection"], held)
        return execute(sql, params, many, context)
    sending = list(held)
    held.clear()
    if params is None:
        sql = sql.replace("%", "%%")  # it travels with parameters now
    return _send(execute, sending, sql, list(params or ()), context)


def _flush(database: Any, held: list[_Held]) -> None:
    """Send what is held: the last statement on a new cursor, the others in front of it."""
    last = held.pop()
    with database.cursor() as cursor:
        cursor.execute(last.sql, last.params)
        last.done(cursor)


def _send(
    execute: Callable[..., Any],
    sending: list[_Held],
    sql: str,
    params: list[Any],
    context: dict[str, Any],
) -> Any:
    together = "; ".join([*(each.sql for each in sending), sql])
    values = [value for each in sending for value in each.params] + params
    result = execute(together, values, False, context)
    cursor = context["cursor"]
    for each in sending:
        each.done(cursor)
        cursor.nextset()
    return result


def _client_bound(cursor: Any) -> bool:
    """Whether the cursor writes its parameters into the text (several statements may then
    travel in one message); a prepared cursor's cannot."""
    from psycopg.client_cursor import ClientCursorMixin

    return isinstance(cursor.cursor, ClientCursorMixin)


@contextmanager
def one_snapshot() -> Iterator[None]:
    """Every statement in the block reads the database as it stood at the first one.

    A match's state is read in several statements (its row, its game, its log); under
    PostgreSQL's default READ COMMITTED, an action committed between two of them would
    mix the row from before it with the game from after it (a new game beside the old
    score). REPEATABLE READ makes them one snapshot; SQLite's transactions already are one.
    Inside a transaction already begun, the level can no longer be chosen and that
    transaction's own reads are used as they are.
    """
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield
