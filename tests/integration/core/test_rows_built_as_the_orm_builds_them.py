"""``core.rows.Columns.build``: the rows of the match lock are the instances the ORM
would make of them, down to a field whose type reads its value through a descriptor of its
own (a profile's country), and ``save_changed`` writes only what changed since."""

from __future__ import annotations

import pytest
from django.db import connection, models, transaction
from django.test.utils import CaptureQueriesContext
from django_countries.fields import Country

from accounts.models import Profile, User
from core import rows
from matches.models import Game, Match
from matches.state import current_game, lock_match
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match

pytestmark = pytest.mark.django_db


def _values(row: models.Model) -> dict[str, object]:
    return {field.attname: getattr(row, field.attname) for field in row._meta.concrete_fields}


def _started() -> Match:
    alice = UserFactory(username="alice")
    bruno = UserFactory(username="bruno")
    Profile.objects.filter(user=alice).update(country="NO", display_name="Alice N.")
    return Match.objects.get(pk=start_match(alice, bruno, length=3))


def test_the_locked_rows_are_the_instances_the_orm_reads() -> None:
    # given a match being played, one of whose players gave a country
    match = _started()

    # when the match lock reads it with its players, their profiles and its game
    with transaction.atomic():
        locked = lock_match(match.pk)
        game = current_game(locked)

    # then every row holds what the ORM reads of it, as a row read from the database
    read: list[tuple[models.Model, models.Model]] = [
        (locked, Match.objects.get(pk=match.pk)),
        (game, Game.objects.filter(match=match).latest("number")),
    ]
    for seat in (0, 1):
        player = locked.player(seat)
        read.append((player, User.objects.get(pk=player.pk)))
        read.append((player.profile, Profile.objects.get(user=player)))
    for built, orm in read:
        assert type(built) is type(orm)
        assert _values(built) == _values(orm)
        assert (built._state.adding, built._state.db) == (False, "default")
    assert locked.player(0).profile.country == Country("NO")
    assert isinstance(locked.player(0).profile.country, Country)
    assert locked.player(1).profile.country == ""


def test_a_locked_row_writes_only_the_columns_changed() -> None:
    # given the locked match
    match = _started()
    with transaction.atomic():
        locked = lock_match(match.pk)

        # when nothing changes, then nothing is written
        with CaptureQueriesContext(connection) as unchanged:
            rows.save_changed(locked)
        assert unchanged.captured_queries == []

        # when one column changes, then that column alone is written, and only once
        locked.last_seq += 1
        with CaptureQueriesContext(connection) as once:
            rows.save_changed(locked)
            rows.save_changed(locked)
        (update,) = once.captured_queries
        assert update["sql"].split(" SET ")[1].split(" WHERE ")[0].startswith('"last_seq" = ')
        assert "," not in update["sql"].split(" SET ")[1].split(" WHERE ")[0]

    assert Match.objects.get(pk=match.pk).last_seq == locked.last_seq
