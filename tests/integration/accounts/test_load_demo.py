"""The demo data gives every player a wallet and a rating chart, and can be loaded twice."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from accounts import ledger
from accounts.models import LedgerTransaction, RatingChange, User

pytestmark = pytest.mark.django_db


def test_demo_players_have_money_and_rating_history_and_a_second_load_changes_nothing() -> None:
    # given the demo loaded once
    call_command("load_demo", stdout=io.StringIO())
    alice = User.objects.get(username="alice")
    balances = ledger.balances(user=alice)
    changes = RatingChange.objects.count()
    movements = LedgerTransaction.objects.count()

    # when it is loaded again
    call_command("load_demo", stdout=io.StringIO())

    # then
    assert balances["FUN"] > 0
    assert balances["REAL"] == 5000
    assert changes == 2 * 60
    assert RatingChange.objects.filter(user=alice).exists()
    assert RatingChange.objects.count() == changes
    assert LedgerTransaction.objects.count() == movements
    assert ledger.balances(user=alice) == balances
    assert ledger.currency_total("FUN") == ledger.currency_total("REAL") == 0
