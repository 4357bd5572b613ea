"""Staff wallet adjustments sent with an idempotency key, keyed as Stripe scopes keys.

A key belongs to the wallet it adjusts (``adjustment_key``) and to the request it came with:
the same key with the same request answers the original adjustment; with another request
it is refused (409), never answered with another request's result.

Real money above ``CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS`` waits for a second staff
member first (``accounts.ledger.approvals``); the key then names the request too.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.ledger.posting import external, player, post
from accounts.ledger.rules import (
    all_or_nothing,
    display_name,
    known_currency,
    require_amount,
    require_reason,
    require_staff,
)
from accounts.models import (
    AdjustmentDirection,
    LedgerTransaction,
    TransactionKind,
    User,
    WalletAdjustment,
)
from accounts.money import money_text
from accounts.standing import require_may_withdraw
from core import locks
from core.errors import Conflict, DomainError, Forbidden
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
            _(
                "That key was already used for another adjustment of this wallet (a"
                " %(direction)s of %(amount)s %(currency)s): send a new key for a new adjustment."
            )
            % {
                "direction": earlier.get_direction_display().lower(),
                "amount": money_text(earlier.amount_cents),
                "currency": earlier.currency,
            }
        )
    return earlier.transaction


def request_hash(**asked: object) -> str:
    return hashlib.sha256(json.dumps(asked, sort_keys=True).encode()).hexdigest()


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
    require_staff(staff)
    if user.pk == staff.pk:
        raise DomainError(
            _("Staff cannot adjust their own wallet: another staff member must do it.")
        )
    if approved_by is not None:
        require_staff(approved_by)
        if approved_by.pk in (staff.pk, user.pk):
            raise Forbidden(
                _("A second staff member approves, not the one who asked or the owner.")
            )
    require_amount(amount_cents)
    return AdjustmentAsked(
        user=user,
        currency=known_currency(currency),
        amount_cents=amount_cents,
        direction=direction,
        reason=require_reason(reason),
        staff=staff,
        approved_by=approved_by,
    )


@all_or_nothing
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


@all_or_nothing
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


@all_or_nothing
def correct_between_players(
    *,
    payer: User,
    payee: User,
    currency: str,
    amount_cents: int,
    reason: str,
    staff: User,
    key: str,
) -> LedgerTransaction:
    """Staff move money from one player's wallet to another's with a reason: the
    correction of money that should never have moved (dumped chips going back)."""
    require_staff(staff)
    currency = known_currency(currency)
    reason = require_reason(reason)
    require_amount(amount_cents)
    if payer.pk == payee.pk:
        raise DomainError(_("A correction moves money between two different players."))
    return post(
        key=key,
        kind=TransactionKind.COMPENSATION,
        memo=(
            f"Correction by {staff.username}, "
            f"{display_name(payer)} to {display_name(payee)}: {reason}"
        ),
        legs=[
            (player(payer.pk, currency), -amount_cents),
            (player(payee.pk, currency), amount_cents),
        ],
        created_by=staff,
        actor=staff,
    ).transaction
