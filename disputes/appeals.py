"""Filing an appeal of a fair-play decision as a dispute (``disputes.models``: *appeal*).

Fair play owns its cases and checks that the player may appeal; the appeal is then a
dispute like any other: in the queue, taken, decided with a reason (``dismiss`` or
``uphold``, in ``disputes.services``) and audited.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from accounts.models import User
from config.errors import Conflict, DomainError
from disputes.models import AuditAction, AuditEntry, Dispute, DisputeCategory
from disputes.services import DESCRIPTION_LIMIT


@transaction.atomic
def appeal_file(*, user: User, case_id: int, description: str, appealed: dict[str, Any]) -> Dispute:
    """File ``user``'s appeal of fair-play case ``case_id`` as a dispute.

    Fair play calls this once it has checked that the player may appeal (it owns the case);
    ``appealed`` is the decision as it stands, for the staff who decide the appeal.
    """
    description = description.strip()
    if not description:
        raise DomainError("Say why the decision is wrong: staff read it first.")
    if len(description) > DESCRIPTION_LIMIT:
        raise DomainError(f"Keep the appeal within {DESCRIPTION_LIMIT} characters.")
    try:
        with transaction.atomic():
            dispute = Dispute.objects.create(
                fairplay_case_id=case_id,
                filed_by=user,
                category=DisputeCategory.APPEAL,
                description=description,
                appealed=appealed,
            )
    except IntegrityError:
        raise Conflict("This decision has an appeal waiting already.") from None
    AuditEntry.objects.create(
        dispute=dispute,
        actor=user,
        action=AuditAction.FILED,
        what=f"Filed (appeal of fair-play case #{case_id})",
        after={"state": dispute.state, "category": dispute.category},
    )
    return dispute
