"""The one publisher of live dispute events, always after the transaction commits.

Each logged-in user has a channel-layer group ``disputes.user.<id>``; a decision is sent to
the player who filed the dispute and to both players of the match, who read it on their
pages. Only the dispute's id, match and decision label travel; the pages fetch the rest.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from disputes.models import Dispute


def user_group(user_id: int) -> str:
    return f"disputes.user.{user_id}"


def publish_decided(dispute: Dispute) -> None:
    """Tell the people the decision concerns, once it is committed."""
    match = dispute.match
    people = {dispute.filed_by_id, match.player_0_id, match.player_1_id}
    event = {
        "type": "dispute.decided",
        "dispute": dispute.pk,
        "match": match.pk,
        "decision": dispute.get_decision_display(),
    }
    transaction.on_commit(lambda: _send(people, event))


def _send(people: set[int], event: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for user_id in sorted(people):
        async_to_sync(layer.group_send)(user_group(user_id), event)
