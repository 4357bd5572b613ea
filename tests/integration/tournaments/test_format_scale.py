"""A big double elimination with a consolation starts in the same few queries whatever its
field: the draw, its rows and the first matches are written in batches."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches.models import Match
from tests.integration.tournaments.helpers import open_tournament, organizer, players, register_all
from tournaments import scheduler, services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def start_queries(count: int, prefix: str) -> tuple[int, int]:
    """The queries to start a double elimination with a consolation of ``count`` players
    and make its first matches; and how many pairings it drew."""
    owner = organizer(f"{prefix}-orla")
    tournament = open_tournament(
        owner,
        format="double_elimination",
        buy_in_cents=0,
        fee_cents=0,
        round_lengths=(5,),
        flight_lengths={"losers": (3,), "consolation": (3,), "final": (7,)},
        consolation_through_round=2,
    )
    register_all(tournament, players(count, prefix=prefix))
    with CaptureQueriesContext(connection) as queries:
        services.tournament_start(tournament_id=tournament.pk, user=owner)
        scheduler.matches_start(tournament_id=tournament.pk)
    return len(queries), Pairing.objects.filter(tournament=tournament).count()


def test_a_256_player_double_elimination_with_consolation_starts_in_as_many_queries_as_32() -> None:
    small, small_pairings = start_queries(32, "s")
    big, big_pairings = start_queries(256, "b")

    assert big_pairings > 7 * small_pairings  # every flight of the big draw is stored
    assert big == small
    assert Match.objects.count() == 16 + 128  # round one of each: every seat filled
