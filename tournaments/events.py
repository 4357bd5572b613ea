"""The one publisher of live tournament events, always after the transaction commits.

Each tournament has a channel-layer group ``tournament.<id>``. Its consumers are told that
the tournament changed (an entry, a filled slot, a result, the end) and fetch the bracket
again; nothing is broadcast that a spectator could not read on the page.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def publish_tournament(tournament_id: int) -> None:
    """Tell everyone watching the tournament that it changed, once the change is committed."""
    transaction.on_commit(lambda: _send(tournament_id))


def _send(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            tournament_group(tournament_id), {"type": "tournament.changed"}
        )
