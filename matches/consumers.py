"""WebSocket /ws/matches/<id>/: snapshots and events out, actions and chat in.

Access is checked in ``connect``; after that the consumer only relays: actions go to
``matches.services``, changes come back as group events, each turned into the snapshot
for this connection's viewer. Every action carries a client ``seq``; a repeated one is
answered, not applied twice. Errors come back as ``{"type": "error", "message"}``.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from config.errors import DomainError
from matches import chat, services
from matches.events import match_group
from matches.selectors import BROADCAST_WATCHER, match_snapshot, visible_matches

NOT_FOUND = 4404
ACTION_TYPES = {
    "roll",
    "play",
    "double",
    "take",
    "drop",
    "beaver",
    "resign",
    "accept_resign",
    "reject_resign",
}


class MatchConsumer(AsyncJsonWebsocketConsumer):
    match_id: int
    group: str
    seat: int | None = None

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        user = self.scope.get("user")
        self.viewer = user if user is not None and user.is_authenticated else None
        if not await self._can_watch():
            await self.close(code=NOT_FOUND)
            return
        self.group = match_group(self.match_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await database_sync_to_async(self._connected)()
        await self._send_state()
        await self.send_json(
            {"type": "chat_history", "messages": await database_sync_to_async(self._chat_history)()}
        )

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(self._disconnected)()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json({"type": "error", "message": "Send a JSON object"})
            return
        kind = content.get("type")
        if kind == "chat":
            await self._chat(content)
        elif kind in ACTION_TYPES:
            await self._act(content)
        else:
            await self.send_json({"type": "error", "message": f"Unknown message type {kind!r}"})

    async def match_changed(self, event: dict[str, Any]) -> None:
        key = str(self.seat) if self.seat is not None else BROADCAST_WATCHER
        snapshot = event.get("snapshots", {}).get(key)
        if snapshot is None:
            await self._send_state()
        else:
            await self.send_json({"type": "state", "state": snapshot})

    async def match_chat(self, event: dict[str, Any]) -> None:
        message = event["message"]
        player = await database_sync_to_async(self._is_player)()
        if (message["room"] == "players") == player:
            await self.send_json({"type": "chat", "message": message})

    async def _act(self, content: dict[str, Any]) -> None:
        seq = content.get("seq")
        if self.viewer is None:
            await self.send_json({"type": "error", "seq": seq, "message": "Log in to play"})
            return
        if not isinstance(seq, int) or seq < 0:
            await self.send_json(
                {"type": "error", "seq": seq, "message": 'Each action needs a whole number "seq"'}
            )
            return
        try:
            result = await database_sync_to_async(services.action_submit)(
                match_id=self.match_id,
                user=self.viewer,
                kind=content["type"],
                seq=seq,
                play=content.get("play"),
                position_id=content.get("position_id"),
                resign=content.get("resign"),
            )
        except DomainError as error:
            await self.send_json(
                {"type": "error", "seq": seq, "message": str(error), "status": error.status_code}
            )
            return
        await self.send_json({"type": "ack", "seq": seq, "applied": result.applied})
        if not result.applied:
            await self._send_state()

    async def _chat(self, content: dict[str, Any]) -> None:
        if self.viewer is None:
            await self.send_json({"type": "error", "message": "Log in to chat"})
            return
        try:
            await database_sync_to_async(self._chat_send)(str(content.get("text", "")))
        except DomainError as error:
            await self.send_json({"type": "error", "message": str(error)})

    async def _send_state(self) -> None:
        await self.send_json(
            {"type": "state", "state": await database_sync_to_async(self._snapshot)()}
        )

    # ---- synchronous helpers run in the database thread

    @database_sync_to_async
    def _can_watch(self) -> bool:
        match = visible_matches(user=self.viewer).filter(pk=self.match_id).first()
        self.seat = match.seat_of(self.viewer) if match is not None else None
        return match is not None

    def _snapshot(self) -> dict[str, Any]:
        match = visible_matches(user=self.viewer).get(pk=self.match_id)
        return match_snapshot(match, viewer=self.viewer)

    def _is_player(self) -> bool:
        match = visible_matches(user=self.viewer).get(pk=self.match_id)
        return self.viewer is not None and match.seat_of(self.viewer) is not None

    def _connected(self) -> None:
        if self.viewer is not None:
            services.presence_connect(match_id=self.match_id, user=self.viewer)
        else:
            services.spectator_count(match_id=self.match_id, change=+1)

    def _disconnected(self) -> None:
        if self.viewer is not None:
            services.presence_disconnect(match_id=self.match_id, user=self.viewer)
        else:
            services.spectator_count(match_id=self.match_id, change=-1)

    def _chat_send(self, text: str) -> None:
        match = visible_matches(user=self.viewer).get(pk=self.match_id)
        assert self.viewer is not None
        chat.chat_send(match=match, author=self.viewer, text=text)

    def _chat_history(self) -> list[dict[str, str]]:
        match = visible_matches(user=self.viewer).get(pk=self.match_id)
        return chat.chat_recent(match=match, viewer=self.viewer)
