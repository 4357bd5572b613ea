"""The one publisher of live match events, always after the transaction commits.

Each match has a channel-layer group ``match.<id>``. When a match changes, the publisher
reads it once and puts the snapshot of each seat and of a watcher into the event; each
consumer forwards only its own viewer's snapshot, so nothing private (the mover's legal
plays) reaches anyone else, and a change costs one read, not one per connection.
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
    transaction.on_commit(lambda: _send_changed(match_id, seq))


def _send_changed(match_id: int, seq: int) -> None:
    from matches.selectors import broadcast_snapshots  # selectors read through services

    if get_channel_layer() is None:
        return
    event = {"type": "match.changed", "seq": seq, "snapshots": broadcast_snapshots(match_id)}
    _send(match_group(match_id), event)


def publish_chat(match_id: int, message: dict[str, object]) -> None:
    transaction.on_commit(
        lambda: _send(match_group(match_id), {"type": "match.chat", "message": message})
    )


def _send(group: str, event: dict[str, object]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, event)
