"""A sanctioned player appeals through a dispute, and an upheld appeal lifts the sanctions.

The appeal is filed as a dispute about the case (``disputes.appeals.appeal_file``), so it
waits in the disputes queue beside the others, is taken and decided there with a reason,
and lands in the same audit log. Staff decide it ``dismiss`` (the sanctions stand) or
``uphold``. Once that decision commits, ``appeal_settle`` (subscribed to
``DisputeDecided``) closes the appeal on the case: an upheld one lifts the mute, the
suspension and the closure of everyone the case sanctioned, unless another case of theirs
still holds one. Money moved back and rating changes voided stay as decided; staff
correct those through a dispute about the match or ledger adjustments.

``appeals_settle_due`` runs the same step for any appeal whose dispute was decided but not
yet applied to the case (a crash between the two), from the beat schedule.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Standing, User
from accounts.standing import standing_restrict
from core import locks
from core.errors import Conflict, NotFound
from core.locks import Lock
from disputes.appeals import appeal_file
from disputes.events import DisputeDecided
from disputes.models import Decision as DisputeDecision
from disputes.models import Dispute, DisputeState
from fairplay.models import Case, CaseEvent, CaseState, Sanction, SanctionKind
from fairplay.sanctions import Decision, locked_case, tell

LIFTED_KINDS = (SanctionKind.MUTE, SanctionKind.SUSPEND, SanctionKind.CLOSE)


@transaction.atomic
def case_appeal(*, case_id: int, user: User, text: str) -> Case:
    """The case's subject asks staff to look again at a decision against them: a dispute
    (``disputes.appeals.appeal_file`` checks the text)."""
    case = locked_case(case_id)
    if case.subject_id != user.pk:
        raise NotFound(_("No such case."))
    if case.state != CaseState.DECIDED or case.decision != Decision.SANCTION:
        raise Conflict(_("Only a decided case with a sanction can be appealed."))
    if case.appealed_at is not None:
        raise Conflict(_("This decision has been appealed once already."))
    dispute = appeal_file(
        user=user, case_id=case.pk, description=text, appealed=appealed_decision(case)
    )
    case.state = CaseState.APPEALED
    case.appeal = dispute.description
    case.appealed_at = dispute.created_at
    case.appeal_dispute = dispute
    case.save(update_fields=["state", "appeal", "appealed_at", "appeal_dispute", "updated_at"])
    CaseEvent.objects.create(
        case=case,
        actor=user,
        action="appealed",
        detail={"text": dispute.description, "dispute": dispute.pk},
    )
    return case


def appealed_decision(case: Case) -> dict[str, Any]:
    """The decision as it stands, for the staff who decide the appeal (kept on the dispute)."""
    return {
        "kind": case.kind,
        "kind_label": case.get_kind_display(),
        "summary": case.summary,
        "reason": case.decision_reason,
        "decided_by": case.decided_by.username if case.decided_by else None,
        "decided_at": case.decided_at.isoformat() if case.decided_at else None,
        "sanctions": [
            {
                "kind": sanction.kind,
                "label": sanction.get_kind_display(),
                "user": sanction.user.username,
                "until": sanction.until.isoformat() if sanction.until else None,
            }
            for sanction in case.sanctions.select_related("user")
        ],
        "staff_url": reverse("fairplay-case", kwargs={"case_id": case.pk}),
        "player_url": reverse("fairplay-my-case", kwargs={"case_id": case.pk}),
    }


def on_dispute_decided(event: DisputeDecided) -> None:
    if event.fairplay_case_id is not None:
        appeal_settle(dispute_id=event.dispute_id)


@transaction.atomic
def appeal_settle(*, dispute_id: int) -> Case | None:
    """Apply the decided appeal ``dispute_id`` to its case; nothing when already applied."""
    case = (
        locks.select(Lock.CASE, Case.objects.all())
        .filter(appeal_dispute_id=dispute_id, state=CaseState.APPEALED)
        .first()
    )
    if case is None:
        return None
    dispute = Dispute.objects.select_related("decided_by").get(pk=dispute_id)
    if dispute.state != DisputeState.DECIDED:
        return None
    lifted: list[dict[str, Any]] = []
    if dispute.decision == DisputeDecision.UPHOLD:
        for user in User.objects.filter(
            pk__in=case.sanctions.filter(kind__in=LIFTED_KINDS).values("user_id")
        ).order_by("pk"):  # their standings in id order (core.locks)
            _lift(case, user, dispute)
            lifted.append({"kind": SanctionKind.LIFT.value, "user": user.username})
    case.state = CaseState.DECIDED
    case.save(update_fields=["state", "updated_at"])
    CaseEvent.objects.create(
        case=case,
        actor=dispute.decided_by,
        action="appeal_decided",
        detail={
            "dispute": dispute.pk,
            "decision": dispute.decision,
            "reason": dispute.decision_reason,
            "lifted": lifted,
        },
    )
    return case


def appeals_settle_due() -> int:
    """Settle every appeal whose dispute is decided while its case still waits."""
    due = Case.objects.filter(
        state=CaseState.APPEALED, appeal_dispute__state=DisputeState.DECIDED
    ).values_list("appeal_dispute_id", flat=True)
    return sum(appeal_settle(dispute_id=pk) is not None for pk in list(due))


def _lift(case: Case, user: User, dispute: Dispute) -> None:
    """Lift what this case imposed on ``user``, keeping what their other cases still hold."""
    assert dispute.decided_by is not None
    # The player's standing row first: a sanction of another case being applied now holds
    # it until it commits, and is then seen below rather than overwritten.
    locks.select(Lock.STANDING, Standing.objects.all(), user.pk).get_or_create(user=user)
    still = _held_elsewhere(case, user)
    standing_restrict(
        user=user,
        muted_until=still.get(SanctionKind.MUTE),
        suspended_until=still.get(SanctionKind.SUSPEND),
        closed_at=still.get(SanctionKind.CLOSE),
        reason=f"Appeal upheld (dispute #{dispute.pk})",
    )
    lifted = Sanction.objects.create(
        case=case,
        user=user,
        kind=SanctionKind.LIFT,
        reason=dispute.decision_reason,
        staff=dispute.decided_by,
        outcome={"dispute": dispute.pk, "still_held": sorted(still)},
    )
    if user.pk != dispute.filed_by_id:  # the one who appealed hears it from the dispute
        tell(lifted)


def _held_elsewhere(case: Case, user: User) -> dict[str, datetime]:
    """The mutes, suspensions and closure ``user``'s other standing cases still impose."""
    now = timezone.now()
    lifted_cases = Sanction.objects.filter(user=user, kind=SanctionKind.LIFT).values("case_id")
    held: dict[str, datetime] = {}
    others = (
        Sanction.objects.filter(user=user, kind__in=LIFTED_KINDS)
        .exclude(case=case)
        .exclude(case_id__in=lifted_cases)
    )
    for sanction in others:
        kind = SanctionKind(sanction.kind)
        if kind == SanctionKind.CLOSE:  # closed since the first closure that stands
            held[kind] = min(held.get(kind, sanction.created_at), sanction.created_at)
        elif sanction.until is not None and sanction.until > now:  # until the latest end
            held[kind] = max(held.get(kind, sanction.until), sanction.until)
    return held
