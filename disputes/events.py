"""What disputes tell the world, always after the transaction commits.

A domain event (``core.bus``) for the apps above: a dispute was decided. The lobby
subscribes and tells the player who filed it and both players of the match, on their
notification channel (``/ws/me/``) and in their notices; fair play subscribes to apply a
decided appeal of one of its cases.
"""

from __future__ import annotations

from dataclasses import dataclass

from core import bus
from disputes.models import Dispute


@dataclass(frozen=True)
class DisputeDecided:
    """Staff decided ``dispute_id`` about ``match_id`` (or, for an appeal, about fair-play
    case ``fairplay_case_id``); ``decision`` is a ``disputes.models.Decision`` value;
    ``player_ids`` are the match's players (none for an appeal)."""

    dispute_id: int
    match_id: int | None
    filed_by_id: int
    player_ids: tuple[int, ...]
    decision: str
    fairplay_case_id: int | None = None


def publish_decided(dispute: Dispute) -> None:
    """Tell the people the decision concerns, once it is committed."""
    match = dispute.match
    bus.publish_on_commit(
        DisputeDecided(
            dispute.pk,
            dispute.match_id,
            dispute.filed_by_id,
            (match.player_0_id, match.player_1_id) if match is not None else (),
            dispute.decision,
            dispute.fairplay_case_id,
        )
    )
