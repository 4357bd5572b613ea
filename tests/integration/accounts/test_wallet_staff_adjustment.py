"""Staff see any wallet and adjust it with a reason; every adjustment is audited."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import ledger
from accounts.models import WalletAdjustment
from accounts.roles import Role
from core.errors import DomainError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def form(**values: str) -> dict[str, str]:
    return {
        "direction": "deposit",
        "currency": "REAL",
        "amount": "25.00",
        "reason": "Bank transfer ref 991",
        "key": "form-1",
        **values,
    }


def test_staff_open_a_players_wallet_with_the_adjustment_form(client: Client) -> None:
    UserFactory(username="erin", display_name="Erin Doyle")
    client.force_login(UserFactory(role=Role.STAFF))

    page = client.get("/wallet/erin/").content.decode()

    assert "Wallet of Erin Doyle" in page
    assert 'data-testid="adjust-form"' in page
    assert 'action="/wallet/erin/adjust/"' in page


def test_a_staff_deposit_lands_and_is_shown_in_the_audit_log(client: Client) -> None:
    # given
    erin = UserFactory(username="erin")
    staff = UserFactory(role=Role.STAFF, display_name="Sam Okafor")
    client.force_login(staff)

    # when
    response = client.post("/wallet/erin/adjust/", form(), follow=True)

    # then
    page = response.content.decode()
    assert "Deposited 25.00 REAL into erin" in page
    assert ledger.balance(user=erin, currency="REAL") == 2500
    adjustment = WalletAdjustment.objects.get(user=erin)
    assert (adjustment.staff, adjustment.balance_before, adjustment.balance_after) == (
        staff,
        0,
        2500,
    )
    assert "0.00 → 25.00 · by Sam Okafor" in page
    assert "Bank transfer ref 991" in page


def test_sending_the_same_form_twice_moves_the_money_once(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    client.post("/wallet/erin/adjust/", form())
    client.post("/wallet/erin/adjust/", form())

    assert ledger.balance(user=erin, currency="REAL") == 2500
    assert WalletAdjustment.objects.count() == 1


def test_withdrawing_more_than_the_balance_is_refused_beside_the_form(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post(
        "/wallet/erin/adjust/", form(direction="withdraw", currency="FUN", amount="1500.00")
    )

    assert response.status_code == 400
    assert "erin&#x27;s FUN balance is 1,000.00; this needs 1,500.00." in response.content.decode()
    assert ledger.balance(user=erin, currency="FUN") == 100000
    assert not WalletAdjustment.objects.exists()


def test_an_adjustment_without_a_reason_is_refused(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post("/wallet/erin/adjust/", form(reason=""))

    assert response.status_code == 400
    assert "This field is required." in response.content.decode()
    assert ledger.balance(user=erin, currency="REAL") == 0


@pytest.mark.parametrize("role", [Role.PLAYER, Role.ORGANIZER])
def test_players_and_organizers_cannot_adjust_a_wallet(client: Client, role: Role) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=role))

    assert client.post("/wallet/erin/adjust/", form()).status_code == 403
    assert ledger.balance(user=erin, currency="REAL") == 0


def test_a_player_adjusting_their_own_wallet_is_refused(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(erin)

    assert client.post("/wallet/erin/adjust/", form()).status_code == 403
    assert ledger.balance(user=erin, currency="REAL") == 0


def test_the_ledger_itself_refuses_an_adjustment_by_someone_without_the_permission() -> None:
    erin = UserFactory()

    with pytest.raises(ledger.Forbidden, match="Only staff who may adjust wallets"):
        ledger.deposit(
            user=erin,
            currency="REAL",
            amount_cents=100,
            reason="self-service",
            staff=erin,
            key="sneaky",
        )


def test_an_amount_past_the_largest_is_refused_beside_the_form(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post("/wallet/erin/adjust/", form(amount="9223372036854775.81"))

    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 1000000000" in response.content.decode()
    assert ledger.balance(user=erin, currency="REAL") == 0


def test_the_forms_key_belongs_to_the_wallet(client: Client) -> None:
    erin, finn = UserFactory(username="erin"), UserFactory(username="finn")
    client.force_login(UserFactory(role=Role.STAFF))

    client.post("/wallet/erin/adjust/", form(key="same"))
    client.post("/wallet/finn/adjust/", form(key="same"))

    assert ledger.balance(user=erin, currency="REAL") == 2500
    assert ledger.balance(user=finn, currency="REAL") == 2500


def test_the_same_form_key_with_another_amount_is_refused(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))
    client.post("/wallet/erin/adjust/", form(key="once"))

    response = client.post("/wallet/erin/adjust/", form(key="once", amount="30.00"))

    assert response.status_code == 400
    assert "That key was already used for another adjustment of this wallet" in (
        response.content.decode()
    )
    assert ledger.balance(user=erin, currency="REAL") == 2500


def test_the_ledger_refuses_an_amount_past_the_largest() -> None:
    erin, staff = UserFactory(), UserFactory(role=Role.STAFF)

    with pytest.raises(DomainError, match=r"The amount must be at most 1,000,000,000.00\."):
        ledger.deposit(
            user=erin,
            currency="REAL",
            amount_cents=2**63,
            reason="overflow",
            staff=staff,
            key="huge",
        )


def test_adjustments_made_before_requests_were_kept_are_answered_on_a_retry() -> None:
    erin, staff = UserFactory(), UserFactory(role=Role.STAFF)
    first = ledger.deposit(
        user=erin, currency="REAL", amount_cents=100, reason="old", staff=staff, key="old"
    )
    WalletAdjustment.objects.update(request_hash="")

    again = ledger.deposit(
        user=erin, currency="REAL", amount_cents=100, reason="old, retold", staff=staff, key="old"
    )

    assert again.pk == first.pk
    assert ledger.balance(user=erin, currency="REAL") == 100


def test_the_page_and_the_api_ask_one_adjustment_so_a_key_sent_through_both_moves_once(
    client: Client,
) -> None:
    # given a deposit made on the wallet page
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))
    client.post("/wallet/erin/adjust/", form(key="wire-7"))

    # when the same request is sent again over the API under the same key
    again = client.post(
        "/api/wallets/erin/adjust/",
        {
            "direction": "deposit",
            "currency": "REAL",
            "amount_cents": 2500,
            "reason": "Bank transfer ref 991",
            "key": "wire-7",
        },
        content_type="application/json",
    )

    # then it is answered with the page's adjustment: the money moved once
    assert again.status_code == 201
    assert again.json()["transaction_id"] == WalletAdjustment.objects.get().transaction_id
    assert ledger.balance(user=erin, currency="REAL") == 2500
