"""What disputes tell the world, always after the transaction commits.

A domain event (``config.bus``) for the apps above: a dispute was decided. The lobby
subscribes and tells the player who filed it and both players of the match, on their
notification channel (``/ws/me/``) and in their notices.
"""

from __future__ import annotations

from dataclasses import dataclass

from config import bus
from disputes.models import Dispute


@dataclass(frozen=True)
class DisputeDecided:
    """Staff decided ``dispute_id`` about ``match_id``; ``decision`` is a
    ``disputes.models.Decision`` value."""

    dispute_id: int
    match_id: int
    filed_by_id: int
    player_ids: tuple[int, int]
    decision: str


def publish_decided(dispute: Dispute) -> None:
    """Tell the people the decision concerns, once it is committed."""
    match = dispute.match
    bus.publish_on_commit(
        DisputeDecided(
            dispute.pk,
            match.pk,
            dispute.filed_by_id,
            (match.player_0_id, match.player_1_id),
            dispute.decision,
        )
    )
