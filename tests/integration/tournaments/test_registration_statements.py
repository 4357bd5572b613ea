"""A paid registration is four statements, whatever the field and whatever the player's
standing: the tournament locked, what the entry depends on read at once (a seat held
already, a ticket, the seats taken, the player's standing), the seat, the buy-in posted.
Thousands of players register for a big knockout in its last minutes, one at a time under
the tournament's lock, so each statement more is a wait for all of them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.ledger import reads as ledger_reads
from accounts.models import User
from accounts.standing import standing_restrict
from core.errors import Forbidden
from tests.integration.tournaments.helpers import open_tournament, organizer, players
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def statements_of_a_registration(tournament_id: int, player: User) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        services.entry_register(tournament_id=tournament_id, user=player)
    # The test's own transaction makes the service's a savepoint, which production has not.
    return [q["sql"] for q in captured.captured_queries if not str(q["sql"]).startswith(SAVEPOINTS)]


def test_a_paid_registration_is_four_statements_with_or_without_a_standing() -> None:
    # given an open knockout with a first entrant (whose buy-in opened the escrow), and two
    # more players, one of them with a standing row (muted, which lets them register)
    tournament = open_tournament(organizer())
    first, plain, muted = players(3)
    services.entry_register(tournament_id=tournament.pk, user=first)
    standing_restrict(user=muted, muted_until=timezone.now() + timedelta(hours=1))

    # when each registers
    statements = [statements_of_a_registration(tournament.pk, p) for p in (plain, muted)]

    # then each took four statements, and both hold a paid seat
    assert [len(each) for each in statements] == [4, 4], statements
    seats = Entry.objects.filter(tournament=tournament, user__in=[plain, muted])
    assert sorted(seat.paid_cents + seat.fee_cents for seat in seats) == [1065, 1065]
    escrow = ledger_reads.escrow_balance(
        escrow_ref=tournament.escrow_ref, currency=tournament.currency
    )
    assert escrow == 3 * 1000


def test_a_suspended_player_is_refused_before_anything_is_written() -> None:
    tournament = open_tournament(organizer())
    (suspended,) = players(1)
    standing_restrict(user=suspended, suspended_until=timezone.now() + timedelta(days=1))

    with pytest.raises(Forbidden, match="suspended until"):
        services.entry_register(tournament_id=tournament.pk, user=suspended)

    assert not Entry.objects.filter(tournament=tournament).exists()
