"""Filing an appeal of a fair-play decision as a dispute (``disputes.models``: *appeal*).

Fair play owns its cases and checks that the player may appeal; the appeal is then a
dispute like any other: in the queue, taken, decided with a reason (``dismiss`` or
``uphold``, in ``disputes.services``) and audited.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from disputes.models import Dispute, DisputeCategory
from disputes.services import described, filed


@transaction.atomic
def appeal_file(*, user: User, case_id: int, description: str, appealed: dict[str, Any]) -> Dispute:
    """File ``user``'s appeal of fair-play case ``case_id`` as a dispute.

    Fair play calls this once it has checked that the player may appeal (it owns the case);
    ``appealed`` is the decision as it stands, for the staff who decide the appeal.
    """
    description = described(
        description, missing=_("Say why the decision is wrong: staff read it first.")
    )
    return filed(
        user=user,
        conflict=_("This decision has an appeal waiting already."),
        what=f"Filed (appeal of fair-play case #{case_id})",
        fairplay_case_id=case_id,
        category=DisputeCategory.APPEAL,
        description=description,
        appealed=appealed,
    )
