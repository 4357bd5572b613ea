"""Staff corrections between two players' wallets: money that should never have moved
(chips dumped from one account to another) goes back, as one ledger transaction with the
reason, posted like every other movement by ``accounts.ledger``'s rules."""

from __future__ import annotations

from accounts.ledger import (
    _currency,
    _name,
    _require_amount,
    _require_reason,
    _require_staff,
    _whole,
)
from accounts.ledger_posting import player, post
from accounts.models import LedgerTransaction, TransactionKind, User
from core.errors import DomainError


@_whole
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
    _require_staff(staff)
    currency = _currency(currency)
    reason = _require_reason(reason)
    _require_amount(amount_cents)
    if payer.pk == payee.pk:
        raise DomainError("A correction moves money between two different players.")
    return post(
        key=key,
        kind=TransactionKind.COMPENSATION,
        memo=f"Correction by {staff.username}, {_name(payer)} to {_name(payee)}: {reason}",
        legs=[
            (player(payer.pk, currency), -amount_cents),
            (player(payee.pk, currency), amount_cents),
        ],
        created_by=staff,
        actor=staff,
    ).transaction
