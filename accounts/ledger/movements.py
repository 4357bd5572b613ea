"""The ledger's named movements: grants, stakes into escrow, settlements, refunds,
prizes, money games' payments, buy-ins and compensations. Each is one posting
(``accounts.ledger.posting``) under an idempotency key; the package's docstring gives the rules
every one of them keeps."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.ledger.posting import Leg, escrow, external, house, player, post, ref_of
from accounts.ledger.reads import seats
from accounts.ledger.rules import (
    all_or_nothing,
    display_name,
    known_currency,
    require_amount,
    require_reason,
    require_staff,
)
from accounts.models import Currency, LedgerTransaction, TransactionKind, User
from core.errors import Conflict, DomainError, InternalError


class TournamentFull(Conflict):
    """Every seat of the tournament is taken; nothing was moved."""


# Writes ----------------------------------------------------------------------------


@all_or_nothing
def grant(*, user: User, key: str, amount_cents: int | None = None) -> LedgerTransaction:
    """Give a new player their play money (``CRAWFORD_FUN_GRANT_CENTS`` unless told)."""
    amount = settings.CRAWFORD_FUN_GRANT_CENTS if amount_cents is None else amount_cents
    require_amount(amount)
    return post(
        key=key,
        kind=TransactionKind.GRANT,
        memo="Welcome to Crawford: play money to start with",
        legs=[(external(Currency.FUN), -amount), (player(user.pk, Currency.FUN), amount)],
        actor=user,
    ).transaction


@all_or_nothing
def escrow_stake(
    *, user: User, currency: str, amount_cents: int, escrow_ref: str, key: str
) -> LedgerTransaction:
    """A player puts a stake into a match's (or tournament's) escrow."""
    currency = known_currency(currency)
    require_amount(amount_cents)
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


@all_or_nothing
def escrow_stakes(
    *, users: Sequence[User], currency: str, amount_cents: int, escrow_ref: str, key: str
) -> LedgerTransaction:
    """Each of ``users`` puts the same stake into a match's escrow, in one transaction: their
    accounts are locked together, in primary-key order, so two matches between the same
    players that start at once never wait on each other in a circle. A shortfall names the
    player whose balance is short (the caller knows who reads it)."""
    currency = known_currency(currency)
    require_amount(amount_cents)
    legs = [(player(user.pk, currency), -amount_cents) for user in users]
    return post(
        key=key,
        kind=TransactionKind.STAKE,
        memo=f"Stakes for {escrow_ref}",
        escrow_ref=escrow_ref,
        legs=[*legs, (escrow(escrow_ref, currency), amount_cents * len(users))],
        actor=None,
    ).transaction


@all_or_nothing
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


@all_or_nothing
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


@all_or_nothing
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


@all_or_nothing
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
    currency = known_currency(currency)
    require_amount(amount_cents)
    if payer.pk == payee.pk:
        raise DomainError(_("A player cannot pay themselves."))
    if not 0 <= commission_cents <= amount_cents:
        raise InternalError(f"commission {commission_cents} outside 0..{amount_cents}")
    return post(
        key=key,
        kind=TransactionKind.TRANSFER,
        memo=f"Money game: {display_name(payer)} paid {display_name(payee)}",
        legs=[
            (player(payer.pk, currency), -amount_cents),
            (player(payee.pk, currency), amount_cents - commission_cents),
            (house(currency), commission_cents),
        ],
        actor=payer,
    ).transaction


@all_or_nothing
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
    currency = known_currency(currency)
    if buy_in_cents < 0 or fee_cents < 0:
        raise DomainError(_("A buy-in and a fee cannot be negative."))
    require_amount(buy_in_cents + fee_cents)
    pool = escrow(escrow_ref, currency)

    def check_seats() -> None:
        if max_entries is None:
            return
        seated, entered = seats(escrow_ref=escrow_ref, currency=currency, user=user)
        if entered:
            raise Conflict(_("You are already entered in this tournament."))
        if seated >= max_entries:
            raise TournamentFull(
                _("The tournament is full: all %(seats)s seats are taken.") % {"seats": max_entries}
            )

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


@all_or_nothing
def compensate(
    *, transaction: LedgerTransaction, reason: str, staff: User, key: str
) -> LedgerTransaction:
    """Staff reverse a transaction with entries of the opposite sign, with a reason."""
    require_staff(staff)
    reason = require_reason(reason)
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
    currency = known_currency(currency)
    fee_back = commission_cents < 0 and kind == TransactionKind.REFUND  # the house gives back
    if (commission_cents < 0 and not fee_back) or any(c < 0 for c in payouts.values()):
        raise DomainError(_("A payout cannot be negative."))
    total = sum(payouts.values()) + commission_cents
    require_amount(total)
    legs: list[Leg] = [(escrow(escrow_ref, currency), -total)]
    legs.extend((player(user_id, currency), cents) for user_id, cents in payouts.items())
    legs.append((house(currency), commission_cents))
    return post(
        key=key, kind=kind, memo=memo, escrow_ref=escrow_ref, legs=legs, actor=None
    ).transaction
