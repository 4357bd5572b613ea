"""Each ledger operation moves exactly what it says, and every currency still sums to zero."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager

import pytest

from accounts import ledger
from accounts.models import Currency, LedgerTransaction, TransactionKind, WalletAdjustment
from accounts.roles import Role
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_stake_goes_into_escrow_and_a_settlement_pays_the_winner_less_commission() -> None:
    # given two players who each stake 10.00 on match 12
    alice, bruno = UserFactory(), UserFactory()
    for player in (alice, bruno):
        ledger.escrow_stake(
            user=player,
            currency="FUN",
            amount_cents=1000,
            escrow_ref="match:12",
            key=f"stake:12:{player.pk}",
        )
    assert ledger.escrow_balance(escrow_ref="match:12", currency="FUN") == 2000

    # when alice wins and pays the commission for both players
    settlement = ledger.settle_match(
        escrow_ref="match:12",
        currency="FUN",
        payouts={alice.pk: 2000 - 130},
        commission_cents=130,
        key="settle:12",
    )

    # then
    assert settlement.kind == TransactionKind.SETTLEMENT
    assert ledger.balance(user=alice, currency="FUN") == 100000 + 870
    assert ledger.balance(user=bruno, currency="FUN") == 100000 - 1000
    assert ledger.escrow_balance(escrow_ref="match:12", currency="FUN") == 0
    assert ledger.house_balance("FUN") == 130
    assert ledger.currency_total("FUN") == 0


def test_a_money_game_settles_directly_between_the_players() -> None:
    winner, loser = UserFactory(), UserFactory()

    ledger.transfer_between_players(
        payer=loser,
        payee=winner,
        currency="FUN",
        amount_cents=1000,
        commission_cents=130,
        key="session:1:game:1",
    )

    assert ledger.balance(user=loser, currency="FUN") == 100000 - 1000
    assert ledger.balance(user=winner, currency="FUN") == 100000 + 870
    assert ledger.house_balance("FUN") == 130
    assert ledger.currency_total("FUN") == 0


def test_a_refund_and_prizes_come_out_of_the_escrow() -> None:
    players = [UserFactory() for _ in range(3)]
    for player in players:
        ledger.tournament_buy_in(
            user=player,
            currency="FUN",
            buy_in_cents=1000,
            fee_cents=65,
            escrow_ref="tournament:3",
            key=f"buy-in:3:{player.pk}",
        )

    ledger.refund(
        escrow_ref="tournament:3", currency="FUN", payouts={players[2].pk: 1000}, key="refund:3:2"
    )
    ledger.prize_payout(
        escrow_ref="tournament:3",
        currency="FUN",
        payouts={players[0].pk: 1400, players[1].pk: 600},
        key="prizes:3",
    )

    assert [ledger.balance(user=p, currency="FUN") for p in players] == [
        100000 - 1065 + 1400,
        100000 - 1065 + 600,
        100000 - 65,
    ]
    assert ledger.escrow_balance(escrow_ref="tournament:3", currency="FUN") == 0
    assert ledger.house_balance("FUN") == 3 * 65
    assert ledger.currency_total("FUN") == 0


def test_staff_deposits_and_withdrawals_are_audited_with_both_balances() -> None:
    player, staff = UserFactory(), UserFactory(role=Role.STAFF)

    ledger.deposit(
        user=player,
        currency="REAL",
        amount_cents=5000,
        reason="Bank transfer 1234",
        staff=staff,
        key="deposit:1",
    )
    ledger.withdraw(
        user=player,
        currency="REAL",
        amount_cents=1250,
        reason="Paid out by PayPal",
        staff=staff,
        key="withdraw:1",
    )

    assert ledger.balances(user=player) == {"FUN": 100000, "REAL": 3750}
    audit = [
        (a.direction, a.amount_cents, a.balance_before, a.balance_after, a.reason, a.staff)
        for a in WalletAdjustment.objects.filter(user=player).order_by("pk")
    ]
    assert audit == [
        ("deposit", 5000, 0, 5000, "Bank transfer 1234", staff),
        ("withdraw", 1250, 5000, 3750, "Paid out by PayPal", staff),
    ]
    assert ledger.currency_total("REAL") == 0


def test_a_correction_reverses_a_transaction_once() -> None:
    winner, loser = UserFactory(), UserFactory()
    staff = UserFactory(role=Role.STAFF)
    wrong = ledger.transfer_between_players(
        payer=loser,
        payee=winner,
        currency="FUN",
        amount_cents=1000,
        commission_cents=130,
        key="session:9",
    )

    correction = ledger.compensate(
        transaction=wrong, reason="Dispute 4: result reversed", staff=staff, key="fix:session:9"
    )

    assert correction.reverses == wrong
    assert correction.created_by == staff
    assert ledger.balance(user=winner, currency="FUN") == 100000
    assert ledger.balance(user=loser, currency="FUN") == 100000
    assert ledger.house_balance("FUN") == 0
    with pytest.raises(ledger.Conflict, match="already been corrected"):
        ledger.compensate(transaction=wrong, reason="again", staff=staff, key="fix:again")


def test_history_shows_each_entry_with_the_balance_it_left_newest_first() -> None:
    winner, loser = UserFactory(), UserFactory()
    for game in range(3):
        ledger.transfer_between_players(
            payer=loser,
            payee=winner,
            currency="FUN",
            amount_cents=200,
            commission_cents=26,
            key=f"session:2:game:{game}",
        )

    lines = ledger.history(user=winner, currency="FUN")

    assert [(line.amount, line.balance_after) for line in lines] == [
        (174, 100522),
        (174, 100348),
        (174, 100174),
        (100000, 100000),
    ]
    assert lines[-1].kind == TransactionKind.GRANT
    assert ledger.history(user=winner, currency=Currency.REAL) == []


def test_every_transaction_is_kept_with_its_key() -> None:
    player = UserFactory()

    assert LedgerTransaction.objects.get(key=f"grant:{player.pk}").kind == TransactionKind.GRANT


def test_a_settlement_is_one_statement_and_a_capped_buy_in_three(
    django_assert_num_queries: Callable[[int], AbstractContextManager[object]],
) -> None:
    # Round trips are most of what a movement costs (bench/bench_ledger.py).
    alice, bruno = UserFactory(), UserFactory()
    for player in (alice, bruno):
        ledger.escrow_stake(
            user=player,
            currency="FUN",
            amount_cents=1000,
            escrow_ref="match:1",
            key=f"s{player.pk}",
        )
    ledger.tournament_buy_in(
        user=alice,
        currency="FUN",
        buy_in_cents=1000,
        fee_cents=65,
        escrow_ref="tournament:1",
        key="t1:alice",
        max_entries=8,
    )

    with django_assert_num_queries(1):  # lock, check, key, balances and entries
        ledger.settle_match(
            escrow_ref="match:1",
            currency="FUN",
            payouts={alice.pk: 1870},
            commission_cents=130,
            key="settle:1",
        )
    with django_assert_num_queries(3):  # lock, count the seats, then as above
        ledger.tournament_buy_in(
            user=bruno,
            currency="FUN",
            buy_in_cents=1000,
            fee_cents=65,
            escrow_ref="tournament:1",
            key="t1:bruno",
            max_entries=8,
        )

    assert ledger.balance(user=alice, currency="FUN") == 100000 - 1000 + 1870 - 1065
    assert ledger.balance(user=bruno, currency="FUN") == 100000 - 1000 - 1065
    assert ledger.escrow_balance(escrow_ref="tournament:1", currency="FUN") == 2000
    assert ledger.house_balance("FUN") == 130 + 2 * 65
