"""Posting: writing one balanced ledger transaction in as few statements as it can be done.

A *leg* is an amount (cents, positive in) on an account named by what it belongs to
(``AccountRef``: a player's, an escrow's, the house's or the external world's account in
one currency). ``post`` nets the legs per account and checks that every currency sums to
zero. Then, on PostgreSQL, one statement (``_post_in_one_statement``):

* finds every account the legs name, locking the player and escrow accounts (``FOR
  UPDATE``, in primary-key order, so two postings never wait on each other in a cycle)
  and reading the house and external accounts without a lock;
* only if every account exists and none would go below zero, inserts the transaction
  under its key (``ON CONFLICT DO NOTHING``), moves the cached balances of the locked
  accounts and inserts the entries. The key is claimed only once the locks are held:
  each part reads what the one before it returned;
* returns the balances it read, from which Python words a refusal (``InsufficientFunds``)
  or, when the key was taken, finds the transaction that holds it. A second caller with
  the same key waits for the first to commit, then gets its transaction (or, if the
  first rolled back, goes ahead itself).

Outside a transaction that statement is a transaction of its own, as cheap as a bare
insert in round trips. Two cases take more: an account seen for the first time is
created (``INSERT ... ON CONFLICT DO NOTHING``, in a fixed order) in a savepoint, so that
a refusal undoes it too; and a ``check`` (the seats of a tournament) runs between a
locking ``SELECT`` and the write, in one transaction, as it must read what was committed
while it waited for the lock.

Nothing is written before a refusal, and on PostgreSQL a statement that fails dooms the
caller's whole transaction, so no savepoint is taken on the common path and a caller
may catch a refusal and go on. The database keeps its own guards: balances never below
zero (a check constraint), entries summing to zero per currency and never changed
(triggers, migrations ``0003`` and ``0006``).

SQLite, the embedded run, has no ``FOR UPDATE`` (it lets one writer in at a time) and no
writes inside ``WITH``: there the same locking ``SELECT`` is followed by the checks in
Python and the writes through the ORM, statement by statement.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, connection, transaction
from django.db.models import BigIntegerField, Case, F, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import (
    KINDS_WITH_BALANCE,
    AccountKind,
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    TransactionKind,
    User,
)
from accounts.money import money_text
from core import locks
from core.errors import Conflict, DomainError, InternalError
from core.locks import Lock
from core.rows import prepared_cursor


class InsufficientFunds(DomainError):
    """An account would go below zero; nothing was moved."""


@dataclass(frozen=True, order=True)
class AccountRef:
    """An account named by what it belongs to; ``post`` finds or creates its row."""

    kind: str
    currency: str
    user_id: int = 0
    escrow_ref: str = ""

    @property
    def has_balance(self) -> bool:
        return self.kind in KINDS_WITH_BALANCE


def player(user_id: int, currency: str) -> AccountRef:
    return AccountRef(AccountKind.PLAYER.value, currency, user_id=user_id)


def escrow(escrow_ref: str, currency: str) -> AccountRef:
    if not escrow_ref:
        raise InternalError("an escrow needs a reference such as 'match:12'")
    return AccountRef(AccountKind.ESCROW.value, currency, escrow_ref=escrow_ref)


def house(currency: str) -> AccountRef:
    return AccountRef(AccountKind.HOUSE.value, currency)


def external(currency: str) -> AccountRef:
    return AccountRef(AccountKind.EXTERNAL.value, currency)


def ref_of(account: LedgerAccount) -> AccountRef:
    return AccountRef(account.kind, account.currency, account.user_id or 0, account.escrow_ref)


Leg = tuple[AccountRef, int]
_Param = int | str | datetime | None


@dataclass(frozen=True)
class Posted:
    transaction: LedgerTransaction
    created: bool
    balances_after: dict[AccountRef, int]


@dataclass(frozen=True)
class _Account:
    pk: int
    balance: int


def post(
    *,
    key: str,
    kind: TransactionKind,
    memo: str,
    legs: Iterable[Leg],
    actor: User | None,
    escrow_ref: str = "",
    created_by: User | None = None,
    reverses: LedgerTransaction | None = None,
    lock_also: Iterable[AccountRef] = (),
    check: Callable[[], None] | None = None,
) -> Posted:
    """Write one balanced transaction, or find the one already written under ``key``.

    Runs in the caller's transaction, if any. ``check`` runs once the accounts (and
    ``lock_also``, accounts locked though nothing moves on them) are locked and may
    refuse by raising a ``DomainError``. Before any refusal reaches the caller, the key
    is looked up again: a transaction committed under it meanwhile is returned instead.
    """
    deltas: dict[AccountRef, int] = defaultdict(int)
    for ref, amount in legs:
        deltas[ref] += amount
    moved = {ref: amount for ref, amount in deltas.items() if amount}
    _require_balanced(moved)
    if reverses is not None:
        earlier = LedgerTransaction.objects.filter(reverses=reverses).first()
        if earlier is not None:
            if earlier.key == key:
                return Posted(_same_kind(earlier, kind, key), created=False, balances_after={})
            raise Conflict(
                _("Transaction #%(number)s has already been corrected.") % {"number": reverses.pk}
            )
    draft = LedgerTransaction(
        key=key,
        kind=kind,
        memo=memo[:300],
        escrow_ref=escrow_ref,
        created_by=created_by,
        reverses=reverses,
    )
    lock_also = frozenset(lock_also)
    if check is None and not lock_also and connection.vendor == "postgresql":
        outcome = _post_in_one_statement(draft, moved, actor)
        if isinstance(outcome, Posted):
            return outcome
        # A savepoint, so that a refusal also undoes the accounts created here.
        with transaction.atomic():
            _create(outcome)
            return _posted(_post_in_one_statement(draft, moved, actor))
    wanted = set(moved) | lock_also
    with _one_transaction():
        accounts = _lock(wanted)
        if len(accounts) == len(wanted):
            return _post_locked(draft, moved, accounts, actor, check)
        with transaction.atomic():
            _create(sorted(wanted - set(accounts)))
            return _post_locked(draft, moved, _lock(wanted), actor, check)


def _post_locked(
    draft: LedgerTransaction,
    moved: dict[AccountRef, int],
    accounts: dict[AccountRef, _Account],
    actor: User | None,
    check: Callable[[], None] | None,
) -> Posted:
    """Check, then write, with every account already locked by ``_lock``."""
    if check is not None:
        try:
            check()
        except DomainError as refusal:
            return _replayed_or_raise(draft, refusal)
    if connection.vendor == "postgresql":
        return _posted(_post_in_one_statement(draft, moved, actor))
    try:
        balances_after = _balances_after(moved, accounts, actor)
    except DomainError as refusal:
        return _replayed_or_raise(draft, refusal)
    if _write_step_by_step(draft, moved, accounts, balances_after):
        return Posted(draft, created=True, balances_after=balances_after)
    return _replayed(draft)


def _one_transaction() -> AbstractContextManager[object]:
    """The caller's transaction, or a new one: no savepoint, as refusals come first."""
    return nullcontext() if connection.in_atomic_block else transaction.atomic()


def _balances_after(
    moved: dict[AccountRef, int], accounts: dict[AccountRef, _Account], actor: User | None
) -> dict[AccountRef, int]:
    balances_after: dict[AccountRef, int] = {}
    for ref, delta in moved.items():
        if not ref.has_balance:
            continue
        after = accounts[ref].balance + delta
        if after < 0:
            raise InsufficientFunds(_shortfall_message(ref, accounts[ref].balance, -delta, actor))
        balances_after[ref] = after
    return balances_after


# PostgreSQL: one statement ---------------------------------------------------------

_COLUMNS = "id, kind, currency, user_id, escrow_ref, balance"
_KINDS_WITH_BALANCE = ", ".join(f"'{kind.value}'" for kind in KINDS_WITH_BALANCE)


def _post_in_one_statement(
    draft: LedgerTransaction, moved: dict[AccountRef, int], actor: User | None
) -> Posted | list[AccountRef]:
    """Lock, check and write in one statement, or tell which accounts do not exist yet.

    The statement locks the player and escrow accounts in primary-key order and reads
    the others, then, only if every account exists and none would go below zero, inserts
    the transaction under its key (nothing when the key is taken), moves the balances of
    the locked accounts and inserts the entries. The order is fixed by what each part
    reads: the key is claimed only after the locks are held. It returns every account
    found, with its balance before, and the new transaction's id if one was written.
    """
    draft.created_at = timezone.now()
    locks.taken(Lock.WALLET)
    table = LedgerAccount._meta.db_table
    floored, floored_params = _matching([ref for ref in moved if ref.has_balance])
    others, others_params = _matching([ref for ref in moved if not ref.has_balance])
    wanted = ", ".join(["(%s, %s, %s::bigint, %s, %s::bigint)"] * len(moved))
    sql = f"""
        WITH wanted (kind, currency, user_id, escrow_ref, amount) AS (
            VALUES {wanted}
        ), locked AS (
            SELECT {_COLUMNS} FROM {table} WHERE {floored} ORDER BY id{locks.clause()}
        ), found AS (
            SELECT {_COLUMNS} FROM locked
            UNION ALL
            SELECT {_COLUMNS} FROM {table} WHERE {others}
        ), legs AS (
            SELECT found.id AS account_id, wanted.amount,
                CASE WHEN found.kind IN ({_KINDS_WITH_BALANCE})
                THEN found.balance + wanted.amount END AS balance_after
            FROM wanted JOIN found
                ON found.kind = wanted.kind AND found.currency = wanted.currency
                AND COALESCE(found.user_id, 0) = wanted.user_id
                AND found.escrow_ref = wanted.escrow_ref
        ), posted AS (
            INSERT INTO {LedgerTransaction._meta.db_table}
                (key, kind, memo, escrow_ref, created_by_id, reverses_id, created_at)
            SELECT %s, %s, %s, %s, %s::bigint, %s::bigint, %s::timestamptz
            WHERE (SELECT COUNT(*) FROM legs) = %s
                AND NOT EXISTS (SELECT FROM legs WHERE balance_after < 0)
            ON CONFLICT DO NOTHING
            RETURNING id
        ), balances AS (
            UPDATE {table} AS account SET balance = account.balance + legs.amount
            FROM legs, posted
            WHERE account.id = legs.account_id AND legs.balance_after IS NOT NULL
        ), entries AS (
            INSERT INTO {LedgerEntry._meta.db_table}
                (transaction_id, account_id, amount, balance_after)
            SELECT posted.id, legs.account_id, legs.amount, legs.balance_after
            FROM posted, legs
            ORDER BY legs.account_id
        )
        SELECT {_COLUMNS}, (SELECT id FROM posted) FROM found
    """  # noqa: S608 (only placeholders, fixed names and kinds are put into the text)
    params: list[_Param] = []
    for ref, amount in moved.items():
        params.extend((ref.kind, ref.currency, ref.user_id, ref.escrow_ref, amount))
    params.extend(floored_params)
    params.extend(others_params)
    params.extend(
        (
            draft.key,
            draft.kind,
            draft.memo,
            draft.escrow_ref,
            draft.created_by_id,
            draft.reverses_id,
            draft.created_at,
            len(moved),
        )
    )
    with prepared_cursor() as cursor:  # planning it cost a third of running it
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    accounts = {
        AccountRef(kind, currency, user_id or 0, escrow_ref): _Account(pk, balance)
        for pk, kind, currency, user_id, escrow_ref, balance, _ in rows
    }
    missing = sorted(set(moved) - set(accounts))
    if missing:
        return missing
    try:
        balances_after = _balances_after(moved, accounts, actor)
    except DomainError as refusal:
        return _replayed_or_raise(draft, refusal)
    if rows[0][6] is None:
        return _replayed(draft)
    draft.pk = rows[0][6]
    draft._state.adding = False
    draft._state.db = connection.alias
    return Posted(draft, created=True, balances_after=balances_after)


def _posted(outcome: Posted | list[AccountRef]) -> Posted:
    if isinstance(outcome, Posted):
        return outcome
    raise InternalError(f"ledger accounts {outcome} missing after they were made")


# Finding and locking accounts ------------------------------------------------------


def _lock(refs: set[AccountRef]) -> dict[AccountRef, _Account]:
    """Every account of ``refs`` that exists; player and escrow ones locked in pk order."""
    table = LedgerAccount._meta.db_table
    floored, floored_params = _matching([ref for ref in refs if ref.has_balance])
    others, others_params = _matching([ref for ref in refs if not ref.has_balance])
    locks.taken(Lock.WALLET)
    lock = locks.clause()
    sql = (
        f"SELECT * FROM (SELECT {_COLUMNS} FROM {table} WHERE {floored}"  # noqa: S608
        f" ORDER BY id{lock}) AS locked"
        f" UNION ALL SELECT {_COLUMNS} FROM {table} WHERE {others}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*floored_params, *others_params])
        rows = cursor.fetchall()
    return {
        AccountRef(kind, currency, user_id or 0, escrow_ref): _Account(pk, balance)
        for pk, kind, currency, user_id, escrow_ref, balance in rows
    }


def _matching(refs: list[AccountRef]) -> tuple[str, list[_Param]]:
    """A ``WHERE`` condition matching ``refs``, one term per kind and currency.

    The kinds are written into the text (they are our own constants), so that the
    planner can pick the partial unique index of each kind.
    """
    owners: dict[tuple[str, str], list[_Param]] = defaultdict(list)
    for ref in refs:
        owners[(ref.kind, ref.currency)].append(
            ref.user_id if ref.kind == AccountKind.PLAYER else ref.escrow_ref
        )
    terms: list[str] = []
    params: list[_Param] = []
    for (kind, currency), names in sorted(owners.items()):
        if kind not in AccountKind.values:
            raise InternalError(f"no such kind of ledger account: {kind!r}")
        params.append(currency)
        if kind == AccountKind.PLAYER:
            column = "user_id"
        elif kind == AccountKind.ESCROW:
            column = "escrow_ref"
        else:
            terms.append(f"(kind = '{kind}' AND currency = %s)")
            continue
        placeholders = ", ".join(["%s"] * len(names))
        terms.append(f"(kind = '{kind}' AND currency = %s AND {column} IN ({placeholders}))")
        params.extend(names)
    return " OR ".join(terms) or "FALSE", params


def _create(refs: list[AccountRef]) -> None:
    """Create the accounts of ``refs``; one created meanwhile by another caller is kept.

    In the order of ``refs`` (sorted), so two callers creating the same accounts wait for
    each other at the first of them rather than each holding one the other needs.
    """
    LedgerAccount.objects.bulk_create(
        [
            LedgerAccount(
                kind=ref.kind,
                currency=ref.currency,
                user_id=ref.user_id or None,
                escrow_ref=ref.escrow_ref,
            )
            for ref in refs
        ],
        ignore_conflicts=True,
    )


# SQLite: step by step --------------------------------------------------------------


def _write_step_by_step(
    draft: LedgerTransaction,
    moved: dict[AccountRef, int],
    accounts: dict[AccountRef, _Account],
    balances_after: dict[AccountRef, int],
) -> bool:
    """The writes through the ORM, in the savepoint ``accounts.ledger`` holds on SQLite."""
    try:
        with transaction.atomic():
            draft.save(force_insert=True)
    except IntegrityError:
        return False
    LedgerAccount.objects.filter(pk__in=[accounts[ref].pk for ref in balances_after]).update(
        balance=F("balance")
        + Case(
            *(When(pk=accounts[ref].pk, then=Value(moved[ref])) for ref in balances_after),
            output_field=BigIntegerField(),
        )
    )
    LedgerEntry.objects.bulk_create(
        LedgerEntry(
            transaction=draft,
            account_id=accounts[ref].pk,
            amount=amount,
            balance_after=balances_after.get(ref),
        )
        for ref, amount in sorted(moved.items(), key=lambda item: accounts[item[0]].pk)
    )
    return True


# Replays and refusals --------------------------------------------------------------


def _replayed(draft: LedgerTransaction) -> Posted:
    """The transaction that holds the key, as nothing was written under it."""
    existing = _existing(draft.key, draft.kind)
    if existing is not None:
        return Posted(existing, created=False, balances_after={})
    if draft.reverses is not None:
        # The key is free, so another correction of the same transaction won.
        raise Conflict(
            _("Transaction #%(number)s has already been corrected.") % {"number": draft.reverses.pk}
        )
    raise InternalError(f"ledger transaction {draft.key!r} was neither written nor found")


def _replayed_or_raise(draft: LedgerTransaction, refusal: DomainError) -> Posted:
    """A refusal stands unless the key was used meanwhile: then that is the answer."""
    existing = _existing(draft.key, draft.kind)
    if existing is None:
        raise refusal
    return Posted(existing, created=False, balances_after={})


def _existing(key: str, kind: str) -> LedgerTransaction | None:
    found = LedgerTransaction.objects.filter(key=key).first()
    return None if found is None else _same_kind(found, kind, key)


def _same_kind(found: LedgerTransaction, kind: str, key: str) -> LedgerTransaction:
    if found.kind != kind:
        raise InternalError(f"ledger key {key!r} already used for a {found.kind}")
    return found


def _require_balanced(moved: dict[AccountRef, int]) -> None:
    per_currency: dict[str, int] = defaultdict(int)
    for ref, amount in moved.items():
        per_currency[ref.currency] += amount
    unbalanced = {currency: total for currency, total in per_currency.items() if total}
    if unbalanced:
        raise InternalError(f"ledger transaction does not sum to zero: {unbalanced}")


def _shortfall_message(ref: AccountRef, have: int, needed: int, actor: User | None) -> str:
    figures = {"currency": ref.currency, "have": money_text(have), "needed": money_text(needed)}
    if ref.kind == AccountKind.ESCROW:
        return _("The escrow %(escrow)s holds %(have)s %(currency)s; this needs %(needed)s.") % {
            **figures,
            "escrow": ref.escrow_ref,
        }
    if actor is not None and actor.pk == ref.user_id:
        return _("Your %(currency)s balance is %(have)s; this needs %(needed)s.") % figures
    username = User.objects.values_list("username", flat=True).get(pk=ref.user_id)
    return _("%(name)s's %(currency)s balance is %(have)s; this needs %(needed)s.") % {
        **figures,
        "name": username,
    }
