"""The wallet over REST: the caller's balances and history, and staff adjustments."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import ledger
from accounts.models import WalletAdjustment
from accounts.roles import Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def adjustment(**values: object) -> dict[str, object]:
    return {
        "currency": "REAL",
        "amount_cents": 5000,
        "direction": "deposit",
        "reason": "Bank transfer ref 77",
        **values,
    }


def test_the_caller_reads_balances_in_cents_and_history_newest_first(client: Client) -> None:
    player, winner = UserFactory(), UserFactory()
    ledger.transfer_between_players(
        payer=player,
        payee=winner,
        currency="FUN",
        amount_cents=1000,
        commission_cents=130,
        key="session:3",
    )
    client.force_login(player)

    body = client.get("/api/wallet/").json()

    assert body["balances"] == {"FUN": 99000, "REAL": 0}
    assert [(h["kind"], h["amount_cents"], h["balance_after_cents"]) for h in body["history"]] == [
        ("transfer", -1000, 99000),
        ("grant", 100000, 100000),
    ]
    assert body["history"][0]["currency"] == "FUN"


def test_the_history_can_be_narrowed_to_a_currency(client: Client) -> None:
    client.force_login(UserFactory())

    assert client.get("/api/wallet/?currency=REAL").json()["history"] == []
    refused = client.get("/api/wallet/?currency=GOLD")
    assert refused.status_code == 400
    assert refused.json()["detail"] == 'currency: "GOLD" is not a valid choice.'


def test_anonymous_callers_are_refused() -> None:
    assert Client().get("/api/wallet/").status_code == 401


def test_staff_adjust_a_wallet_and_get_the_audit_back(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF, username="sam"))

    response = client.post(
        "/api/wallets/erin/adjust/", adjustment(key="api-1"), content_type="application/json"
    )

    assert response.status_code == 201
    body = response.json()
    assert {k: body[k] for k in ("username", "staff", "currency", "direction")} == {
        "username": "erin",
        "staff": "sam",
        "currency": "REAL",
        "direction": "deposit",
    }
    assert (body["balance_before_cents"], body["balance_after_cents"]) == (0, 5000)
    assert ledger.balance(user=erin, currency="REAL") == 5000


def test_retrying_with_the_same_key_moves_the_money_once(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    first = client.post(
        "/api/wallets/erin/adjust/", adjustment(key="retry"), content_type="application/json"
    )
    second = client.post(
        "/api/wallets/erin/adjust/", adjustment(key="retry"), content_type="application/json"
    )

    assert first.json()["transaction_id"] == second.json()["transaction_id"]
    assert ledger.balance(user=erin, currency="REAL") == 5000
    assert WalletAdjustment.objects.count() == 1


def test_an_overdrawing_withdrawal_gets_400_with_the_balance_in_words(client: Client) -> None:
    UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post(
        "/api/wallets/erin/adjust/",
        adjustment(direction="withdraw", amount_cents=1),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "erin's REAL balance is 0.00; this needs 0.01."


def test_players_cannot_adjust_wallets_over_the_api(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory())

    response = client.post(
        "/api/wallets/erin/adjust/", adjustment(), content_type="application/json"
    )

    assert response.status_code == 403
    assert ledger.balance(user=erin, currency="REAL") == 0


def test_adjusting_an_unknown_player_gets_404(client: Client) -> None:
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post(
        "/api/wallets/nobody/adjust/", adjustment(), content_type="application/json"
    )

    assert response.status_code == 404


def test_the_same_key_with_another_body_is_refused_with_409_and_moves_nothing(
    client: Client,
) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))
    url = "/api/wallets/erin/adjust/"
    first = client.post(url, adjustment(key="k1"), content_type="application/json")

    other = client.post(
        url, adjustment(key="k1", amount_cents=9000), content_type="application/json"
    )

    assert first.status_code == 201
    assert other.status_code == 409
    assert other.json()["detail"] == (
        "That key was already used for another adjustment of this wallet (a deposit of"
        " 50.00 REAL): send a new key for a new adjustment."
    )
    assert ledger.balance(user=erin, currency="REAL") == 5000


def test_reusing_a_deposits_key_for_a_withdrawal_is_a_409_not_a_500(client: Client) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))
    url = "/api/wallets/erin/adjust/"
    client.post(url, adjustment(key="k2"), content_type="application/json")

    response = client.post(
        url, adjustment(key="k2", direction="withdraw"), content_type="application/json"
    )

    assert response.status_code == 409
    assert ledger.balance(user=erin, currency="REAL") == 5000
    assert WalletAdjustment.objects.count() == 1


def test_a_key_belongs_to_its_wallet_so_another_wallet_may_use_it(client: Client) -> None:
    erin, finn = UserFactory(username="erin"), UserFactory(username="finn")
    client.force_login(UserFactory(role=Role.STAFF))

    for_erin = client.post(
        "/api/wallets/erin/adjust/", adjustment(key="k3"), content_type="application/json"
    )
    for_finn = client.post(
        "/api/wallets/finn/adjust/",
        adjustment(key="k3", amount_cents=700),
        content_type="application/json",
    )

    assert (for_erin.status_code, for_finn.status_code) == (201, 201)
    assert for_erin.json()["transaction_id"] != for_finn.json()["transaction_id"]
    assert ledger.balance(user=erin, currency="REAL") == 5000
    assert ledger.balance(user=finn, currency="REAL") == 700


@pytest.mark.parametrize("amount", [2**63, 2**63 - 1, 10**11 + 1, 10**40])
def test_an_amount_past_the_largest_is_refused_with_400(client: Client, amount: int) -> None:
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post(
        "/api/wallets/erin/adjust/",
        adjustment(amount_cents=amount),
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json()["detail"] == (
        "amount_cents: Ensure this value is less than or equal to 100000000000."
    )
    assert ledger.balance(user=erin, currency="REAL") == 0


def test_the_largest_amount_is_accepted(client: Client) -> None:
    # Play money: real money this large waits for a second staff member's approval.
    erin = UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post(
        "/api/wallets/erin/adjust/",
        adjustment(amount_cents=10**11, currency="FUN"),
        content_type="application/json",
    )

    assert response.status_code == 201
    assert ledger.balance(user=erin, currency="FUN") == 100_000 + 10**11


def test_a_long_input_is_echoed_cut_short(client: Client) -> None:
    UserFactory(username="erin")
    client.force_login(UserFactory(role=Role.STAFF))

    response = client.post(
        "/api/wallets/erin/adjust/",
        adjustment(currency="G" * 100_000),
        content_type="application/json",
    )

    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith('currency: "GGGG')
    assert detail.endswith("…")
    assert len(detail) <= 220
    assert len(response.json()["errors"]["currency"][0]) == 200
