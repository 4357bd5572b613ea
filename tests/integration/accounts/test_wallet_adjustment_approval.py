"""Staff never adjust their own wallet, and real money above a threshold moves only when a
second staff member approves what the first asked."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts import ledger
from accounts.models import AdjustmentApproval, ApprovalState, User, WalletAdjustment
from accounts.roles import Role
from core.errors import DomainError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

THRESHOLD = 10_000  # 100.00 REAL


@pytest.fixture(autouse=True)
def threshold(settings: Any) -> None:
    settings.CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS = THRESHOLD


def staff_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def adjust(client: Client, username: str, **values: object) -> Any:
    body = {
        "currency": "REAL",
        "amount_cents": 50_000,
        "direction": "deposit",
        "reason": "Bank transfer ref 501",
        **values,
    }
    return client.post(f"/api/wallets/{username}/adjust/", body, content_type="application/json")


def real(user: User) -> int:
    return ledger.balance(user=user, currency="REAL")


def test_staff_adjusting_their_own_wallet_is_refused_over_the_api() -> None:
    sam = UserFactory(username="sam", role=Role.STAFF)

    response = adjust(staff_client(sam), "sam", amount_cents=500)

    assert response.status_code == 400
    assert response.json()["detail"] == (
        "Staff cannot adjust their own wallet: another staff member must do it."
    )
    assert real(sam) == 0
    assert not AdjustmentApproval.objects.exists()


def test_staff_adjusting_their_own_wallet_is_refused_on_the_page() -> None:
    sam = UserFactory(username="sam", role=Role.STAFF)
    form = {
        "direction": "deposit",
        "currency": "REAL",
        "amount": "5.00",
        "reason": "Pocket money",
        "key": "mine",
    }

    response = staff_client(sam).post("/wallet/sam/adjust/", form)

    assert response.status_code == 400
    assert "Staff cannot adjust their own wallet" in response.content.decode()
    assert real(sam) == 0


def test_the_ledger_itself_refuses_a_staff_member_their_own_wallet() -> None:
    sam = UserFactory(role=Role.STAFF)

    with pytest.raises(DomainError, match="cannot adjust their own wallet"):
        ledger.withdraw(
            user=sam, currency="FUN", amount_cents=100, reason="x", staff=sam, key="self"
        )


def test_real_money_up_to_the_threshold_moves_at_once() -> None:
    erin = UserFactory(username="erin")

    response = adjust(staff_client(UserFactory(role=Role.STAFF)), "erin", amount_cents=THRESHOLD)

    assert response.status_code == 201
    assert real(erin) == THRESHOLD
    assert not AdjustmentApproval.objects.exists()


def test_play_money_above_the_threshold_moves_at_once() -> None:
    erin = UserFactory(username="erin")

    response = adjust(
        staff_client(UserFactory(role=Role.STAFF)), "erin", currency="FUN", amount_cents=50_000
    )

    assert response.status_code == 201
    assert ledger.balance(user=erin, currency="FUN") == 150_000


def test_real_money_above_the_threshold_waits_for_a_second_staff_member() -> None:
    # given
    erin = UserFactory(username="erin")
    sam = UserFactory(username="sam", role=Role.STAFF)
    tess = UserFactory(username="tess", role=Role.STAFF)

    # when
    response = adjust(staff_client(sam), "erin")

    # then
    assert response.status_code == 202
    body = response.json()
    assert (body["state"], body["username"], body["amount_cents"], body["requested_by"]) == (
        "pending",
        "erin",
        50_000,
        "sam",
    )
    assert real(erin) == 0
    assert not WalletAdjustment.objects.exists()
    listed = staff_client(tess).get("/api/wallet-approvals/").json()
    assert [(a["id"], a["username"], a["state"]) for a in listed] == [
        (body["id"], "erin", "pending")
    ]
    page = staff_client(tess).get("/wallet/erin/").content.decode()
    assert 'data-testid="pending-approvals"' in page
    assert "Deposit 500.00 REAL" in page
    assert f'action="/staff/wallet-approvals/{body["id"]}/approve/"' in page


def test_the_staff_member_who_asked_cannot_approve() -> None:
    erin = UserFactory(username="erin")
    sam = UserFactory(username="sam", role=Role.STAFF)
    asked = adjust(staff_client(sam), "erin").json()

    response = staff_client(sam).post(f"/api/wallet-approvals/{asked['id']}/approve/")

    assert response.status_code == 403
    assert response.json()["detail"] == (
        "You asked for this adjustment: another staff member must decide it."
    )
    assert real(erin) == 0
    assert AdjustmentApproval.objects.get().state == ApprovalState.PENDING


def test_the_wallets_owner_cannot_approve_an_adjustment_of_their_own_wallet() -> None:
    tess = UserFactory(username="tess", role=Role.STAFF)
    asked = adjust(staff_client(UserFactory(role=Role.STAFF)), "tess").json()

    response = staff_client(tess).post(f"/api/wallet-approvals/{asked['id']}/approve/")

    assert response.status_code == 403
    assert "your own wallet" in response.json()["detail"]
    assert real(tess) == 0


def test_a_player_cannot_see_or_approve_requests() -> None:
    erin = UserFactory(username="erin")
    asked = adjust(staff_client(UserFactory(role=Role.STAFF)), "erin").json()
    player = staff_client(UserFactory())

    assert player.get("/api/wallet-approvals/").status_code == 403
    assert player.post(f"/api/wallet-approvals/{asked['id']}/approve/").status_code == 403
    assert real(erin) == 0


def test_a_second_staff_member_approves_and_the_money_moves_once() -> None:
    # given
    erin = UserFactory(username="erin")
    sam = UserFactory(username="sam", role=Role.STAFF)
    tess = UserFactory(username="tess", role=Role.STAFF)
    asked = adjust(staff_client(sam), "erin").json()
    approver = staff_client(tess)

    # when
    first = approver.post(f"/api/wallet-approvals/{asked['id']}/approve/")
    again = approver.post(f"/api/wallet-approvals/{asked['id']}/approve/")
    retold = adjust(staff_client(sam), "erin", key=asked["key"])

    # then
    assert first.status_code == again.status_code == 200
    assert (first.json()["state"], first.json()["decided_by"]) == ("approved", "tess")
    assert again.json()["transaction_id"] == first.json()["transaction_id"]
    assert retold.status_code == 201
    assert retold.json()["transaction_id"] == first.json()["transaction_id"]
    assert real(erin) == 50_000
    adjustment = WalletAdjustment.objects.get()
    assert (adjustment.staff, adjustment.approved_by, adjustment.balance_after) == (
        sam,
        tess,
        50_000,
    )
    assert ledger.currency_total("REAL") == 0
    assert staff_client(tess).get("/api/wallet-approvals/").json() == []
    page = staff_client(tess).get("/wallet/erin/").content.decode()
    assert "by sam, approved by tess" in page


def test_an_approved_withdrawal_the_balance_cannot_cover_is_refused_and_stays_pending() -> None:
    UserFactory(username="erin")
    asked = adjust(staff_client(UserFactory(role=Role.STAFF)), "erin", direction="withdraw").json()

    response = staff_client(UserFactory(role=Role.STAFF)).post(
        f"/api/wallet-approvals/{asked['id']}/approve/"
    )

    assert response.status_code == 400
    assert "REAL balance is 0.00; this needs 500.00" in response.json()["detail"]
    assert AdjustmentApproval.objects.get().state == ApprovalState.PENDING
    assert ledger.currency_total("REAL") == 0


def test_a_rejected_request_moves_nothing_and_cannot_be_approved_after() -> None:
    erin = UserFactory(username="erin")
    asked = adjust(staff_client(UserFactory(role=Role.STAFF)), "erin").json()
    tess = staff_client(UserFactory(username="tess", role=Role.STAFF))

    rejected = tess.post(
        f"/api/wallet-approvals/{asked['id']}/reject/",
        {"reason": "No transfer arrived"},
        content_type="application/json",
    )
    approved = tess.post(f"/api/wallet-approvals/{asked['id']}/approve/")

    assert rejected.status_code == 200
    assert (rejected.json()["state"], rejected.json()["decided_by"]) == ("rejected", "tess")
    assert approved.status_code == 409
    assert approved.json()["detail"] == "This adjustment was already rejected by tess."
    assert real(erin) == 0
    assert not WalletAdjustment.objects.exists()


def test_the_same_key_and_body_sent_again_answers_the_pending_request() -> None:
    UserFactory(username="erin")
    sam = staff_client(UserFactory(role=Role.STAFF))

    first = adjust(sam, "erin", key="wire-9").json()
    again = adjust(sam, "erin", key="wire-9")
    other = adjust(sam, "erin", key="wire-9", amount_cents=60_000)

    assert again.status_code == 202
    assert again.json()["id"] == first["id"]
    assert other.status_code == 409
    assert AdjustmentApproval.objects.count() == 1


def test_on_the_pages_one_staff_member_asks_and_another_approves() -> None:
    # given
    erin = UserFactory(username="erin")
    sam = staff_client(UserFactory(username="sam", role=Role.STAFF))
    tess = staff_client(UserFactory(username="tess", role=Role.STAFF))
    form = {
        "direction": "deposit",
        "currency": "REAL",
        "amount": "500.00",
        "reason": "Bank transfer ref 502",
        "key": "page-1",
    }

    # when
    asked = sam.post("/wallet/erin/adjust/", form, follow=True).content.decode()
    approval = AdjustmentApproval.objects.get()
    refused = sam.post(f"/staff/wallet-approvals/{approval.pk}/approve/")
    queue = tess.get("/staff/wallet-approvals/").content.decode()
    approved = tess.post(f"/staff/wallet-approvals/{approval.pk}/approve/", follow=True)

    # then
    assert "waits for a second staff member" in asked
    assert refused.status_code == 403
    assert "Deposit 500.00 REAL" in queue
    assert 'href="/wallet/erin/"' in queue
    assert "Approved: deposited 500.00 REAL into erin" in approved.content.decode()
    assert real(erin) == 50_000
    assert ledger.currency_total("REAL") == 0


def test_on_the_pages_a_request_is_rejected() -> None:
    erin = UserFactory(username="erin")
    adjust(staff_client(UserFactory(role=Role.STAFF)), "erin")
    approval = AdjustmentApproval.objects.get()

    response = staff_client(UserFactory(role=Role.STAFF)).post(
        f"/staff/wallet-approvals/{approval.pk}/reject/", {"reason": "Duplicate"}, follow=True
    )

    assert "Rejected: nothing moved" in response.content.decode()
    assert real(erin) == 0
    approval.refresh_from_db()
    assert approval.state == ApprovalState.REJECTED
