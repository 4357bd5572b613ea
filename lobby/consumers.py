"""WebSockets of the lobby: ``/ws/me/``, a player's notices, and ``/ws/lobby/``, the seeks.

``/ws/me/`` (one per tab) refuses anonymous visitors (4401), then relays the player's
group ``user.<id>`` and answers two requests:

* out ``{"type": "notice", "notice": {id, kind, text, url, data, created_at, read},
  "unread": n}`` for each new notice, and ``{"type": "unread", "unread": n}`` when notices
  were read (in any tab);
* in ``{"type": "page", "url": "/matches/12/"}``, sent by each page as it opens: the
  notices pointing to that page are read, and the answer ``{"type": "page", "unread": n,
  "waiting": [notice, ...]}`` carries the unread matches still waiting for the player to
  come to the board, so a notice that arrived while the page was loading is not lost;
* in ``{"type": "read", "ids": [...]}``: those notices (a card dismissed) are read.

``/ws/lobby/`` is open to everyone and only relays: ``{"type": "seek", "event": "taken" |
"cancelled", "seek": id}``, and for a seek posted also its row, its creator and its take
rules (``lobby.events.posted_frame``), from which the play lobby's page adds the row for its
own viewer without asking the server.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone

from accounts.services import seen_on_site
from core.sockets import FrameError, JsonSocket, text, whole_number
from lobby.events import LOBBY_GROUP, user_group
from lobby.notifications import notices_read
from lobby.selectors import notice_data, unread_count, waiting_notices

NOT_LOGGED_IN = 4401
MAX_IDS = 100
MAX_URL_CHARS = 200


class MeConsumer(JsonSocket):
    user_id: int

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(NOT_LOGGED_IN)
            return
        self.user_id = user.pk
        await self.accept()
        await self.join_group(user_group(user.pk))

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "page":
            url = text(content.get("url"), "url", limit=MAX_URL_CHARS) or "/"
            await self.send_json(await database_sync_to_async(self._page_opened)(url))
        elif kind == "read":
            ids = _ids(content.get("ids"))
            if not await database_sync_to_async(notices_read)(user_id=self.user_id, ids=ids):
                # Nothing changed, so the group hears nothing: this tab is answered alone.
                unread = await database_sync_to_async(unread_count)(user_id=self.user_id)
                await self.send_json({"type": "unread", "unread": unread})
        else:
            raise FrameError('Send {"type": "page", "url": ...} or {"type": "read", "ids": [...]}')

    def _page_opened(self, url: str) -> dict[str, Any]:
        # The player is on the site: a challenge now is not mailed (lobby.mail).
        seen_on_site(user_id=self.user_id)
        notices_read(user_id=self.user_id, url=url)
        waiting = waiting_notices(user_id=self.user_id, now=timezone.now())
        return {
            "type": "page",
            "unread": unread_count(user_id=self.user_id),
            "waiting": [notice_data(notice) for notice in waiting],
        }

    async def notice_new(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "notice", "notice": event["notice"], "unread": event["unread"]}
        )

    async def notice_unread(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "unread", "unread": event["unread"]})

    async def analysis_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "analysis", "analysis": event["analysis"]})


def _ids(value: Any) -> list[int]:
    if not isinstance(value, list) or len(value) > MAX_IDS:
        raise FrameError(f'"ids" must be a list of at most {MAX_IDS} notice ids')
    return [whole_number(item, "ids", low=1, high=2**63 - 1) for item in value]


class LobbyConsumer(JsonSocket):
    async def connect(self) -> None:
        if await self.accept_if_room():
            await self.join_group(LOBBY_GROUP)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        await self.send_error("This channel only sends updates.")

    async def lobby_seek(self, event: dict[str, Any]) -> None:
        text = event.get("text")
        if text is None:
            await self.send_json({"type": "seek", "event": event["event"], "seek": event["seek"]})
        else:
            await self.send(text_data=text)
