"""A player's wallet page: balances, history with running balance, and the CSV export."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts import ledger
from accounts.models import LedgerTransaction
from accounts.roles import Role
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments import services

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

    assert "By staff: Card payment" in real_only
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
    assert rows[2][3] == "Deposit · By staff: Tournament promotion"


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


def test_a_wallet_line_names_the_match_by_its_opponent_and_links_to_it(client: Client) -> None:
    # given a 3-point match for 5.00 FUN between Alice and Bruno
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno", display_name="Bruno Costa")
    match_id = start_match(alice, bruno, length=3, stake_cents=500)

    # when each opens their wallet
    client.force_login(alice)
    alices = client.get("/wallet/").content.decode()
    client.force_login(bruno)
    brunos = client.get("/wallet/").content.decode()

    # then each sees their stake for the match against the other, linked to its page
    link = f'href="/matches/{match_id}/" data-testid="wallet-line-link"'
    assert f"<strong>Stake</strong> · <a {link}>3-point match against Bruno Costa</a>" in alices
    assert f"<a {link}>3-point match against Alice Adams</a>" in brunos
    assert "Held in escrow until the game or match is settled" in alices
    assert f"match:{match_id}" not in alices


def test_a_money_session_is_named_as_one(client: Client) -> None:
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno", display_name="Bruno Costa")
    match_id = start_match(alice, bruno, money=True, stake_cents=10)
    client.force_login(bruno)

    page = client.get("/wallet/").content.decode()

    link = f'href="/matches/{match_id}/" data-testid="wallet-line-link"'
    assert f"<a {link}>Money session against Alice Adams</a>" in page


def test_a_tournament_buy_in_and_its_refund_name_the_tournament(client: Client) -> None:
    # given a player who bought into the Friday Knockout, then withdrew
    carla = UserFactory(username="carla")
    tournament = open_tournament(organizer(), name="Friday Knockout")
    services.entry_register(tournament_id=tournament.pk, user=carla)
    services.entry_unregister(tournament_id=tournament.pk, user=carla)
    client.force_login(carla)

    # when she opens her wallet
    page = client.get("/wallet/").content.decode()

    # then both lines name the tournament and link to it, and say what moved in words
    link = f'href="/tournaments/{tournament.pk}/" data-testid="wallet-line-link"'
    assert f"<strong>Buy-in</strong> · <a {link}>Friday Knockout</a>" in page
    assert "Into the prize pool, with the house&#x27;s entry fee" in page
    assert f"<strong>Refund</strong> · <a {link}>Friday Knockout</a>" in page
    assert "Your buy-in back" in page
    assert f"tournament:{tournament.pk}" not in page


def test_a_correction_says_what_staff_reversed_and_why(client: Client) -> None:
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno", display_name="Bruno Costa")
    match_id = start_match(alice, bruno, length=3, stake_cents=500)
    ledger.compensate(
        transaction=LedgerTransaction.objects.get(key=f"match:{match_id}:stakes"),
        reason="Played on a broken board",
        staff=UserFactory(role=Role.STAFF),
        key="correct-stakes",
    )
    client.force_login(alice)

    page = client.get("/wallet/").content.decode()

    assert "<strong>Correction</strong> · <a" in page
    assert "Staff reversed a stake: Played on a broken board" in page


def test_the_csv_names_the_match_and_the_tournament_in_the_same_words(client: Client) -> None:
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno", display_name="Bruno Costa")
    start_match(alice, bruno, length=3, stake_cents=500)
    tournament = open_tournament(organizer(), name="Friday Knockout")
    services.entry_register(tournament_id=tournament.pk, user=alice)
    client.force_login(alice)

    rows = list(csv.reader(io.StringIO(client.get("/wallet/export.csv").content.decode())))

    assert [row[3] for row in rows[1:3]] == [
        "Buy-in · Friday Knockout · Into the prize pool, with the house's entry fee",
        "Stake · 3-point match against Bruno Costa"
        " · Held in escrow until the game or match is settled",
    ]


def test_the_wallet_page_reads_the_names_in_the_same_queries_however_many_lines(
    client: Client,
) -> None:
    alice = UserFactory(username="alice")
    client.force_login(alice)
    owner = organizer()

    def play_and_enter(count: int) -> int:
        """Queries the wallet page takes after ``count`` more matches and tournaments."""
        for _ in range(count):
            start_match(alice, UserFactory(), length=1, stake_cents=100)
            entered = open_tournament(owner, name="Friday Knockout")
            services.entry_register(tournament_id=entered.pk, user=alice)
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/wallet/").status_code == 200
        return len(queries)

    assert play_and_enter(1) == play_and_enter(4)


def test_the_navigation_shows_the_real_balance_when_there_is_one(client: Client) -> None:
    alice = UserFactory(username="alice")
    client.force_login(alice)
    assert ">1,000.00 <small>FUN</small>" in client.get("/").content.decode()

    ledger.deposit(
        user=alice,
        currency="REAL",
        amount_cents=2550,
        reason="bank transfer",
        staff=UserFactory(username="sam", role=Role.STAFF),
        key="nav-real",
    )

    assert ">25.50 <small>REAL</small>" in client.get("/").content.decode()
