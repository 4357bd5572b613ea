"""Many rows of one model written in one statement, each column sent as one JSON array.

A tournament's start writes thousands of rows at once (its matches, their games and log,
the draw's pairings, every player's notice). Sent as array parameters, each value of each
column is quoted into the array's text by psycopg in Python, one value at a time: at a
round's size that cost several times PostgreSQL's own work. Sent as JSON, a column is
written by the ``json`` module's C encoder and taken apart by PostgreSQL
(``json_array_elements_text``), each value then cast to its column's type from its text,
as an array's elements would be.

``insert_values`` inserts rows given as plain values, without making a model instance of
each: a writer that needs only their keys (a round's notices, a draw's pairings) pays
neither for ``Model.__init__`` nor for the ORM's per-value steps where they change
nothing. ``column_source`` is the encoding itself, which ``core.rows.insert_many`` and
``update_many`` use too. A value with no JSON text that its column reads back the same
(bytes, a duration) sends its statement's columns as arrays instead.
"""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from django.db import connection, connections, models
from django.db.models import NOT_PROVIDED
from django.utils import timezone
from psycopg.types.json import Json, Jsonb

# Fields whose values go to the database as they are (no conversion, no pre-save step).
PLAIN = (models.IntegerField, models.CharField, models.TextField, models.BooleanField)


def _text(value: Any) -> str:
    """The text of a prepared value that JSON has no type for, as its column reads it."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, Json | Jsonb):  # a JSON field's value, as psycopg would write it
        text = (value.dumps or json.dumps)(value.obj)
        return text.decode() if isinstance(text, bytes) else text
    raise TypeError(f"no JSON text for {type(value).__name__}")


def column_json(values: Sequence[Any]) -> str | None:
    """One column's prepared values as a JSON array (each value's text, or null); None
    when one has no text to send it by."""
    try:
        return json.dumps(values, default=_text, allow_nan=False)
    except (TypeError, ValueError):
        return None


def column_source(
    fields: Sequence[models.Field[Any, Any]], columns: Sequence[Sequence[Any]]
) -> tuple[str, list[Any]]:
    """A ``SELECT`` of the rows whose ``columns`` (prepared values, one list a field) are
    given, each cast to its field's type, and its parameters: one JSON text a column, or
    where one cannot be sent so, one array a column."""
    sent = [column_json(values) for values in columns]
    types = [field.db_type(connection) for field in fields]
    if any(text is None for text in sent):
        unnested = ", ".join(f"%s::{kind}[]" for kind in types)
        return f"SELECT * FROM unnest({unnested})", [list(values) for values in columns]  # noqa: S608
    named = [f"c{index}" for index in range(len(fields))]
    listed = ", ".join(f"v.{name}::{kind}" for name, kind in zip(named, types, strict=True))
    taken = ", ".join("json_array_elements_text(%s::json)" for _ in fields)
    return f"SELECT {listed} FROM ROWS FROM ({taken}) AS v({', '.join(named)})", sent  # noqa: S608


def insert_values(
    model: type[models.Model], names: Sequence[str], values: Sequence[Sequence[Any]]
) -> list[Any]:
    """Insert one row of ``model`` for each of ``values``, a tuple of the fields ``names``
    (attribute names: ``user_id``, not ``user``) in that order; returns the new keys in the
    same order. Every other field takes its default as a new instance's would, a callable
    one called for each row. One statement however many rows (PostgreSQL; elsewhere the
    instances are made and ``bulk_create`` writes them).

    For fields whose value is written as given: not the primary key, nor one whose
    ``pre_save`` sets it (``auto_now``), nor one with a database default.
    """
    if not values:
        return []
    if connection.vendor != "postgresql":
        made = [model(**dict(zip(names, row, strict=True))) for row in values]
        model._default_manager.bulk_create(made)
        return [row.pk for row in made]
    primary = model._meta.pk
    assert primary is not None
    given: dict[str, Sequence[Any]] = dict(zip(names, zip(*values, strict=True), strict=True))
    fields = [field for field in model._meta.concrete_fields if field is not primary]
    database = connections[connection.alias]
    columns: list[Sequence[Any]] = []
    for field in fields:
        assert field.db_default is NOT_PROVIDED, f"{field} has a database default"
        column = given.pop(field.attname, None)
        if column is None:
            column = _defaults(field, len(values))
        else:
            assert not getattr(field, "auto_now", False), f"{field} sets itself"
            assert not getattr(field, "auto_now_add", False), f"{field} sets itself"
        target = field.target_field if isinstance(field, models.ForeignKey) else field
        if not isinstance(target, PLAIN) or isinstance(field, models.JSONField):
            column = prepared(field, column, database)
        columns.append(column)
    assert not given, f"{model.__name__} has no fields {sorted(given)} to write (or its key)"
    name = connection.ops.quote_name
    listed = ", ".join(name(field.column) for field in fields)
    source, params = column_source(fields, columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {name(model._meta.db_table)} ({listed}) {source}"
            f" RETURNING {name(primary.column)}",
            params,
        )
        return [key for (key,) in cursor.fetchall()]


def prepared(field: models.Field[Any, Any], values: Sequence[Any], database: Any) -> Sequence[Any]:
    """``values`` as ``field.get_db_prep_save`` makes each for PostgreSQL, without that step
    where it changes nothing: a moment's column of aware moments or none, taken as they are
    (a round's matches have several such columns, thousands of values each)."""
    if isinstance(field, models.DateTimeField) and all(
        value is None or (isinstance(value, datetime.datetime) and value.tzinfo is not None)
        for value in values
    ):
        return values
    prepare: Callable[[Any, Any], Any] = field.get_db_prep_save
    return [prepare(value, database) for value in values]


def _defaults(field: models.Field[Any, Any], count: int) -> Sequence[Any]:
    """The value each of ``count`` new instances would give ``field`` when not given one."""
    if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False):
        return [timezone.now() for _ in range(count)]
    if field.has_default() and callable(field.default):
        return [field.get_default() for _ in range(count)]
    return [field.get_default()] * count
