"""The one module that moves money.

Every movement is a ledger transaction whose entries sum to zero per currency (see
``accounts.models`` for the accounts). Amounts are integer cents.

Each write:

* takes an idempotency ``key``: calling again with the same key returns the original
  transaction and moves nothing. The key is unique in the database; when two callers
  insert the same key at once, the second waits for the first, then gets its
  transaction (or, if the first rolled back, goes ahead itself);
* runs in ``transaction.atomic`` (a savepoint inside the caller's transaction), so a
  refusal or a failure later in the caller's block leaves no trace;
* locks, with ``select_for_update()`` in primary-key order, every player and escrow
  account it touches, checks that none would go below zero (a refusal a player can
  understand, ``InsufficientFunds``), then writes the entries and moves the cached
  balances with ``F()`` expressions. The database refuses a negative balance on its own
  (a check constraint) and, on PostgreSQL, a transaction whose entries do not sum to zero
  (a deferred constraint trigger).

The house and external accounts keep no cached balance and are never locked: their
balance is the sum of their entries (``house_balance``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Q, Sum

from accounts.commission import money
from accounts.models import (
    KINDS_WITH_BALANCE,
    AccountKind,
    AdjustmentDirection,
    Currency,
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    TransactionKind,
    User,
    WalletAdjustment,
)
from config.errors import Conflict, DomainError, Forbidden, InternalError

ADJUST_PERMISSION = "accounts.adjust_wallets"


class InsufficientFunds(DomainError):
    """An account would go below zero; nothing was moved."""


class TournamentFull(Conflict):
    """Every seat of the tournament is taken; nothing was moved."""


@dataclass(frozen=True)
class HistoryLine:
    """One entry of a player's wallet, with the balance it left."""

    transaction_id: int
    created_at: datetime
    currency: str
    kind: str
    description: str
    memo: str
    amount: int
    balance_after: int


# Writes ----------------------------------------------------------------------------


@transaction.atomic
def grant(*, user: User, key: str, amount_cents: int | None = None) -> LedgerTransaction:
    """Give a new player their play money (``CRAWFORD_FUN_GRANT_CENTS`` unless told)."""
    amount = settings.CRAWFORD_FUN_GRANT_CENTS if amount_cents is None else amount_cents
    _require_positive(amount)
    return _post(
        key=key,
        kind=TransactionKind.GRANT,
        memo="Welcome to Crawford: play money to start with",
        legs=[
            (_external(Currency.FUN), -amount),
            (_player_account(user.pk, Currency.FUN), amount),
        ],
        actor=user,
    ).transaction


@transaction.atomic
def deposit(
    *, user: User, currency: str, amount_cents: int, reason: str, staff: User, key: str
) -> LedgerTransaction:
    """Staff put money into a player's wallet, with a reason; audited."""
    return _adjust(
        user=user,
        currency=currency,
        amount_cents=amount_cents,
        direction=AdjustmentDirection.DEPOSIT,
        reason=reason,
        staff=staff,
        key=key,
    )


@transaction.atomic
def withdraw(
    *, user: User, currency: str, amount_cents: int, reason: str, staff: User, key: str
) -> LedgerTransaction:
    """Staff take money out of a player's wallet, with a reason; audited."""
    return _adjust(
        user=user,
        currency=currency,
        amount_cents=amount_cents,
        direction=AdjustmentDirection.WITHDRAW,
        reason=reason,
        staff=staff,
        key=key,
    )


@transaction.atomic
def escrow_stake(
    *, user: User, currency: str, amount_cents: int, escrow_ref: str, key: str
) -> LedgerTransaction:
    """A player puts a stake into a match's (or tournament's) escrow."""
    currency = _currency(currency)
    _require_positive(amount_cents)
    return _post(
        key=key,
        kind=TransactionKind.STAKE,
        memo=f"Stake for {escrow_ref}",
        escrow_ref=escrow_ref,
        legs=[
            (_player_account(user.pk, currency), -amount_cents),
            (_escrow_account(escrow_ref, currency), amount_cents),
        ],
        actor=user,
    ).transaction


@transaction.atomic
def escrow_release(
    *,
    escrow_ref: str,
    currency: str,
    payouts: dict[int, int],
    commission_cents: int = 0,
    key: str,
) -> LedgerTransaction:
    """Pay out of an escrow: ``payouts`` maps user ids to cents; commission to the house."""
    return _release(
        kind=TransactionKind.RELEASE,
        memo=f"Paid out of {escrow_ref}",
        escrow_ref=escrow_ref,
        currency=currency,
        payouts=payouts,
        commission_cents=commission_cents,
        key=key,
    )


@transaction.atomic
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


@transaction.atomic
def refund(
    *, escrow_ref: str, currency: str, payouts: dict[int, int], key: str
) -> LedgerTransaction:
    """Give stakes or buy-ins back; a refunded tournament entrant no longer holds a seat."""
    return _release(
        kind=TransactionKind.REFUND,
        memo=f"Refund from {escrow_ref}",
        escrow_ref=escrow_ref,
        currency=currency,
        payouts=payouts,
        commission_cents=0,
        key=key,
    )


@transaction.atomic
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


@transaction.atomic
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
    _require_positive(amount_cents)
    if payer.pk == payee.pk:
        raise DomainError("A player cannot pay themselves.")
    if not 0 <= commission_cents <= amount_cents:
        raise InternalError(f"commission {commission_cents} outside 0..{amount_cents}")
    return _post(
        key=key,
        kind=TransactionKind.TRANSFER,
        memo=f"Money game: {_name(payer)} paid {_name(payee)}",
        legs=[
            (_player_account(payer.pk, currency), -amount_cents),
            (_player_account(payee.pk, currency), amount_cents - commission_cents),
            (_house(currency), commission_cents),
        ],
        actor=payer,
    ).transaction


@transaction.atomic
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
    _require_positive(buy_in_cents + fee_cents)
    escrow = _escrow_account(escrow_ref, currency)

    def check_seats(_: dict[int, LedgerAccount]) -> None:
        if max_entries is None:
            return
        seated = _seated_players(escrow_ref, currency)
        if user.pk in seated:
            raise Conflict("You are already entered in this tournament.")
        if len(seated) >= max_entries:
            raise TournamentFull(f"The tournament is full: all {max_entries} seats are taken.")

    return _post(
        key=key,
        kind=TransactionKind.BUY_IN,
        memo=f"Buy-in to {escrow_ref}",
        escrow_ref=escrow_ref,
        legs=[
            (_player_account(user.pk, currency), -(buy_in_cents + fee_cents)),
            (escrow, buy_in_cents),
            (_house(currency), fee_cents),
        ],
        lock_also=[escrow],
        check=check_seats,
        actor=user,
    ).transaction


@transaction.atomic
def compensate(
    *, transaction: LedgerTransaction, reason: str, staff: User, key: str
) -> LedgerTransaction:
    """Staff reverse a transaction with entries of the opposite sign, with a reason."""
    _require_staff(staff)
    reason = _require_reason(reason)
    original = transaction
    legs = [
        (entry.account, -entry.amount)
        for entry in original.entries.select_related("account").order_by("pk")
    ]
    return _post(
        key=key,
        kind=TransactionKind.COMPENSATION,
        memo=f"Correction of {original.get_kind_display().lower()} #{original.pk}: {reason}",
        escrow_ref=original.escrow_ref,
        legs=legs,
        created_by=staff,
        reverses=original,
        actor=staff,
    ).transaction


# Reads -----------------------------------------------------------------------------


def balance(*, user: User, currency: str) -> int:
    """The player's balance in cents (0 before their first movement)."""
    found = (
        LedgerAccount.objects.filter(kind=AccountKind.PLAYER, user=user, currency=currency)
        .values_list("balance", flat=True)
        .first()
    )
    return found or 0


def balances(*, user: User) -> dict[str, int]:
    """Every currency's balance, in one query: {"FUN": cents, "REAL": cents}."""
    found = dict(
        LedgerAccount.objects.filter(kind=AccountKind.PLAYER, user=user).values_list(
            "currency", "balance"
        )
    )
    return {currency.value: found.get(currency.value, 0) for currency in Currency}


def history(
    *, user: User, currency: str | None = None, limit: int | None = None
) -> list[HistoryLine]:
    """The player's entries, newest first, each with the balance it left."""
    entries = (
        LedgerEntry.objects.filter(account__kind=AccountKind.PLAYER, account__user=user)
        .select_related("transaction", "account")
        .order_by("-pk")
    )
    if currency is not None:
        entries = entries.filter(account__currency=currency)
    if limit is not None:
        entries = entries[:limit]
    return [
        HistoryLine(
            transaction_id=entry.transaction_id,
            created_at=entry.transaction.created_at,
            currency=entry.account.currency,
            kind=entry.transaction.kind,
            description=entry.transaction.get_kind_display(),
            memo=entry.transaction.memo,
            amount=entry.amount,
            balance_after=entry.balance_after or 0,
        )
        for entry in entries
    ]


def escrow_balance(*, escrow_ref: str, currency: str) -> int:
    found = (
        LedgerAccount.objects.filter(
            kind=AccountKind.ESCROW, escrow_ref=escrow_ref, currency=currency
        )
        .values_list("balance", flat=True)
        .first()
    )
    return found or 0


def house_balance(currency: str) -> int:
    """Commission and fees the house has collected, less what corrections gave back."""
    return _entry_sum(account__kind=AccountKind.HOUSE, account__currency=currency)


def currency_total(currency: str) -> int:
    """The sum of every entry in a currency: always 0 in a sound ledger."""
    return _entry_sum(account__currency=currency)


# The one writer --------------------------------------------------------------------


@dataclass(frozen=True)
class _Posted:
    transaction: LedgerTransaction
    created: bool
    balances_after: dict[int, int]


Leg = tuple[LedgerAccount, int]


def _post(
    *,
    key: str,
    kind: TransactionKind,
    memo: str,
    legs: Iterable[Leg],
    actor: User | None,
    escrow_ref: str = "",
    created_by: User | None = None,
    reverses: LedgerTransaction | None = None,
    lock_also: Iterable[LedgerAccount] = (),
    check: Callable[[dict[int, LedgerAccount]], None] | None = None,
) -> _Posted:
    """Write one balanced transaction, or find the one already written under ``key``.

    Expects to run inside ``transaction.atomic``. ``check`` runs once the accounts are
    locked and may refuse by raising.
    """
    deltas: dict[int, int] = defaultdict(int)
    accounts: dict[int, LedgerAccount] = {}
    for account, amount in legs:
        deltas[account.pk] += amount
        accounts[account.pk] = account
    _require_balanced(deltas, accounts)

    posted, created = _claim_key(
        key=key,
        kind=kind,
        memo=memo,
        escrow_ref=escrow_ref,
        created_by=created_by,
        reverses=reverses,
    )
    if not created:
        return _Posted(posted, created=False, balances_after={})

    floored = sorted(
        {pk for pk, account in accounts.items() if account.kind in KINDS_WITH_BALANCE}
        | {account.pk for account in lock_also}
    )
    locked = {
        account.pk: account
        for account in LedgerAccount.objects.select_for_update(of=("self",))
        .filter(pk__in=floored)
        .select_related("user")
        .order_by("pk")
    }
    if check is not None:
        check(locked)
    balances_after: dict[int, int] = {}
    for pk in floored:
        delta = deltas.get(pk, 0)
        if delta == 0:
            continue
        account = locked[pk]
        if account.balance + delta < 0:
            raise InsufficientFunds(_shortfall_message(account, -delta, actor))
        balances_after[pk] = account.balance + delta
    for pk in balances_after:
        LedgerAccount.objects.filter(pk=pk).update(balance=F("balance") + deltas[pk])
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            transaction=posted, account_id=pk, amount=amount, balance_after=balances_after.get(pk)
        )
        for pk, amount in sorted(deltas.items())
        if amount != 0
    )
    return _Posted(posted, created=True, balances_after=balances_after)


def _claim_key(
    *,
    key: str,
    kind: TransactionKind,
    memo: str,
    escrow_ref: str,
    created_by: User | None,
    reverses: LedgerTransaction | None,
) -> tuple[LedgerTransaction, bool]:
    """Insert the transaction row under ``key``, or return the one that holds it."""
    existing = LedgerTransaction.objects.filter(key=key).first()
    if existing is None:
        if reverses is not None and LedgerTransaction.objects.filter(reverses=reverses).exists():
            raise Conflict(f"Transaction #{reverses.pk} has already been corrected.")
        try:
            # A savepoint: a caller inserting the same key at the same moment makes this
            # insert wait until theirs commits, then fail, and we read theirs.
            with transaction.atomic():
                created = LedgerTransaction.objects.create(
                    key=key,
                    kind=kind,
                    memo=memo[:300],
                    escrow_ref=escrow_ref,
                    created_by=created_by,
                    reverses=reverses,
                )
            return created, True
        except IntegrityError:
            existing = LedgerTransaction.objects.filter(key=key).first()
            if existing is None:
                if reverses is None:
                    raise
                # The key is free, so another correction of the same transaction won.
                raise Conflict(f"Transaction #{reverses.pk} has already been corrected.") from None
    if existing.kind != kind:
        raise InternalError(f"ledger key {key!r} already used for a {existing.kind}")
    return existing, False


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
    if commission_cents < 0 or any(cents < 0 for cents in payouts.values()):
        raise DomainError("A payout cannot be negative.")
    total = sum(payouts.values()) + commission_cents
    _require_positive(total)
    legs: list[Leg] = [(_escrow_account(escrow_ref, currency), -total)]
    legs.extend(
        (_player_account(user_id, currency), cents)
        for user_id, cents in sorted(payouts.items())
        if cents
    )
    legs.append((_house(currency), commission_cents))
    return _post(
        key=key,
        kind=kind,
        memo=memo,
        escrow_ref=escrow_ref,
        legs=legs,
        actor=None,
    ).transaction


def _adjust(
    *,
    user: User,
    currency: str,
    amount_cents: int,
    direction: AdjustmentDirection,
    reason: str,
    staff: User,
    key: str,
) -> LedgerTransaction:
    _require_staff(staff)
    currency = _currency(currency)
    reason = _require_reason(reason)
    _require_positive(amount_cents)
    signed = amount_cents if direction == AdjustmentDirection.DEPOSIT else -amount_cents
    player = _player_account(user.pk, currency)
    posted = _post(
        key=key,
        kind=(
            TransactionKind.DEPOSIT
            if direction == AdjustmentDirection.DEPOSIT
            else TransactionKind.WITHDRAWAL
        ),
        memo=f"{direction.label} by {staff.username}: {reason}",
        legs=[(player, signed), (_external(currency), -signed)],
        created_by=staff,
        actor=staff,
    )
    if posted.created:
        after = posted.balances_after[player.pk]
        WalletAdjustment.objects.create(
            user=user,
            staff=staff,
            transaction=posted.transaction,
            currency=currency,
            direction=direction,
            amount_cents=amount_cents,
            reason=reason,
            balance_before=after - signed,
            balance_after=after,
        )
    return posted.transaction


def _seated_players(escrow_ref: str, currency: str) -> set[int]:
    """Users holding a seat: bought in more often than refunded or corrected."""
    unseated = Q(transaction__kind=TransactionKind.REFUND) | Q(
        transaction__kind=TransactionKind.COMPENSATION,
        transaction__reverses__kind=TransactionKind.BUY_IN,
    )
    rows = (
        LedgerEntry.objects.filter(
            transaction__escrow_ref=escrow_ref,
            account__kind=AccountKind.PLAYER,
            account__currency=currency,
        )
        .values("account__user_id")
        .annotate(
            buy_ins=Count("pk", filter=Q(transaction__kind=TransactionKind.BUY_IN)),
            refunds=Count("pk", filter=unseated),
        )
        .filter(buy_ins__gt=F("refunds"))
        .values_list("account__user_id", flat=True)
    )
    return set(rows)


def _shortfall_message(account: LedgerAccount, needed: int, actor: User | None) -> str:
    have = money(account.balance)
    if account.kind == AccountKind.ESCROW:
        return (
            f"The escrow {account.escrow_ref} holds {have} {account.currency}; "
            f"this needs {money(needed)}."
        )
    assert account.user is not None
    whose = (
        "Your"
        if actor is not None and actor.pk == account.user_id
        else (f"{account.user.username}'s")
    )
    return f"{whose} {account.currency} balance is {have}; this needs {money(needed)}."


def _name(user: User) -> str:
    return user.profile.display_name


def _require_balanced(deltas: dict[int, int], accounts: dict[int, LedgerAccount]) -> None:
    per_currency: dict[str, int] = defaultdict(int)
    for pk, amount in deltas.items():
        per_currency[accounts[pk].currency] += amount
    unbalanced = {currency: total for currency, total in per_currency.items() if total}
    if unbalanced:
        raise InternalError(f"ledger transaction does not sum to zero: {unbalanced}")


def _entry_sum(**filters: object) -> int:
    return LedgerEntry.objects.filter(**filters).aggregate(total=Sum("amount"))["total"] or 0


def _currency(currency: str) -> str:
    if currency not in Currency.values:
        raise DomainError(
            f"Unknown currency {currency!r}: use one of {', '.join(Currency.values)}."
        )
    return currency


def _require_positive(amount_cents: int) -> None:
    if amount_cents <= 0:
        raise DomainError("The amount must be at least 0.01.")


def _require_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise DomainError("Give a reason: it is kept in the audit log.")
    return reason


def _require_staff(staff: User) -> None:
    if not staff.has_perm(ADJUST_PERMISSION):
        raise Forbidden("Only staff who may adjust wallets can do this.")


def _player_account(user_id: int, currency: str) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(
        kind=AccountKind.PLAYER, user_id=user_id, currency=currency
    )
    return account


def _escrow_account(escrow_ref: str, currency: str) -> LedgerAccount:
    if not escrow_ref:
        raise InternalError("an escrow needs a reference such as 'match:12'")
    account, _ = LedgerAccount.objects.get_or_create(
        kind=AccountKind.ESCROW, escrow_ref=escrow_ref, currency=currency
    )
    return account


def _house(currency: str) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=AccountKind.HOUSE, currency=currency)
    return account


def _external(currency: str) -> LedgerAccount:
    account, _ = LedgerAccount.objects.get_or_create(kind=AccountKind.EXTERNAL, currency=currency)
    return account
