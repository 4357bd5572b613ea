"""Reading the ledger: balances, a player's history, the house's takings.

Player and escrow accounts keep a cached balance, read in one query; the house's balance
and a currency's total are sums of entries. Re-exported by ``accounts.ledger``.

An *escrow ref* (``"match:12"``, ``"tournament:7"``) names the escrow account a movement
went into or came out of. A player's history says what each was for in their words ("5-point
match against Bruno Costa"), through the namer the app that reads matches and tournaments
registers for each kind (``name_escrows``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from django.db import connection
from django.db.models import Sum
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import (
    AccountKind,
    Currency,
    LedgerAccount,
    LedgerEntry,
    LedgerTransaction,
    TransactionKind,
    User,
)

StrOrPromise = str | Promise


@dataclass(frozen=True)
class EscrowName:
    """What an escrow held money for, in a player's words, and the page about it."""

    text: str
    url: str


class EscrowNamer(Protocol):
    """Names the escrows of one kind (``"match"``, ``"tournament"``) by their ids, as
    ``owner`` knows them ("5-point match against Bruno Costa"), in one read."""

    def __call__(self, *, owner: User, ids: Collection[int]) -> Mapping[int, EscrowName]: ...


_escrow_namers: dict[str, EscrowNamer] = {}


def name_escrows(kind: str, namer: EscrowNamer) -> None:
    """Let the app that knows what escrows of ``kind`` hold money for name them in wallets.

    Matches and tournaments sit above accounts, so the app that reads them registers
    ``namer`` in its ``AppConfig.ready``, as subscribers do on ``core.bus``.
    """
    _escrow_namers[kind] = namer


@dataclass(frozen=True)
class HistoryLine:
    """One entry of a player's wallet, with the balance it left.

    ``description`` says what moved ("Stake"), ``about`` what for ("5-point match against
    Bruno Costa", linked by ``url``) and ``detail`` how, in a player's words; ``memo`` is
    the ledger's own note.
    """

    transaction_id: int
    created_at: datetime
    currency: str
    kind: str
    description: str
    memo: str
    amount: int
    balance_after: int
    detail: str = ""
    about: str = ""
    url: str = ""

    @property
    def in_words(self) -> str:
        """The line as one sentence, for a spreadsheet."""
        return " · ".join(part for part in (self.description, self.about, self.detail) if part)


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
    """The player's entries, newest first, each with the balance it left and what it was
    for: one query for the entries, then one for each kind of escrow among them."""
    entries = (
        LedgerEntry.objects.filter(account__kind=AccountKind.PLAYER, account__user=user)
        .select_related("transaction__reverses", "account")
        .order_by("-pk")
    )
    if currency is not None:
        entries = entries.filter(account__currency=currency)
    if limit is not None:
        entries = entries[:limit]
    found = list(entries)
    names = _escrow_names(owner=user, refs={entry.transaction.escrow_ref for entry in found})
    return [_history_line(entry, names.get(entry.transaction.escrow_ref)) for entry in found]


def _escrow_names(*, owner: User, refs: Iterable[str]) -> dict[str, EscrowName]:
    """Each escrow of ``refs`` (``"match:12"``) named by its kind's namer, in one read a kind."""
    ids: dict[str, set[int]] = defaultdict(set)
    for ref in refs:
        kind, _colon, number = ref.partition(":")
        if kind in _escrow_namers and number.isdigit():
            ids[kind].add(int(number))
    return {
        f"{kind}:{pk}": name
        for kind, numbers in ids.items()
        for pk, name in _escrow_namers[kind](owner=owner, ids=numbers).items()
    }


def _history_line(entry: LedgerEntry, name: EscrowName | None) -> HistoryLine:
    movement = entry.transaction
    return HistoryLine(
        transaction_id=movement.pk,
        created_at=movement.created_at,
        currency=entry.account.currency,
        kind=movement.kind,
        description=_headline(movement.kind),
        memo=movement.memo,
        amount=entry.amount,
        balance_after=entry.balance_after or 0,
        detail=_detail(movement),
        about=name.text if name else "",
        url=name.url if name else "",
    )


# What a wallet calls a movement where the ledger's label would repeat what the line's
# match or tournament already says.
_HEADLINES: dict[str, StrOrPromise] = {
    TransactionKind.SETTLEMENT: _("Payout"),
    TransactionKind.BUY_IN: _("Buy-in"),
}

# How the money moved, by movement and the kind of escrow it went into or came out of.
_DETAILS: dict[tuple[str, str], StrOrPromise] = {
    (TransactionKind.GRANT, ""): _("Play money to start with"),
    (TransactionKind.STAKE, "match"): _("Held in escrow until the game or match is settled"),
    (TransactionKind.SETTLEMENT, "match"): _(
        "Your share of the stakes, after the house's commission"
    ),
    (TransactionKind.REFUND, "match"): _("Your stake back"),
    (TransactionKind.REFUND, "tournament"): _("Your buy-in back"),
    (TransactionKind.PRIZE, "tournament"): _("Your prize from the prize pool"),
    (TransactionKind.BUY_IN, "tournament"): _("Into the prize pool, with the house's entry fee"),
}


def _headline(kind: str) -> str:
    return str(_HEADLINES.get(kind) or TransactionKind(kind).label)


def _detail(movement: LedgerTransaction) -> str:
    """How the money moved, in a player's words rather than the ledger's escrow keys."""
    # The ledger writes these memos as "<what>: <the reason, or who paid whom>".
    said = movement.memo.partition(": ")[2]
    if movement.kind in (TransactionKind.DEPOSIT, TransactionKind.WITHDRAWAL):
        return gettext("By staff: %(reason)s") % {"reason": said}
    if movement.kind == TransactionKind.TRANSFER:
        return said
    if movement.kind == TransactionKind.COMPENSATION and movement.reverses is not None:
        return gettext("Staff reversed a %(movement)s: %(reason)s") % {
            "movement": _headline(movement.reverses.kind).lower(),
            "reason": said,
        }
    return str(_DETAILS.get((movement.kind, movement.escrow_ref.partition(":")[0]), ""))


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


def _entry_sum(**filters: object) -> int:
    return LedgerEntry.objects.filter(**filters).aggregate(total=Sum("amount"))["total"] or 0


def seats(*, escrow_ref: str, currency: str, user: User) -> tuple[int, bool]:
    """How many players hold a seat, and whether ``user`` is one of them.

    A player holds a seat when their buy-ins into the escrow outnumber their refunds
    from it and the corrections of their buy-ins. One statement, written out because the
    query compiler took longer than the database to answer it.
    """
    entry = LedgerEntry._meta.db_table
    movement = LedgerTransaction._meta.db_table
    account = LedgerAccount._meta.db_table
    sql = f"""
        SELECT COUNT(*), COALESCE(SUM(CASE WHEN seated.user_id = %s THEN 1 ELSE 0 END), 0)
        FROM (
            SELECT account.user_id
            FROM {entry} AS entry
            JOIN {movement} AS movement ON movement.id = entry.transaction_id
            JOIN {account} AS account ON account.id = entry.account_id
            LEFT JOIN {movement} AS reversed ON reversed.id = movement.reverses_id
            WHERE movement.escrow_ref = %s AND account.kind = %s AND account.currency = %s
            GROUP BY account.user_id
            HAVING SUM(CASE WHEN movement.kind = %s THEN 1 ELSE 0 END) > SUM(
                CASE WHEN movement.kind = %s OR (movement.kind = %s AND reversed.kind = %s)
                THEN 1 ELSE 0 END
            )
        ) AS seated
    """  # noqa: S608 (only table names are put into the text)
    params: list[int | str] = [
        user.pk,
        escrow_ref,
        AccountKind.PLAYER.value,
        currency,
        TransactionKind.BUY_IN.value,
        TransactionKind.REFUND.value,
        TransactionKind.COMPENSATION.value,
        TransactionKind.BUY_IN.value,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        seated, entered = cursor.fetchone()
    return seated, entered > 0
