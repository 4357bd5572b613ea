"""The one publisher of the lobby's live frames, always after the transaction commits.

Each logged-in player has a channel-layer group ``user.<id>``, joined by every tab's
``/ws/me/`` socket: a new notice travels to it with the player's unread count, and a change
of that count alone (notices read in another tab) as the count. The group ``lobby``, joined
by the play lobby's ``/ws/lobby/`` sockets, hears that a seek was posted, taken or
cancelled; the page fetches the list again, as each viewer may take different seeks.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from config import live
from lobby.models import Notification
from lobby.selectors import notice_data, unread_count, unread_counts

LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def publish_notice(notice: Notification) -> None:
    """Send the notice to every tab of its player, once it is committed."""
    data, user_id = notice_data(notice), notice.user_id
    transaction.on_commit(
        lambda: _send(
            user_group(user_id),
            {"type": "notice.new", "notice": data, "unread": unread_count(user_id=user_id)},
        )
    )


def publish_notices(notices: list[Notification]) -> None:
    """``publish_notice`` for many players at once: their unread counts read in one query,
    the frames sent together."""
    frames = [(notice.user_id, notice_data(notice)) for notice in notices]

    def send() -> None:
        unread = unread_counts(user_ids={user_id for user_id, _ in frames})
        live.group_send_many(
            [
                (
                    user_group(user_id),
                    {"type": "notice.new", "notice": data, "unread": unread.get(user_id, 0)},
                )
                for user_id, data in frames
            ]
        )

    transaction.on_commit(send)


def publish_unread(user_id: int) -> None:
    """Tell every tab of the player how many notices are unread now."""
    transaction.on_commit(
        lambda: _send(
            user_group(user_id),
            {"type": "notice.unread", "unread": unread_count(user_id=user_id)},
        )
    )


def publish_analysis(user_ids: tuple[int, ...], analysis: dict[str, Any]) -> None:
    """Tell every tab of each follower how an analysis stands (sent at once: the event
    that asks for it was delivered after its transaction committed)."""
    live.group_send_many(
        [
            (user_group(user_id), {"type": "analysis.changed", "analysis": analysis})
            for user_id in user_ids
        ]
    )


def publish_seek(seek_id: int, what: str) -> None:
    """Tell the play lobby that a seek was "posted", "taken" or "cancelled": the frame is
    encoded here, once, and every lobby socket sends that text as it is."""
    text = live.frame_text({"type": "seek", "event": what, "seek": seek_id})
    transaction.on_commit(
        lambda: _send(
            LOBBY_GROUP, {"type": "lobby.seek", "seek": seek_id, "event": what, "text": text}
        )
    )


def _send(group: str, event: dict[str, Any]) -> None:
    live.group_send(group, event)
