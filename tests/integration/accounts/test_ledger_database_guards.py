"""PostgreSQL itself refuses a negative balance, an unbalanced transaction, a changed entry.

The zero-sum guard runs after every statement that inserts entries, over the
transactions that statement touched: a transaction's entries go in together or not at all.
"""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.db.models import F

from accounts import ledger
from accounts.models import AccountKind, LedgerAccount, LedgerEntry, LedgerTransaction
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_player_balance_cannot_be_set_below_zero_even_bypassing_the_ledger() -> None:
    player = UserFactory()

    with pytest.raises(IntegrityError, match="ledger_account_balance_not_negative"):
        LedgerAccount.objects.filter(kind=AccountKind.PLAYER, user=player).update(
            balance=F("balance") - 100001
        )


def test_an_entry_that_leaves_its_transaction_unbalanced_is_refused_at_once() -> None:
    # Even if the other half was to follow in the next statement: a transaction's entries
    # go in together.
    player = UserFactory()
    account = LedgerAccount.objects.get(kind=AccountKind.PLAYER, user=player)
    forged = LedgerTransaction.objects.create(key="forged", kind="deposit")

    with (
        pytest.raises(IntegrityError, match=f"{forged.pk} does not sum to zero"),
        transaction.atomic(),
    ):
        LedgerEntry.objects.create(transaction=forged, account=account, amount=5000)

    assert ledger.balance(user=player, currency="FUN") == 100000
    assert ledger.currency_total("FUN") == 0


def test_entries_that_balance_in_one_statement_are_accepted() -> None:
    player = UserFactory()
    account = LedgerAccount.objects.get(kind=AccountKind.PLAYER, user=player)
    outside = LedgerAccount.objects.get(kind=AccountKind.EXTERNAL, currency="FUN")
    honest = LedgerTransaction.objects.create(key="honest", kind="deposit")

    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(transaction=honest, account=account, amount=5000),
            LedgerEntry(transaction=honest, account=outside, amount=-5000),
        ]
    )

    assert LedgerEntry.objects.filter(transaction=honest).count() == 2
    assert ledger.currency_total("FUN") == 0


def test_one_unbalanced_transaction_spoils_a_statement_that_writes_several() -> None:
    player = UserFactory()
    account = LedgerAccount.objects.get(kind=AccountKind.PLAYER, user=player)
    outside = LedgerAccount.objects.get(kind=AccountKind.EXTERNAL, currency="FUN")
    honest = LedgerTransaction.objects.create(key="honest", kind="deposit")
    forged = LedgerTransaction.objects.create(key="forged", kind="deposit")

    with (
        pytest.raises(IntegrityError, match=f"{forged.pk} does not sum to zero"),
        transaction.atomic(),
    ):
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(transaction=honest, account=account, amount=300),
                LedgerEntry(transaction=honest, account=outside, amount=-300),
                LedgerEntry(transaction=forged, account=account, amount=700),
            ]
        )

    assert not LedgerEntry.objects.filter(transaction__in=[honest, forged]).exists()


def test_every_currency_must_balance_on_its_own() -> None:
    player = UserFactory()
    fun = LedgerAccount.objects.get(kind=AccountKind.PLAYER, user=player)
    real = LedgerAccount.objects.create(kind=AccountKind.PLAYER, user=player, currency="REAL")
    forged = LedgerTransaction.objects.create(key="forged", kind="deposit")

    with pytest.raises(IntegrityError, match="does not sum to zero"), transaction.atomic():
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(transaction=forged, account=fun, amount=500),
                LedgerEntry(transaction=forged, account=real, amount=-500),
            ]
        )


def test_entries_are_never_changed_or_deleted() -> None:
    player = UserFactory()
    entry = LedgerEntry.objects.get(account__user=player)

    with pytest.raises(IntegrityError, match="never changed"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=999999)
    with pytest.raises(IntegrityError, match="never changed"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).delete()

    assert ledger.balance(user=player, currency="FUN") == 100000
