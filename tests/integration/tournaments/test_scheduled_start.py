"""A tournament with a start time and a check-in window: entrants confirm inside the window,
the sweep starts it at its time with those who did, and the others get their buy-in back;
its page counts down to the start."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import ledger
from core.errors import Conflict
from tests.integration.tournaments.helpers import open_tournament, organizer, players
from tournaments import scheduler, services
from tournaments.models import Entry, EntryStatus, Pairing, Tournament, TournamentState
from tournaments.tasks import tournament_start_due

pytestmark = pytest.mark.django_db


def test_only_those_who_checked_in_play_and_the_others_are_refunded() -> None:
    # given: a knockout starting in an hour with a 30-minute check-in, and three entrants
    owner = organizer()
    starts_at = timezone.now() + timedelta(hours=1)
    tournament = open_tournament(owner, starts_at=starts_at, check_in_minutes=30)
    alice, bruno, chloe = players(3)
    balances = {p.pk: ledger.balance(user=p, currency="FUN") for p in (alice, bruno, chloe)}
    for player in (alice, bruno, chloe):
        services.entry_register(tournament_id=tournament.pk, user=player)

    # when: too early to check in, then inside the window two of them do
    with pytest.raises(Conflict, match=r"Check-in opens at .* UTC, 30 minutes before the start"):
        services.entry_check_in(tournament_id=tournament.pk, user=alice)
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() + timedelta(minutes=10)
    )
    for player in (alice, bruno):
        services.entry_check_in(tournament_id=tournament.pk, user=player)

    # and the start time comes: the sweep finds it due and its task starts it
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    due = scheduler.sweep(now=timezone.now() + timedelta(seconds=1)).tournaments_to_start
    assert due == [tournament.pk]
    tournament_start_due(tournament.pk)

    # then: it runs with Alice and Bruno only; Chloe has her buy-in back (not the fee)
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.RUNNING
    playing = set(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED).values_list(
            "user_id", flat=True
        )
    )
    assert playing == {alice.pk, bruno.pk}
    final = Pairing.objects.get(tournament=tournament)
    assert {final.top_id, final.bottom_id} == {alice.pk, bruno.pk}
    assert ledger.balance(user=chloe, currency="FUN") == balances[chloe.pk] - tournament.fee_cents
    assert ledger.currency_total("FUN") == 0


def test_an_open_tournament_page_counts_down_to_its_start() -> None:
    starts_at = (timezone.now() + timedelta(hours=2)).replace(microsecond=0)
    tournament = open_tournament(organizer(), starts_at=starts_at, check_in_minutes=15)

    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()

    assert 'data-testid="starts-in"' in page
    assert f'data-countdown="{starts_at.isoformat()}"' in page
    assert "Check-in" in page
