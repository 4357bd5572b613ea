"""The one module that moves money (its reads, in ``accounts.ledger_reads``, are here too).

Every movement is a ledger transaction whose entries sum to zero per currency (see
``accounts.models`` for the accounts). Amounts are integer cents.

Each write:

* takes an idempotency ``key``: calling again with the same key returns the original
  transaction and moves nothing. The key is unique in the database; when two callers
  insert the same key at once, the second waits for the first, then gets its
  transaction (or, if the first rolled back, goes ahead itself);
* runs in the caller's transaction, or in one of its own when there is none. A refusal
  (``DomainError``) is raised before anything is written, so the caller may catch it and
  go on; a failure later in the caller's block undoes the movement with the rest;
* locks, in primary-key order, every player and escrow account it touches, checks that
  none would go below zero (a refusal a player can understand, ``InsufficientFunds``),
  then writes the transaction, the entries and the cached balances. The database refuses
  a negative balance on its own (a check constraint) and, on PostgreSQL, entries that do
  not sum to zero (a trigger). How, in how few statements: ``accounts.ledger_posting``.

The house and external accounts keep no cached balance and are never locked: their
balance is the sum of their entries (``house_balance``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.db import connection, transaction

from accounts.commission import money
from accounts.ledger_posting import (
    InsufficientFunds,
    Leg,
    escrow,
    external,
    house,
    player,
    post,
    ref_of,
)
from accounts.ledger_reads import (
    HistoryLine,
    balance,
    balances,
    currency_total,
    escrow_balance,
    history,
    house_balance,
    seats,
)
from accounts.models import (
    MAX_AMOUNT_CENTS,
    AdjustmentDirection,
    Currency,
    LedgerTransaction,
    TransactionKind,
    User,
)
from accounts.standing import require_may_withdraw
from accounts.wallet_adjustments import AdjustmentAsked, adjustment_key, post_adjustment
from core.errors import Conflict, DomainError, Forbidden, InternalError

__all__ = [
    "ADJUST_PERMISSION",
    "Conflict",
    "Forbidden",
    "HistoryLine",
    "InsufficientFunds",
    "TournamentFull",
    "adjustment_key",
    "balance",
    "balances",
    "check_adjustment",
    "compensate",
    "currency_total",
    "deposit",
    "escrow_balance",
    "escrow_stake",
    "grant",
    "history",
    "house_balance",
    "prize_payout",
    "refund",
    "settle_match",
    "tournament_buy_in",
    "transfer_between_players",
    "withdraw",
]

ADJUST_PERMISSION = "accounts.adjust_wallets"

P = ParamSpec("P")
R = TypeVar("R")


class TournamentFull(Conflict):
    """Every seat of the tournament is taken; nothing was moved."""


def _whole(write: Callable[P, R]) -> Callable[P, R]:
    """Make ``write`` all or nothing, on SQLite as on PostgreSQL.

    On PostgreSQL a posting already is: one statement, or a transaction of its own
    (a savepoint inside the caller's) where it takes several, with every refusal raised
    before the first write; and a statement that fails dooms the caller's transaction,
    so nothing half-done is ever committed. SQLite lets a transaction go on after a failed
    statement, so there each write runs in ``transaction.atomic``.
    """

    @functools.wraps(write)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.vendor == "postgresql":
            return write(*args, **kwargs)
        with transaction.atomic():
            return write(*args, **kwargs)

    return run


# Writes ----------------------------------------------------------------------------


@_whole
def grant(*, user: User, key: str, amount_cents: int | None = None) -> LedgerTransaction:
    """Give a new player their play money (``CRAWFORD_FUN_GRANT_CENTS`` unless told)."""
    amount = settings.CRAWFORD_FUN_GRANT_CENTS if amount_cents is None else amount_cents
    _require_amount(amount)
    return post(
        key=key,
        kind=TransactionKind.GRANT,
        memo="Welcome to Crawford: play money to start with",
        legs=[(external(Currency.FUN), -amount), (player(user.pk, Currency.FUN), amount)],
        actor=user,
    ).transaction


@_whole
def deposit(
    *,
    user: User,
    currency: str,
    amount_cents: int,
    reason: str,
    staff: User,
    key: str,
    approved_by: User | None = None,
) -> LedgerTransaction:
    """Staff put money into a player's wallet, with a reason; audited."""
    asked = check_adjustment(
        user=user,
        currency=currency,
        amount_cents=amount_cents,
        direction=AdjustmentDirection.DEPOSIT,
        reason=reason,
        staff=staff,
        approved_by=approved_by,
    )
    return post_adjustment(asked, key=key)


@_whole
def withdraw(
    *,
    user: User,
    currency: str,
    amount_cents: int,
    reason: str,
    staff: User,
    key: str,
    approved_by: User | None = None,
) -> LedgerTransaction:
    """Staff take money out of a player's wallet, with a reason; audited. Nothing is paid
    out of a suspended account until its review is over (``accounts.standing``)."""
    require_may_withdraw(user)
    asked = check_adjustment(
        user=user,
        currency=currency,
        amount_cents=amount_cents,
        direction=AdjustmentDirection.WITHDRAW,
        reason=reason,
        staff=staff,
        approved_by=approved_by,
    )
    return post_adjustment(asked, key=key)


@_whole
def escrow_stake(
    *, user: User, currency: str, amount_cents: int, escrow_ref: str, key: str
) -> LedgerTransaction:
    """A player puts a stake into a match's (or tournament's) escrow."""
    currency = _currency(currency)
    _require_amount(amount_cents)
    return post(
        key=key,
        kind=TransactionKind.STAKE,
        memo=f"Stake for {escrow_ref}",
        escrow_ref=escrow_ref,
        legs=[
            (player(user.pk, currency), -amount_cents),
            (escrow(escrow_ref, currency), amount_cents),
        ],
        actor=user,
    ).transaction


@_whole
def escrow_stakes(
    *, users: Sequence[User], currency: str, amount_cents: int, escrow_ref: str, key: str
) -> LedgerTransaction:
    """Each of ``users`` puts the same stake into a match's escrow, in one transaction: their
    accounts are locked together, in primary-key order, so two matches between the same
    players that start at once never wait on each other in a circle. A shortfall names the
    player whose balance is short (the caller knows who reads it)."""
    currency = _currency(currency)
    _require_amount(amount_cents)
    legs = [(player(user.pk, currency), -amount_cents) for user in users]
    return post(
        key=key,
        kind=TransactionKind.STAKE,
        memo=f"Stakes for {escrow_ref}",
        escrow_ref=escrow_ref,
        legs=[*legs, (escrow(escrow_ref, currency), amount_cents * len(users))],
        actor=None,
    ).transaction


@_whole
def settle_match(
    *,
    escrow_ref: str,
    currency: str,
    payouts: dict[int, int],
    commission_cents: int = 0,
    key: str,
) -> LedgerTransaction:
    """Pay a finished match's stakes to the players, less the house's commission."""
    return _release(
        kind=TransactionKind.SETTLEMENT,
        memo=f"Settlement of {escrow_ref}",
        escrow_ref=escrow_ref,
        currency=currency,
        payouts=payouts,
        commission_cents=commission_cents,
        key=key,
    )


@_whole
def refund(
    *,
    escrow_ref: str,
    currency: str,
    payouts: dict[int, int],
    key: str,
    fees: dict[int, int] | None = None,
) -> LedgerTransaction:
    """Give stakes or buy-ins back, and with ``fees`` the house's fees too (the player did
    nothing wrong); a refunded tournament entrant no longer holds a seat."""
    fees = fees or {}
    return _release(
        kind=TransactionKind.REFUND,
        memo=f"Refund from {escrow_ref}",
        escrow_ref=escrow_ref,
        currency=currency,
        payouts={pk: payouts.get(pk, 0) + fees.get(pk, 0) for pk in {*payouts, *fees}},
        commission_cents=-sum(fees.values()),
        key=key,
    )


@_whole
def prize_payout(
    *, escrow_ref: str, currency: str, payouts: dict[int, int], key: str
) -> LedgerTransaction:
    """Pay a tournament's prizes out of its prize pool."""
    return _release(
        kind=TransactionKind.PRIZE,
        memo=f"Prize from {escrow_ref}",
        escrow_ref=escrow_ref,
        currency=currency,
        payouts=payouts,
        commission_cents=0,
        key=key,
    )


@_whole
def transfer_between_players(
    *,
    payer: User,
    payee: User,
    currency: str,
    amount_cents: int,
    commission_cents: int,
    key: str,
) -> LedgerTransaction:
    """Settle a money game directly: the loser pays, the winner gets it less commission."""
    currency = _currency(currency)
    _require_amount(amount_cents)
    if payer.pk == payee.pk:
        raise DomainError("A player cannot pay themselves.")
    if not 0 <= commission_cents <= amount_cents:
        raise InternalError(f"commission {commission_cents} outside 0..{amount_cents}")
    return post(
        key=key,
        kind=TransactionKind.TRANSFER,
        memo=f"Money game: {_name(payer)} paid {_name(payee)}",
        legs=[
            (player(payer.pk, currency), -amount_cents),
            (player(payee.pk, currency), amount_cents - commission_cents),
            (house(currency), commission_cents),
        ],
        actor=payer,
    ).transaction


@_whole
def tournament_buy_in(
    *,
    user: User,
    currency: str,
    buy_in_cents: int,
    fee_cents: int,
    escrow_ref: str,
    key: str,
    max_entries: int | None = None,
) -> LedgerTransaction:
    """Enter a tournament: the buy-in to its escrow, the fee to the house, at once.

    With ``max_entries``, the seats are counted under the lock of the escrow account,
    so however many players buy in at once, no more than ``max_entries`` hold a seat. A
    player holds a seat from their buy-in until a ``refund`` from this escrow (or a
    correction of the buy-in).
    """
    currency = _currency(currency)
    if buy_in_cents < 0 or fee_cents < 0:
        raise DomainError("A buy-in and a fee cannot be negative.")
    _require_amount(buy_in_cents + fee_cents)
    pool = escrow(escrow_ref, currency)

    def check_seats() -> None:
        if max_entries is None:
            return
        seated, entered = seats(escrow_ref=escrow_ref, currency=currency, user=user)
        if entered:
            raise Conflict("You are already entered in this tournament.")
        if seated >= max_entries:
            raise TournamentFull(f"The tournament is full: all {max_entries} seats are taken.")

    return post(
        key=key,
        kind=TransactionKind.BUY_IN,
        memo=f"Buy-in to {escrow_ref}",
        escrow_ref=escrow_ref,
        legs=[
            (player(user.pk, currency), -(buy_in_cents + fee_cents)),
            (pool, buy_in_cents),
            (house(currency), fee_cents),
        ],
        # Uncapped, nothing is counted: the one-statement posting locks what moves.
        lock_also=[pool] if max_entries is not None else [],
        check=check_seats if max_entries is not None else None,
        actor=user,
    ).transaction


@_whole
def compensate(
    *, transaction: LedgerTransaction, reason: str, staff: User, key: str
) -> LedgerTransaction:
    """Staff reverse a transaction with entries of the opposite sign, with a reason."""
    _require_staff(staff)
    reason = _require_reason(reason)
    original = transaction
    legs = [
        (ref_of(entry.account), -entry.amount)
        for entry in original.entries.select_related("account").order_by("pk")
    ]
    return post(
        key=key,
        kind=TransactionKind.COMPENSATION,
        memo=f"Correction of {original.get_kind_display().lower()} #{original.pk}: {reason}",
        escrow_ref=original.escrow_ref,
        legs=legs,
        created_by=staff,
        reverses=original,
        actor=staff,
    ).transaction


# Helpers ---------------------------------------------------------------------------


def _release(
    *,
    kind: TransactionKind,
    memo: str,
    escrow_ref: str,
    currency: str,
    payouts: dict[int, int],
    commission_cents: int,
    key: str,
) -> LedgerTransaction:
    currency = _currency(currency)
    fee_back = commission_cents < 0 and kind == TransactionKind.REFUND  # the house gives back
    if (commission_cents < 0 and not fee_back) or any(c < 0 for c in payouts.values()):
        raise DomainError("A payout cannot be negative.")
    total = sum(payouts.values()) + commission_cents
    _require_amount(total)
    legs: list[Leg] = [(escrow(escrow_ref, currency), -total)]
    legs.extend((player(user_id, currency), cents) for user_id, cents in payouts.items())
    legs.append((house(currency), commission_cents))
    return post(
        key=key, kind=kind, memo=memo, escrow_ref=escrow_ref, legs=legs, actor=None
    ).transaction


def check_adjustment(
    *,
    user: User,
    currency: str,
    amount_cents: int,
    direction: AdjustmentDirection,
    reason: str,
    staff: User,
    approved_by: User | None = None,
) -> AdjustmentAsked:
    """A staff adjustment as asked, once it is one that may be made.

    Nobody adjusts their own wallet, nor approves their own request: money a staff member
    could move to themselves alone is money the site could lose without anyone noticing.
    """
    _require_staff(staff)
    if user.pk == staff.pk:
        raise DomainError("Staff cannot adjust their own wallet: another staff member must do it.")
    if approved_by is not None:
        _require_staff(approved_by)
        if approved_by.pk in (staff.pk, user.pk):
            raise Forbidden("A second staff member approves, not the one who asked or the owner.")
    _require_amount(amount_cents)
    return AdjustmentAsked(
        user=user,
        currency=_currency(currency),
        amount_cents=amount_cents,
        direction=direction,
        reason=_require_reason(reason),
        staff=staff,
        approved_by=approved_by,
    )


def _name(user: User) -> str:
    return user.profile.display_name


def _currency(currency: str) -> str:
    if currency not in Currency.values:
        raise DomainError(
            f"Unknown currency {currency[:12]!r}: use one of {', '.join(Currency.values)}."
        )
    return currency


def _require_amount(amount_cents: int) -> None:
    if amount_cents <= 0:
        raise DomainError("The amount must be at least 0.01.")
    if amount_cents > MAX_AMOUNT_CENTS:
        raise DomainError(f"The amount must be at most {money(MAX_AMOUNT_CENTS)}.")


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise DomainError("Give a reason: it is kept in the audit log.")
    return reason


def _require_staff(staff: User) -> None:
    if not staff.has_perm(ADJUST_PERMISSION):
        raise Forbidden("Only staff who may adjust wallets can do this.")
