"""Chat beside the board: players talk to each other, spectators among themselves.

A person may send at most ``BURST`` lines in ``WINDOW`` seconds to one board, and at most
the ``chat`` rate (``CRAWFORD_THROTTLE_CHAT``) across all boards; the lines are kept with
the match so a dispute can quote them.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from config.errors import DomainError
from config.throttles import retry_after, throttle_player
from matches import events
from matches.models import ChatMessage, ChatRoom

BURST = 5
WINDOW = timedelta(seconds=10)
MAX_LENGTH = 500


@transaction.atomic
def chat_send(*, match_id: int, author: User, seat: int | None, text: str) -> ChatMessage:
    """Send ``text`` to the players' room (``seat`` 0 or 1) or the spectators' (None)."""
    text = " ".join(text.split())
    if not text:
        raise DomainError("Write something first")
    if len(text) > MAX_LENGTH:
        raise DomainError(f"Keep a message under {MAX_LENGTH} characters")
    room = ChatRoom.PLAYERS if seat is not None else ChatRoom.SPECTATORS
    recent = ChatMessage.objects.filter(
        match_id=match_id, author=author, created_at__gte=timezone.now() - WINDOW
    ).count()
    if recent >= BURST:
        raise DomainError("You are sending messages too fast; wait a few seconds")
    wait = throttle_player("chat", author.pk)
    if wait is not None:
        raise DomainError(f"You are sending messages too fast; wait {retry_after(wait)} s")
    message = ChatMessage.objects.create(match_id=match_id, author=author, room=room, text=text)
    events.publish_chat(
        match_id,
        {
            "room": room,
            "author": author.username,
            "name": author.profile.display_name,
            "text": text,
            "at": message.created_at.isoformat(),
        },
    )
    return message


def chat_recent(*, match_id: int, players_room: bool, limit: int = 50) -> list[dict[str, str]]:
    """The last ``limit`` lines of the players' room or the spectators', oldest first."""
    room = ChatRoom.PLAYERS if players_room else ChatRoom.SPECTATORS
    lines = (
        ChatMessage.objects.filter(match_id=match_id, room=room)
        .select_related("author__profile")
        .order_by("-created_at", "-pk")[:limit]
    )
    return [
        {
            "room": line.room,
            "author": line.author.username,
            "name": line.author.profile.display_name,
            "text": line.text,
            "at": line.created_at.isoformat(),
        }
        for line in reversed(list(lines))
    ]
