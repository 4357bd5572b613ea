"""Staff wallet adjustments sent with an idempotency key, keyed as Stripe scopes keys.

A key belongs to the wallet it adjusts (``adjustment_key``) and to the request it came with:
the same key with the same request answers the original adjustment; with another request
it is refused (409), never answered with another request's result.

Real money above ``CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS`` waits for a second staff
member first (``accounts.adjustment_approvals``); the key then names the request too.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.db import transaction

from accounts.commission import money
from accounts.ledger_posting import external, player, post
from accounts.models import (
    AdjustmentDirection,
    LedgerTransaction,
    TransactionKind,
    User,
    WalletAdjustment,
)
from config.errors import Conflict
from core import locks
from core.locks import Lock


@dataclass(frozen=True)
class AdjustmentAsked:
    """A staff deposit or withdrawal as asked, checked by ``ledger.check_adjustment``."""

    user: User
    currency: str
    amount_cents: int
    direction: AdjustmentDirection
    reason: str
    staff: User
    approved_by: User | None = None

    @property
    def signed_cents(self) -> int:
        """What the wallet gains: negative for a withdrawal."""
        deposit = self.direction == AdjustmentDirection.DEPOSIT
        return self.amount_cents if deposit else -self.amount_cents

    @property
    def request_hash(self) -> str:
        """What was asked, to tell a retry from another request under the same key (who
        asked and who approved are not part of it: a retry by another hand is a retry)."""
        return request_hash(
            user=self.user.pk,
            currency=self.currency,
            direction=self.direction.value,
            amount_cents=self.amount_cents,
            reason=self.reason,
        )


def post_adjustment(asked: AdjustmentAsked, *, key: str) -> LedgerTransaction:
    """Move the money of a checked adjustment and keep its audit, together or not at all;
    the same key and request again answer the original transaction."""
    wallet = player(asked.user.pk, asked.currency)
    deposit = asked.direction == AdjustmentDirection.DEPOSIT
    by = asked.staff.username
    if asked.approved_by is not None:
        by = f"{by}, approved by {asked.approved_by.username}"
    with transaction.atomic():
        earlier = adjustment_under(key)
        if earlier is not None:
            return same_request(earlier, asked.request_hash)
        posted = post(
            key=key,
            kind=TransactionKind.DEPOSIT if deposit else TransactionKind.WITHDRAWAL,
            memo=f"{asked.direction.label} by {by}: {asked.reason}",
            legs=[
                (wallet, asked.signed_cents),
                (external(asked.currency), -asked.signed_cents),
            ],
            created_by=asked.staff,
            actor=asked.staff,
        )
        if posted.created:
            after = posted.balances_after[wallet]
            WalletAdjustment.objects.create(
                user=asked.user,
                staff=asked.staff,
                approved_by=asked.approved_by,
                transaction=posted.transaction,
                currency=asked.currency,
                direction=asked.direction,
                amount_cents=asked.amount_cents,
                reason=asked.reason,
                balance_before=after - asked.signed_cents,
                balance_after=after,
                request_hash=asked.request_hash,
            )
    return posted.transaction


def adjustment_key(*, user: User, key: str) -> str:
    """The ledger key of a staff adjustment sent with ``key``: a key belongs to the wallet,
    so the same key on two wallets makes two adjustments."""
    return f"adjust:{user.pk}:{key}"


def adjustment_under(key: str) -> WalletAdjustment | None:
    """The adjustment made under ``key``, once any being made under it has committed.

    On PostgreSQL a transaction-long advisory lock on the key puts two requests with the
    same key one after the other, so the second finds the first's adjustment and compares
    the requests, rather than racing it into the ledger. Other keys never wait on it.
    """
    locks.advisory(Lock.ADJUSTMENT_KEY, key)
    return (
        WalletAdjustment.objects.select_related("transaction").filter(transaction__key=key).first()
    )


def same_request(earlier: WalletAdjustment, asked: str) -> LedgerTransaction:
    """A retry gets the original transaction; another request under its key is refused."""
    if earlier.request_hash and earlier.request_hash != asked:
        raise Conflict(
            "That key was already used for another adjustment of this wallet (a"
            f" {earlier.get_direction_display().lower()} of {money(earlier.amount_cents)}"
            f" {earlier.currency}): send a new key for a new adjustment."
        )
    return earlier.transaction


def request_hash(**asked: object) -> str:
    return hashlib.sha256(json.dumps(asked, sort_keys=True).encode()).hexdigest()
