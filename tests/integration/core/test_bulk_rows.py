"""``core.bulk``: rows written many at once, each column sent as one JSON array, read back
through the ORM exactly as the ones ``save()`` writes one at a time, whether given as
instances (``core.rows.insert_many``, ``update_many``) or as plain values
(``insert_values``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection, models

from core import bulk, rows
from lobby.models import NoticeKind, Notification
from matches.models import Action, ActionKind, Match
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match

pytestmark = pytest.mark.django_db

# Text a column's array or JSON form must escape: quotes, backslashes, braces, commas,
# spaces, a word that reads as NULL, and letters beyond ASCII.
AWKWARD = ['say "hi", \\o/ {x}', "NULL", "", " spaced ", "Ærø — 𝄞 ☃", "line\nbreak\ttab"]


def _values(row: models.Model, *leave_out: str) -> dict[str, Any]:
    return {
        field.attname: getattr(row, field.attname)
        for field in row._meta.concrete_fields
        if not field.primary_key and field.attname not in leave_out
    }


def test_rows_inserted_from_values_read_back_as_the_rows_save_writes() -> None:
    # given notices of every awkward kind of text, JSON, time and nothing
    players = [UserFactory(username=f"bulk{n}") for n in range(len(AWKWARD))]
    moment = datetime(2026, 11, 28, 2, 40, 1, 123456, tzinfo=UTC)
    values = [
        (
            player.pk,
            NoticeKind.MATCH_READY,
            f"awkward:{n}",
            text,
            f"/matches/{n}/",
            {"text": text, "n": n, "list": [1, None, 2.5, True], "nested": {"k": [text]}},
            moment + timedelta(microseconds=n),
            None if n % 2 else moment,
        )
        for n, (player, text) in enumerate(zip(players, AWKWARD, strict=True))
    ]
    names = ("user_id", "kind", "key", "text", "url", "data", "created_at", "read_at")

    # when they are written at once from their values, and each again through save()
    keys = bulk.insert_values(Notification, names, values)
    for row in values:
        twin = dict(zip(names, row, strict=True))
        Notification.objects.create(**{**twin, "key": f"saved:{twin['key']}"})

    # then each row reads back as its twin, under the key returned in the same order
    assert len(keys) == len(values)
    for key, row in zip(keys, values, strict=True):
        written = Notification.objects.get(pk=key)
        assert written.key == row[2]
        saved = Notification.objects.get(key=f"saved:{row[2]}")
        assert _values(written, "key") == _values(saved, "key")
        assert _values(written, "key")["created_at"] == row[6]


def test_fields_not_given_take_the_defaults_a_new_instance_takes() -> None:
    # given a player and a notice saved with its defaults
    player = UserFactory(username="defaults")
    saved = Notification.objects.create(user=player, kind=NoticeKind.PRIZE, key="saved", text="t")

    # when one is written from its values with the same fields left out
    before = datetime.now(UTC)
    [key] = bulk.insert_values(
        Notification, ("user_id", "kind", "key", "text"), [(player.pk, NoticeKind.PRIZE, "v", "t")]
    )

    # then it holds what the saved one holds, its moment its own
    written = Notification.objects.get(pk=key)
    assert _values(written, "key", "created_at") == _values(saved, "key", "created_at")
    assert (written.data, written.url, written.read_at) == ({}, "", None)
    assert before <= written.created_at <= datetime.now(UTC)


def test_instances_inserted_and_updated_together_read_back_as_saved_ones() -> None:
    # given a match, and log rows of every awkward kind made for it
    match = Match.objects.get(
        pk=start_match(UserFactory(username="ann"), UserFactory(username="bob"), length=3)
    )
    first = match.last_seq + 1
    made = [
        Action(
            match=match,
            seq=first + n,
            kind=ActionKind.OPENING,
            seat=n % 2 or None,
            dice=str(n)[:3],
            detail={"text": text, "n": n, "float": 0.1 * n},
            clock_0_ms=None if n % 2 else 10**12 + n,
            request_digest=text[:16],
        )
        for n, text in enumerate(AWKWARD)
    ]

    # when they are inserted at once
    rows.insert_many(made)

    # then each has its key and reads back as the row made of it
    for action in made:
        read = Action.objects.get(pk=action.pk)
        assert _values(read, "created_at") == _values(action, "created_at")
        assert (action._state.adding, action._state.db) == (False, "default")

    # and when some of their matches' fields change at once, each row gets its own
    match.last_seq, match.show_up_by = 99, datetime(2026, 11, 28, 3, 0, 0, 1, tzinfo=UTC)
    rows.update_many([match], ["last_seq", "show_up_by"])
    assert Match.objects.values_list("last_seq", "show_up_by").get(pk=match.pk) == (
        99,
        match.show_up_by,
    )


def test_a_column_json_cannot_carry_travels_as_an_array() -> None:
    # given columns, one of which holds bytes (JSON has no form for them)
    fields = [Action._meta.get_field("seq"), Action._meta.get_field("dice")]

    # when their source is made
    as_json, _ = bulk.column_source(fields, [[1, 2], ["52", "31"]])
    as_arrays, params = bulk.column_source(fields, [[1, 2], [b"52", b"31"]])

    # then only the one with bytes falls back to arrays
    assert "json_array_elements_text" in as_json
    assert "unnest" in as_arrays
    assert params == [[1, 2], [b"52", b"31"]]
    assert connection.vendor == "postgresql"
