"""The one publisher of live match events, always after the transaction commits.

Each match has a channel-layer group ``match.<id>``; its consumers fetch the snapshot
for their own viewer (player or spectator) when told the match changed, so nothing
private (legal plays, the dice seed before the end) is ever broadcast.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from matches.models import Match


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def publish_match(match: Match) -> None:
    """Tell everyone watching ``match`` that it changed, once the change is committed."""
    match_id, seq = match.pk, match.last_seq
    transaction.on_commit(
        lambda: _send(match_group(match_id), {"type": "match.changed", "seq": seq})
    )


def publish_chat(match_id: int, message: dict[str, object]) -> None:
    transaction.on_commit(
        lambda: _send(match_group(match_id), {"type": "match.chat", "message": message})
    )


def _send(group: str, event: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, event)
