"""The one publisher of the lobby's live frames, always after the transaction commits.

Each logged-in player has a channel-layer group ``user.<id>``, joined by every tab's
``/ws/me/`` socket: a new notice travels to it with the player's unread count, and a change
of that count alone (notices read in another tab) as the count. The group ``lobby``, joined
by the play lobby's ``/ws/lobby/`` sockets, hears that a seek was posted, taken or
cancelled. A posted seek's frame is built once for every viewer: its row's markup, the
same for all, and its take rules (``lobby.terms``), from which each page decides what its
own viewer sees (Cancel, Play, or why not). Its words are written in the site's default
language (``language``, whoever posted the seek): a page in another language fetches its
list instead, in its own. A seek's frames are sent one at a time, under
an advisory lock held from the read to the send, and a posted seek's frame only while it
is still open: a page never hears "posted" after "taken" or "cancelled".
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from core import live, locks
from core.locks import Lock
from lobby.models import Notification
from lobby.selectors import notice_data, open_seek, seek_row, unread_count, unread_counts
from lobby.terms import take_rules

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


def publish_notices(frames: list[tuple[int, dict[str, Any]]]) -> None:
    """``publish_notice`` for many players at once, each notice given by its player's id and
    its ``notice_data``: their unread counts read in one query, the frames sent together."""

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
    """Tell the play lobby that a seek was "posted", "taken" or "cancelled", once it is
    committed: the frame is encoded here, once, and every lobby socket sends that text."""
    transaction.on_commit(lambda: _send_seek(seek_id, what))


def _send_seek(seek_id: int, what: str) -> None:
    with transaction.atomic():
        locks.advisory(Lock.SEEK_FRAMES, 0)
        frame: dict[str, Any] | None = {"type": "seek", "event": what, "seek": seek_id}
        if what == "posted":
            frame = posted_frame(seek_id)
        if frame is not None:
            text = live.frame_text(frame)
            _send(LOBBY_GROUP, {"type": "lobby.seek", "seek": seek_id, "event": what, "text": text})


def posted_frame(seek_id: int) -> dict[str, Any] | None:
    """The frame of a seek just posted, for every viewer: its row (``row``, with each of its
    endings as a template), its creator and its take rules; None when it is no longer open
    (its own "taken" or "cancelled" went, or will go, after this read)."""
    seek = open_seek(seek_id=seek_id)
    if seek is None:
        return None
    with translation.override(settings.LANGUAGE_CODE):
        row = render_to_string(
            "lobby/partials/seek_row.html", {"row": seek_row(seek, viewer=None), "everyone": True}
        )
        rules = take_rules(seek)
    return {
        "type": "seek",
        "event": "posted",
        "seek": seek_id,
        "language": settings.LANGUAGE_CODE,
        "row": row.strip(),
        "creator": seek.creator_id,
        "rules": rules,
    }


def _send(group: str, event: dict[str, Any]) -> None:
    live.group_send(group, event)
