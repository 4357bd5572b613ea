"""Two staff members deciding one pending adjustment at the same moment on PostgreSQL: the
money moves at most once. Each thread has its own connection, as two web processes would."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from accounts import ledger
from accounts.ledger.approvals import adjustment_approve, adjustment_ask, adjustment_reject
from accounts.models import AdjustmentApproval, AdjustmentDirection, ApprovalState
from accounts.roles import Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def run_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], Any]) -> Any:
        try:
            barrier.wait()
            return call()
        except Exception as error:
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def pending(settings: Any) -> AdjustmentApproval:
    settings.CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS = 0
    erin = UserFactory(username="erin")
    asked = adjustment_ask(
        user=erin,
        currency="REAL",
        amount_cents=70_000,
        direction=AdjustmentDirection.DEPOSIT,
        reason="Wire 12",
        staff=UserFactory(role=Role.STAFF),
        key="wire-12",
    )
    assert asked.approval is not None
    return asked.approval


def test_four_approvals_at_once_move_the_money_once(settings: Any) -> None:
    approval = pending(settings)
    approvers = [UserFactory(role=Role.STAFF) for _ in range(4)]

    results = run_at_once(
        [
            lambda staff=staff: adjustment_approve(approval_id=approval.pk, staff=staff)
            for staff in approvers
        ]
    )

    assert all(isinstance(result, AdjustmentApproval) for result in results), results
    assert len({result.transaction_id for result in results}) == 1
    assert ledger.balance(user=approval.user, currency="REAL") == 70_000
    assert ledger.currency_total("REAL") == 0


def test_an_approval_and_a_rejection_at_once_leave_one_decision(settings: Any) -> None:
    approval = pending(settings)
    tess, uma = UserFactory(role=Role.STAFF), UserFactory(role=Role.STAFF)

    results = run_at_once(
        [
            lambda: adjustment_approve(approval_id=approval.pk, staff=tess),
            lambda: adjustment_reject(approval_id=approval.pk, staff=uma, reason="No wire"),
        ]
    )

    approval.refresh_from_db()
    moved = ledger.balance(user=approval.user, currency="REAL")
    refused = [r for r in results if isinstance(r, ledger.Conflict)]
    assert len(refused) == 1
    if approval.state == ApprovalState.APPROVED:
        assert moved == 70_000
    else:
        assert (approval.state, moved) == (ApprovalState.REJECTED, 0)
    assert ledger.currency_total("REAL") == 0
