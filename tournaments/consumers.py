"""WebSocket /ws/tournaments/<id>/: tells the page that the tournament changed.

Access is checked in ``connect`` (drafts only for their organizer); after that the consumer
only relays: each ``tournament.changed`` event carries its frame as text, encoded once for
every watcher (``tournaments.bracket.live``), and the socket sends it as it is. Nothing
private is ever sent.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from core.sockets import JsonSocket
from tournaments.bracket.live import PLAIN
from tournaments.events import tournament_group
from tournaments.selectors import visible_tournaments

NOT_FOUND = 4404


class TournamentConsumer(JsonSocket):
    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        user = self.scope.get("user")
        viewer = user if user is not None and user.is_authenticated else None
        visible = await database_sync_to_async(
            lambda: visible_tournaments(viewer=viewer).filter(pk=tournament_id).exists()
        )()
        if not visible:
            await self.refuse(NOT_FOUND)
            return
        if await self.accept_if_room():
            await self.join_group(tournament_group(tournament_id))

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_json({"type": "error", "message": "This channel only sends updates."})

    async def tournament_changed(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event.get("text") or PLAIN)
