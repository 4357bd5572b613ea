"""A player's wallet page: balances, history with running balance, and the CSV export."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from accounts import ledger
from accounts.roles import Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_wallet_shows_each_balance_and_the_history_with_running_balance(
    client: Client,
) -> None:
    # given a player who lost a 10.00 money game after the sign-up grant
    player, winner = UserFactory(), UserFactory()
    ledger.transfer_between_players(
        payer=player,
        payee=winner,
        currency="FUN",
        amount_cents=1000,
        commission_cents=130,
        key="session:1",
    )
    client.force_login(player)

    # when they open their wallet
    page = client.get("/wallet/").content.decode()

    # then
    assert '<span class="balance-amount">990.00</span>' in page
    assert '<span class="balance-amount">0.00</span>' in page
    assert "Money game" in page
    assert "-10.00" in page
    assert "+1,000.00" in page
    assert "Sign-up grant" in page


def test_the_history_can_be_narrowed_to_one_currency(client: Client) -> None:
    player = UserFactory()
    ledger.deposit(
        user=player,
        currency="REAL",
        amount_cents=2500,
        reason="Card payment",
        staff=UserFactory(role=Role.STAFF),
        key="d1",
    )
    client.force_login(player)

    real_only = client.get("/wallet/?currency=REAL").content.decode()

    assert "Card payment" in real_only
    assert "Sign-up grant" not in real_only


def test_the_csv_export_lists_every_movement_with_plain_amounts(client: Client) -> None:
    player, winner = UserFactory(username="carla"), UserFactory()
    ledger.deposit(
        user=player,
        currency="FUN",
        amount_cents=150000,
        reason="Tournament promotion",
        staff=UserFactory(role=Role.STAFF),
        key="promo",
    )
    ledger.transfer_between_players(
        payer=player,
        payee=winner,
        currency="FUN",
        amount_cents=123456,
        commission_cents=0,
        key="big-loss",
    )
    client.force_login(player)

    response = client.get("/wallet/export.csv?currency=FUN")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="crawford-wallet-carla-FUN.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["date", "currency", "kind", "description", "amount", "balance"]
    assert [[row[1], row[2], row[4], row[5]] for row in rows[1:]] == [
        ["FUN", "transfer", "-1234.56", "1265.44"],
        ["FUN", "deposit", "1500.00", "2500.00"],
        ["FUN", "grant", "1000.00", "1000.00"],
    ]
    assert rows[2][3].endswith("Tournament promotion")


def test_anonymous_visitors_are_sent_to_log_in(client: Client) -> None:
    response = client.get("/wallet/")

    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


def test_a_player_cannot_open_another_players_wallet(client: Client) -> None:
    UserFactory(username="victim")
    client.force_login(UserFactory())

    assert client.get("/wallet/victim/").status_code == 403
    assert client.get("/wallet/victim/export.csv").status_code == 403
    assert client.get("/wallet/nobody/").status_code == 404


def test_a_player_may_use_their_own_username_in_the_address(client: Client) -> None:
    client.force_login(UserFactory(username="dora"))

    assert client.get("/wallet/dora/").status_code == 200
