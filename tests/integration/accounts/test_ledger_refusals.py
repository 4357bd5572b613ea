"""What the ledger refuses, in words a player understands, and that a refusal moves nothing."""

from __future__ import annotations

import pytest
from django.db import transaction

from accounts import ledger
from accounts.models import LedgerAccount, LedgerTransaction
from accounts.roles import Role
from core.errors import DomainError, InternalError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_stake_larger_than_the_balance_is_refused_with_both_amounts() -> None:
    player = UserFactory()
    ledger.transfer_between_players(
        payer=player,
        payee=UserFactory(),
        currency="FUN",
        amount_cents=98800,
        commission_cents=0,
        key="lost-most",
    )

    with pytest.raises(ledger.InsufficientFunds) as refusal:
        ledger.escrow_stake(
            user=player, currency="FUN", amount_cents=1500, escrow_ref="match:5", key="stake"
        )

    assert str(refusal.value) == "Your FUN balance is 12.00; this needs 15.00."
    assert refusal.value.status_code == 400
    assert ledger.balance(user=player, currency="FUN") == 1200
    assert ledger.escrow_balance(escrow_ref="match:5", currency="FUN") == 0
    assert not LedgerTransaction.objects.filter(key="stake").exists()


def test_a_refused_key_can_be_used_again_once_the_money_is_there() -> None:
    player = UserFactory()
    with pytest.raises(ledger.InsufficientFunds):
        ledger.escrow_stake(
            user=player, currency="REAL", amount_cents=500, escrow_ref="match:6", key="stake:6"
        )
    ledger.deposit(
        user=player,
        currency="REAL",
        amount_cents=500,
        reason="Card",
        staff=UserFactory(role=Role.STAFF),
        key="card",
    )

    ledger.escrow_stake(
        user=player, currency="REAL", amount_cents=500, escrow_ref="match:6", key="stake:6"
    )

    assert ledger.escrow_balance(escrow_ref="match:6", currency="REAL") == 500


def test_the_same_key_returns_the_first_transaction_and_moves_nothing() -> None:
    alice, bruno = UserFactory(), UserFactory()

    def pay() -> LedgerTransaction:
        return ledger.transfer_between_players(
            payer=bruno,
            payee=alice,
            currency="FUN",
            amount_cents=1000,
            commission_cents=130,
            key="session:4:game:2",
        )

    first, second = pay(), pay()

    assert first.pk == second.pk
    assert ledger.balance(user=bruno, currency="FUN") == 99000


def test_a_key_used_for_another_kind_of_movement_is_a_bug_not_a_replay() -> None:
    player = UserFactory()

    with pytest.raises(InternalError, match="already used for a grant"):
        ledger.escrow_stake(
            user=player,
            currency="FUN",
            amount_cents=100,
            escrow_ref="match:1",
            key=f"grant:{player.pk}",
        )


def test_paying_out_more_than_the_escrow_holds_is_refused() -> None:
    player = UserFactory()
    ledger.escrow_stake(
        user=player, currency="FUN", amount_cents=1000, escrow_ref="match:8", key="s"
    )

    with pytest.raises(ledger.InsufficientFunds, match=r"The escrow match:8 holds 10\.00 FUN"):
        ledger.settle_match(
            escrow_ref="match:8", currency="FUN", payouts={player.pk: 1500}, key="too-much"
        )

    assert ledger.escrow_balance(escrow_ref="match:8", currency="FUN") == 1000


def test_a_failure_later_in_the_callers_transaction_undoes_the_movement() -> None:
    player = UserFactory()

    def start_match() -> None:
        with transaction.atomic():
            ledger.escrow_stake(
                user=player, currency="FUN", amount_cents=700, escrow_ref="match:9", key="stake:9"
            )
            raise RuntimeError("the match could not start")

    with pytest.raises(RuntimeError):
        start_match()

    assert ledger.balance(user=player, currency="FUN") == 100000
    assert not LedgerTransaction.objects.filter(key="stake:9").exists()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda p: ledger.escrow_stake(
                user=p, currency="FUN", amount_cents=0, escrow_ref="m", key="z"
            ),
            "The amount must be at least 0.01.",
        ),
        (
            lambda p: ledger.escrow_stake(
                user=p, currency="GOLD", amount_cents=1, escrow_ref="m", key="g"
            ),
            "Unknown currency 'GOLD': use one of FUN, REAL.",
        ),
        (
            lambda p: ledger.transfer_between_players(
                payer=p, payee=p, currency="FUN", amount_cents=1, commission_cents=0, key="self"
            ),
            "A player cannot pay themselves.",
        ),
    ],
)
def test_malformed_movements_are_refused_in_words(call: object, message: str) -> None:
    with pytest.raises(DomainError) as refusal:
        call(UserFactory())  # type: ignore[operator]

    assert str(refusal.value) == message


def test_a_full_tournament_refuses_the_next_player_and_a_refund_frees_a_seat() -> None:
    first, second, third = UserFactory(), UserFactory(), UserFactory()

    def buy_in(player: object, key: str) -> LedgerTransaction:
        return ledger.tournament_buy_in(
            user=player,  # type: ignore[arg-type]
            currency="FUN",
            buy_in_cents=1000,
            fee_cents=65,
            escrow_ref="tournament:2",
            key=key,
            max_entries=2,
        )

    buy_in(first, "t2:first")
    buy_in(second, "t2:second")
    with pytest.raises(ledger.TournamentFull, match="all 2 seats are taken"):
        buy_in(third, "t2:third")
    with pytest.raises(ledger.Conflict, match="already entered"):
        buy_in(first, "t2:first-again")

    ledger.refund(
        escrow_ref="tournament:2", currency="FUN", payouts={second.pk: 1000}, key="t2:refund"
    )
    buy_in(third, "t2:third-retry")

    assert ledger.balance(user=third, currency="FUN") == 100000 - 1065
    assert ledger.escrow_balance(escrow_ref="tournament:2", currency="FUN") == 2000


def test_a_caller_may_catch_a_refusal_and_go_on_in_the_same_transaction() -> None:
    player = UserFactory()

    with transaction.atomic():
        with pytest.raises(ledger.InsufficientFunds):
            ledger.escrow_stake(
                user=player, currency="FUN", amount_cents=500000, escrow_ref="match:3", key="big"
            )
        ledger.escrow_stake(
            user=player, currency="FUN", amount_cents=500, escrow_ref="match:3", key="small"
        )

    assert ledger.balance(user=player, currency="FUN") == 100000 - 500
    assert ledger.escrow_balance(escrow_ref="match:3", currency="FUN") == 500
    assert not LedgerTransaction.objects.filter(key="big").exists()


def test_a_refused_stake_into_a_new_escrow_leaves_no_escrow_behind() -> None:
    player = UserFactory()

    with transaction.atomic(), pytest.raises(ledger.InsufficientFunds):
        ledger.escrow_stake(
            user=player, currency="REAL", amount_cents=100, escrow_ref="match:4", key="s4"
        )

    assert not LedgerAccount.objects.filter(escrow_ref="match:4").exists()
    assert not LedgerAccount.objects.filter(user=player, currency="REAL").exists()


def test_a_replayed_stake_is_answered_even_once_the_money_has_moved_on() -> None:
    # given a stake, after which the player lost nearly everything
    player = UserFactory()
    first = ledger.escrow_stake(
        user=player, currency="FUN", amount_cents=1000, escrow_ref="match:5", key="stake:5"
    )
    ledger.transfer_between_players(
        payer=player,
        payee=UserFactory(),
        currency="FUN",
        amount_cents=98900,
        commission_cents=0,
        key="lost",
    )

    # when the stake is asked for again with its key
    again = ledger.escrow_stake(
        user=player, currency="FUN", amount_cents=1000, escrow_ref="match:5", key="stake:5"
    )

    # then it is the first one, and nothing moved
    assert again.pk == first.pk
    assert ledger.balance(user=player, currency="FUN") == 100
    assert ledger.escrow_balance(escrow_ref="match:5", currency="FUN") == 1000


def test_a_replayed_buy_in_is_answered_even_once_the_tournament_is_full() -> None:
    first, second = UserFactory(), UserFactory()

    def buy_in(player: object, key: str) -> LedgerTransaction:
        return ledger.tournament_buy_in(
            user=player,  # type: ignore[arg-type]
            currency="FUN",
            buy_in_cents=1000,
            fee_cents=65,
            escrow_ref="tournament:9",
            key=key,
            max_entries=2,
        )

    entered = buy_in(first, "t9:first")
    buy_in(second, "t9:second")

    assert buy_in(first, "t9:first").pk == entered.pk
    assert ledger.balance(user=first, currency="FUN") == 100000 - 1065
