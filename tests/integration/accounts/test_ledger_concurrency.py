"""Many players at once on PostgreSQL: seats are never oversold, no settlement is paid twice.

Each thread has its own database connection, as separate web or worker processes would.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest
from django.db import connection, transaction

from accounts import ledger
from accounts.models import LedgerTransaction, User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

T = TypeVar("T")


def run_at_once(calls: list[Callable[[], T]]) -> list[T | Exception]:
    """Run every call in its own thread, released together; collect results or errors."""
    barrier = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T | Exception:
        try:
            barrier.wait()
            return call()
        except Exception as error:
            return error
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def test_forty_players_buying_eight_seats_at_once_fill_exactly_eight() -> None:
    # given forty players and a Sit & Go with eight seats
    players = [UserFactory() for _ in range(40)]
    total_before = ledger.currency_total("FUN")

    def buy_in(player: User) -> Callable[[], LedgerTransaction]:
        return lambda: ledger.tournament_buy_in(
            user=player,
            currency="FUN",
            buy_in_cents=1000,
            fee_cents=65,
            escrow_ref="tournament:1",
            key=f"tournament:1:buy-in:{player.pk}",
            max_entries=8,
        )

    # when they all buy in at the same moment
    results = run_at_once([buy_in(player) for player in players])

    # then eight are seated and thirty-two are told, and no money appeared or vanished
    seated = [r for r in results if isinstance(r, LedgerTransaction)]
    refused = [r for r in results if isinstance(r, ledger.TournamentFull)]
    assert len(seated) == 8
    assert len(refused) == 32
    assert {str(error) for error in refused} == {"The tournament is full: all 8 seats are taken."}
    assert ledger.escrow_balance(escrow_ref="tournament:1", currency="FUN") == 8 * 1000
    assert ledger.house_balance("FUN") == 8 * 65
    balances = sorted(ledger.balance(user=p, currency="FUN") for p in players)
    assert balances == [100000 - 1065] * 8 + [100000] * 32
    assert ledger.currency_total("FUN") == total_before == 0


def test_two_settlements_of_one_match_at_once_pay_only_once() -> None:
    # given a 10.00 match with both stakes in escrow
    alice, bruno = UserFactory(), UserFactory()
    for player in (alice, bruno):
        ledger.escrow_stake(
            user=player,
            currency="FUN",
            amount_cents=1000,
            escrow_ref="match:7",
            key=f"match:7:stake:{player.pk}",
        )

    def settle() -> LedgerTransaction:
        return ledger.settle_match(
            escrow_ref="match:7",
            currency="FUN",
            payouts={alice.pk: 1870},
            commission_cents=130,
            key="match:7:pot",
        )

    # when two workers settle it at the same moment
    first, second = run_at_once([settle, settle])

    # then both see the one settlement, and it was paid once
    assert isinstance(first, LedgerTransaction)
    assert isinstance(second, LedgerTransaction)
    assert first.pk == second.pk
    assert LedgerTransaction.objects.filter(key="match:7:pot").count() == 1
    assert ledger.balance(user=alice, currency="FUN") == 100000 + 870
    assert ledger.balance(user=bruno, currency="FUN") == 100000 - 1000
    assert ledger.escrow_balance(escrow_ref="match:7", currency="FUN") == 0
    assert ledger.house_balance("FUN") == 130


def test_money_games_settling_in_both_directions_at_once_never_deadlock() -> None:
    players = [UserFactory() for _ in range(4)]
    rng = random.Random(11)
    pairs = [rng.sample(players, 2) for _ in range(24)]

    def pay(index: int, payer: User, payee: User) -> Callable[[], LedgerTransaction]:
        return lambda: ledger.transfer_between_players(
            payer=payer,
            payee=payee,
            currency="FUN",
            amount_cents=500,
            commission_cents=66,
            key=f"crossing:{index}",
        )

    results = run_at_once([pay(i, a, b) for i, (a, b) in enumerate(pairs)])

    assert all(isinstance(result, LedgerTransaction) for result in results), results
    assert sum(ledger.balance(user=p, currency="FUN") for p in players) == 4 * 100000 - 24 * 66
    assert ledger.house_balance("FUN") == 24 * 66
    assert ledger.currency_total("FUN") == 0


def test_stakes_racing_for_one_balance_take_only_what_is_there() -> None:
    # given a player with 1,000.00 and four matches of 400.00 starting at once
    player = UserFactory()

    def stake(match: int) -> Callable[[], LedgerTransaction]:
        return lambda: ledger.escrow_stake(
            user=player,
            currency="FUN",
            amount_cents=40000,
            escrow_ref=f"match:{match}",
            key=f"match:{match}:stake",
        )

    # when all four stakes are taken at the same moment
    results = run_at_once([stake(match) for match in range(4)])

    # then two are paid, and the other two were refused with the balance they waited for
    paid = [r for r in results if isinstance(r, LedgerTransaction)]
    refused = [r for r in results if isinstance(r, ledger.InsufficientFunds)]
    assert len(paid) == 2
    assert len(refused) == 2
    assert {str(error) for error in refused} == {"Your FUN balance is 200.00; this needs 400.00."}
    assert ledger.balance(user=player, currency="FUN") == 20000
    assert sum(
        ledger.escrow_balance(escrow_ref=f"match:{m}", currency="FUN") for m in range(4)
    ) == (80000)
    assert ledger.currency_total("FUN") == 0


def test_the_house_is_never_a_lock_that_payments_wait_on() -> None:
    # given a house that has taken commission before
    alice, bruno, carla, dario = (UserFactory() for _ in range(4))
    ledger.transfer_between_players(
        payer=bruno,
        payee=alice,
        currency="FUN",
        amount_cents=1000,
        commission_cents=130,
        key="session:0:game:1",
    )
    # and a money game whose settlement, commission included, is not committed yet
    settled, finish = threading.Event(), threading.Event()

    def slow_settlement() -> None:
        try:
            with transaction.atomic():
                ledger.transfer_between_players(
                    payer=alice,
                    payee=bruno,
                    currency="FUN",
                    amount_cents=1000,
                    commission_cents=130,
                    key="session:1:game:1",
                )
                settled.set()
                finish.wait(timeout=10)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        first = pool.submit(slow_settlement)
        assert settled.wait(timeout=10)

        # when another game pays commission meanwhile, refusing to wait for any lock
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '1s'")
                ledger.transfer_between_players(
                    payer=carla,
                    payee=dario,
                    currency="FUN",
                    amount_cents=1000,
                    commission_cents=130,
                    key="session:2:game:1",
                )
        finally:
            finish.set()
            first.result()

    # then both are paid
    assert ledger.house_balance("FUN") == 3 * 130
    assert ledger.balance(user=dario, currency="FUN") == 100000 + 870
