"""WebSocket /ws/disputes/: tells a logged-in user that one of their disputes was decided.

``connect`` refuses anonymous visitors; after that the consumer only relays each
``dispute.decided`` event of the user's own group as ``{"type": "decided", ...}``.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from disputes.events import user_group

NOT_LOGGED_IN = 4401


class DisputeConsumer(AsyncJsonWebsocketConsumer):
    group: str

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=NOT_LOGGED_IN)
            return
        self.group = user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json({"type": "error", "message": "This channel only sends updates."})

    async def dispute_decided(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "decided",
                "dispute": event["dispute"],
                "match": event["match"],
                "decision": event["decision"],
            }
        )
