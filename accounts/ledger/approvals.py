"""Staff wallet adjustments, with a second staff member's approval for large real money.

A staff member *asks* for an adjustment (``adjustment_ask``, the one way the wallet page
and the API adjust a wallet). Play money, and real money up to
``CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS``, move at once through the ledger. Real money
above it is recorded as a *pending approval* and moves nothing until another staff member
(neither the one who asked nor the wallet's owner) *approves* it, which posts it through
the ledger under the request's key, or *rejects* it. Each decision is a compare-and-set on
the approval's row under its lock (taken before the ledger's accounts, as in the lock
order), so an approval decided twice, or approved and rejected at once, moves the money at
most once.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import ledger
from accounts.ledger.adjustments import adjustment_key, adjustment_under, same_request
from accounts.models import (
    AdjustmentApproval,
    AdjustmentDirection,
    ApprovalState,
    Currency,
    User,
    WalletAdjustment,
)
from core import locks
from core.errors import Conflict, Forbidden, NotFound
from core.locks import Lock


@dataclass(frozen=True)
class Asked:
    """What ``adjustment_ask`` did: ``adjustment`` when the money moved, ``approval`` when
    it waits for a second staff member."""

    adjustment: WalletAdjustment | None = None
    approval: AdjustmentApproval | None = None


def needs_approval(*, currency: str, amount_cents: int) -> bool:
    """Whether an adjustment of this much waits for a second staff member."""
    limit: int = settings.CRAWFORD_REAL_ADJUSTMENT_APPROVAL_CENTS
    return currency == Currency.REAL and amount_cents > limit


@transaction.atomic
def adjustment_ask(
    *,
    user: User,
    currency: str,
    amount_cents: int,
    direction: AdjustmentDirection,
    reason: str,
    staff: User,
    key: str | None,
) -> Asked:
    """``staff`` deposit into or withdraw from ``user``'s wallet: at once, or as a pending
    approval. ``key`` is the request's own key (the wallet page's form, the API's body; one
    is made when there is none), kept under the wallet (``ledger.adjustment_key``). The
    same key and request again answer what the first did; another request under it is
    refused (409)."""
    key = adjustment_key(user=user, key=key or uuid.uuid4().hex)
    asked = ledger.check_adjustment(
        user=user,
        currency=currency,
        amount_cents=amount_cents,
        direction=direction,
        reason=reason,
        staff=staff,
    )
    earlier = adjustment_under(key)  # waits for any request under the same key
    if earlier is not None:
        return Asked(adjustment=_adjustment(same_request(earlier, asked.request_hash).pk))
    pending = AdjustmentApproval.objects.filter(key=key).first()
    if pending is not None:
        if pending.request_hash != asked.request_hash:
            raise Conflict(
                _(
                    "That key was already used for another adjustment of this wallet: send a new"
                    " key for a new adjustment."
                )
            )
        return Asked(approval=pending)
    if not needs_approval(currency=asked.currency, amount_cents=amount_cents):
        move = ledger.deposit if direction == AdjustmentDirection.DEPOSIT else ledger.withdraw
        done = move(
            user=user,
            currency=asked.currency,
            amount_cents=amount_cents,
            reason=asked.reason,
            staff=staff,
            key=key,
        )
        return Asked(adjustment=_adjustment(done.pk))
    return Asked(
        approval=AdjustmentApproval.objects.create(
            user=user,
            requested_by=staff,
            currency=asked.currency,
            direction=direction,
            amount_cents=amount_cents,
            reason=asked.reason,
            key=key,
            request_hash=asked.request_hash,
        )
    )


@transaction.atomic
def adjustment_approve(*, approval_id: int, staff: User) -> AdjustmentApproval:
    """A second staff member approves a pending adjustment: the money moves, once. Approving
    an approved one again answers it as it is; a rejected one cannot be approved."""
    approval = _locked(approval_id, staff)
    if approval.state == ApprovalState.APPROVED:
        return approval
    _require_pending(approval)
    _require_second(approval, staff)
    move = ledger.deposit if approval.direction == AdjustmentDirection.DEPOSIT else ledger.withdraw
    approval.transaction = move(
        user=approval.user,
        currency=approval.currency,
        amount_cents=approval.amount_cents,
        reason=approval.reason,
        staff=approval.requested_by,
        key=approval.key,
        approved_by=staff,
    )
    return _decided(approval, ApprovalState.APPROVED, staff, reason="")


@transaction.atomic
def adjustment_reject(*, approval_id: int, staff: User, reason: str = "") -> AdjustmentApproval:
    """A second staff member rejects a pending adjustment: nothing moves, ever."""
    approval = _locked(approval_id, staff)
    if approval.state == ApprovalState.REJECTED:
        return approval
    _require_pending(approval)
    _require_second(approval, staff)
    return _decided(approval, ApprovalState.REJECTED, staff, reason=reason.strip()[:300])


def _locked(approval_id: int, staff: User) -> AdjustmentApproval:
    if not staff.has_perm(ledger.ADJUST_PERMISSION):
        raise Forbidden(_("Only staff who may adjust wallets can do this."))
    approval = (
        locks.select(Lock.APPROVAL, AdjustmentApproval.objects.all(), approval_id, of=("self",))
        .select_related("user", "requested_by", "decided_by")
        .filter(pk=approval_id)
        .first()
    )
    if approval is None:
        raise NotFound(_("No such adjustment waits for approval."))
    return approval


def _require_pending(approval: AdjustmentApproval) -> None:
    if approval.state != ApprovalState.PENDING:
        decider = approval.decided_by.username if approval.decided_by else "staff"
        if approval.state == ApprovalState.APPROVED:
            said = _("This adjustment was already approved by %(name)s.")
        else:
            said = _("This adjustment was already rejected by %(name)s.")
        raise Conflict(said % {"name": decider})


def _require_second(approval: AdjustmentApproval, staff: User) -> None:
    if staff.pk == approval.requested_by_id:
        raise Forbidden(_("You asked for this adjustment: another staff member must decide it."))
    if staff.pk == approval.user_id:
        raise Forbidden(
            _("This adjustment is of your own wallet: another staff member decides it.")
        )


def _decided(
    approval: AdjustmentApproval, state: ApprovalState, staff: User, *, reason: str
) -> AdjustmentApproval:
    approval.state = state
    approval.decided_by = staff
    approval.decided_at = timezone.now()
    approval.decision_reason = reason
    approval.save(
        update_fields=["state", "decided_by", "decided_at", "decision_reason", "transaction"]
    )
    return approval


def _adjustment(transaction_id: int) -> WalletAdjustment:
    return WalletAdjustment.objects.select_related("user", "staff", "transaction").get(
        transaction_id=transaction_id
    )
