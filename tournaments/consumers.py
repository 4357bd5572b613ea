"""WebSocket /ws/tournaments/<id>/: tells the page that the tournament changed.

Access is checked in ``connect`` (drafts only for their organizer); after that the consumer
only relays: each ``tournament.changed`` event (and ``match.changed``, should a tournament's
match also be published here) becomes ``{"type": "changed"}``, and the page fetches the
bracket again. Nothing private is ever sent.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tournaments.events import tournament_group
from tournaments.selectors import visible_tournaments

NOT_FOUND = 4404


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    group: str

    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        viewer = user if user is not None and user.is_authenticated else None
        visible = await database_sync_to_async(
            lambda: visible_tournaments(viewer=viewer).filter(pk=tournament_id).exists()
        )()
        if not visible:
            await self.close(code=NOT_FOUND)
            return
        self.group = tournament_group(tournament_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json({"type": "error", "message": "This channel only sends updates."})

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})

    async def match_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})
