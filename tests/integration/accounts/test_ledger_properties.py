"""Random sequences of ledger operations, some refused and some rolled back by the caller.

After every step the ledger must agree with a simple model of who holds what: every
currency sums to zero, no player or escrow is below zero, each cached balance equals the
sum of its account's entries, and a refused or rolled-back operation left no trace.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count

import pytest
from django.db import transaction
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts import ledger
from accounts.models import (
    KINDS_WITH_BALANCE,
    AccountKind,
    LedgerAccount,
    LedgerTransaction,
    User,
)
from accounts.roles import Role
from core.errors import DomainError
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = 3
ESCROWS = ("match:1", "match:2", "tournament:1")
CURRENCIES = ("FUN", "REAL")

Label = tuple[str, str]  # (who, currency): ("p0", "FUN"), ("match:1", "REAL"), ("house", ...)


class CallerGaveUp(Exception):
    """Raised by the caller after a ledger call, inside its own atomic block."""


@dataclass
class Step:
    name: str
    args: tuple[int, ...]
    currency: str
    fail_after: bool


@dataclass
class Model:
    held: dict[Label, int] = field(default_factory=lambda: defaultdict(int))
    moves: dict[int, dict[Label, int]] = field(default_factory=dict)
    reversed: set[int] = field(default_factory=set)
    replayable: list[Callable[[], LedgerTransaction]] = field(default_factory=list)

    @classmethod
    def from_database(cls, names: dict[int, str]) -> Model:
        model = cls()
        for account in LedgerAccount.objects.annotate(entries_total=Sum("entries__amount")):
            model.held[_label(account, names)] = account.entries_total or 0
        return model

    def allows(self, legs: dict[Label, int]) -> bool:
        return all(
            self.held[label] + delta >= 0
            for label, delta in legs.items()
            if label[0] not in ("house", "external")
        )


amounts = st.integers(min_value=1, max_value=150000)
player = st.integers(min_value=0, max_value=PLAYERS - 1)
escrow = st.integers(min_value=0, max_value=len(ESCROWS) - 1)
steps = st.one_of(
    st.tuples(st.just("stake"), st.tuples(player, escrow, amounts)),
    st.tuples(st.just("settle"), st.tuples(escrow, player, st.integers(0, 500))),
    st.tuples(st.just("refund"), st.tuples(escrow, player, amounts)),
    st.tuples(st.just("transfer"), st.tuples(player, player, amounts, st.integers(0, 100))),
    st.tuples(st.just("buy_in"), st.tuples(player, amounts, st.integers(0, 5000))),
    st.tuples(st.just("deposit"), st.tuples(player, amounts)),
    st.tuples(st.just("withdraw"), st.tuples(player, amounts)),
    st.tuples(st.just("compensate"), st.tuples(st.integers(0, 30))),
    st.tuples(st.just("replay"), st.tuples(st.integers(0, 30))),
).flatmap(
    lambda named: st.builds(
        Step,
        name=st.just(named[0]),
        args=st.just(named[1]),
        currency=st.sampled_from(CURRENCIES),
        fail_after=st.booleans(),
    )
)


def test_random_operations_keep_the_books_balanced_and_nobody_below_zero() -> None:
    players = [UserFactory() for _ in range(PLAYERS)]
    staff = UserFactory(role=Role.STAFF)
    keys = count()
    names = {user.pk: f"p{index}" for index, user in enumerate(players)}
    names[staff.pk] = "staff"

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.lists(steps, min_size=1, max_size=12))
    def run(sequence: list[Step]) -> None:
        # Each example starts from whatever the earlier ones left in the database.
        model = Model.from_database(names)
        for step in sequence:
            apply(step, players, staff, model, f"k{next(keys)}")
            check_books(model, names)

    run()


def apply(step: Step, players: list[User], staff: User, model: Model, key: str) -> None:
    """Predict the step with the model, make the ledger call, compare what happened."""
    planned = plan(step, players, staff, model, key)
    if planned is None:
        return
    legs, call, refused_as = planned
    allowed = refused_as is None and model.allows(legs)
    refusal: DomainError | None = None
    done: LedgerTransaction | None = None
    try:
        with transaction.atomic():
            done = call()
            if step.fail_after:
                raise CallerGaveUp
    except CallerGaveUp:
        done = None
    except DomainError as error:
        refusal = error
    if not allowed:
        assert refusal is not None, f"{step} should have been refused"
        assert refused_as is None or isinstance(refusal, refused_as), refusal
        return
    assert refusal is None, f"{step} was refused: {refusal}"
    if done is None or step.name == "replay":  # rolled back by the caller, or moved nothing
        return
    if step.name == "compensate":
        model.reversed.add(step_target(step, model))
    for label, delta in legs.items():
        model.held[label] += delta
    model.moves[done.pk] = legs
    model.replayable.append(call)


def plan(
    step: Step, players: list[User], staff: User, model: Model, key: str
) -> tuple[dict[Label, int], Callable[[], LedgerTransaction], type[DomainError] | None] | None:
    c = step.currency
    refused_as: type[DomainError] | None = None
    if step.name == "stake":
        who, where, amount = step.args
        legs = {(f"p{who}", c): -amount, (ESCROWS[where], c): amount}

        def call() -> LedgerTransaction:
            return ledger.escrow_stake(
                user=players[who],
                currency=c,
                amount_cents=amount,
                escrow_ref=ESCROWS[where],
                key=key,
            )

    elif step.name == "settle":
        where, winner, commission = step.args
        held = model.held[(ESCROWS[where], c)]
        if held == 0:
            return None
        commission = min(commission, held)
        legs = {(ESCROWS[where], c): -held, ("house", c): commission}
        legs[(f"p{winner}", c)] = held - commission

        def call() -> LedgerTransaction:
            return ledger.settle_match(
                escrow_ref=ESCROWS[where],
                currency=c,
                payouts={players[winner].pk: held - commission},
                commission_cents=commission,
                key=key,
            )

    elif step.name == "refund":
        where, who, amount = step.args
        legs = {(ESCROWS[where], c): -amount, (f"p{who}", c): amount}

        def call() -> LedgerTransaction:
            return ledger.refund(
                escrow_ref=ESCROWS[where], currency=c, payouts={players[who].pk: amount}, key=key
            )

    elif step.name == "transfer":
        payer, payee, amount, percent = step.args
        if payer == payee:
            return None
        commission = amount * percent // 100
        legs = {
            (f"p{payer}", c): -amount,
            (f"p{payee}", c): amount - commission,
            ("house", c): commission,
        }

        def call() -> LedgerTransaction:
            return ledger.transfer_between_players(
                payer=players[payer],
                payee=players[payee],
                currency=c,
                amount_cents=amount,
                commission_cents=commission,
                key=key,
            )

    elif step.name == "buy_in":
        who, buy_in, fee = step.args
        legs = {(f"p{who}", c): -(buy_in + fee), ("tournament:1", c): buy_in, ("house", c): fee}

        def call() -> LedgerTransaction:
            return ledger.tournament_buy_in(
                user=players[who],
                currency=c,
                buy_in_cents=buy_in,
                fee_cents=fee,
                escrow_ref="tournament:1",
                key=key,
            )

    elif step.name in ("deposit", "withdraw"):
        who, amount = step.args
        sign = 1 if step.name == "deposit" else -1
        legs = {(f"p{who}", c): sign * amount, ("external", c): -sign * amount}
        move = ledger.deposit if step.name == "deposit" else ledger.withdraw

        def call() -> LedgerTransaction:
            return move(
                user=players[who],
                currency=c,
                amount_cents=amount,
                reason="property test",
                staff=staff,
                key=key,
            )

    elif step.name == "compensate":
        if not model.moves:
            return None
        target = step_target(step, model)
        legs = {label: -delta for label, delta in model.moves[target].items()}
        if target in model.reversed:
            refused_as = ledger.Conflict

        def call() -> LedgerTransaction:
            return ledger.compensate(
                transaction=LedgerTransaction.objects.get(pk=target),
                reason="property test",
                staff=staff,
                key=key,
            )

    else:  # replay an earlier successful call with its key: nothing may move
        if not model.replayable:
            return None
        earlier = model.replayable[step.args[0] % len(model.replayable)]
        return {}, earlier, None
    return legs, call, refused_as


def step_target(step: Step, model: Model) -> int:
    ids = sorted(model.moves)
    return ids[step.args[0] % len(ids)]


def check_books(model: Model, names: dict[int, str]) -> None:
    for currency in CURRENCIES:
        assert ledger.currency_total(currency) == 0
    accounts = LedgerAccount.objects.annotate(entries_total=Sum("entries__amount"))
    for account in accounts:
        if account.kind in KINDS_WITH_BALANCE:
            assert account.balance >= 0
            assert account.balance == (account.entries_total or 0), account
        label = _label(account, names)
        assert (account.entries_total or 0) == model.held[label], label


def _label(account: LedgerAccount, names: dict[int, str]) -> Label:
    if account.kind == AccountKind.PLAYER:
        assert account.user_id is not None
        return (names[account.user_id], account.currency)
    if account.kind == AccountKind.ESCROW:
        return (account.escrow_ref, account.currency)
    return (account.kind, account.currency)
