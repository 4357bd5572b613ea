"""PostgreSQL itself refuses a negative balance, an unbalanced transaction, a changed entry."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
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


def test_entries_that_do_not_sum_to_zero_are_refused_at_commit() -> None:
    player = UserFactory()
    account = LedgerAccount.objects.get(kind=AccountKind.PLAYER, user=player)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # check now, not at commit

    forged = LedgerTransaction.objects.create(key="forged", kind="deposit")

    with pytest.raises(IntegrityError, match="does not sum to zero"), transaction.atomic():
        LedgerEntry.objects.create(transaction=forged, account=account, amount=5000)


def test_entries_are_never_changed_or_deleted() -> None:
    player = UserFactory()
    entry = LedgerEntry.objects.get(account__user=player)

    with pytest.raises(IntegrityError, match="never changed"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).update(amount=999999)
    with pytest.raises(IntegrityError, match="never changed"), transaction.atomic():
        LedgerEntry.objects.filter(pk=entry.pk).delete()

    assert ledger.balance(user=player, currency="FUN") == 100000
