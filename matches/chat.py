"""Chat beside the board: players talk to each other, spectators among themselves.

A person may send at most ``BURST`` lines in ``WINDOW`` seconds; the lines are kept
with the match so a dispute can quote them.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from config.errors import DomainError
from matches import events
from matches.models import ChatMessage, ChatRoom, Match

BURST = 5
WINDOW = timedelta(seconds=10)
MAX_LENGTH = 500


@transaction.atomic
def chat_send(*, match: Match, author: User, text: str) -> ChatMessage:
    text = " ".join(text.split())
    if not text:
        raise DomainError("Write something first")
    if len(text) > MAX_LENGTH:
        raise DomainError(f"Keep a message under {MAX_LENGTH} characters")
    room = ChatRoom.PLAYERS if match.seat_of(author) is not None else ChatRoom.SPECTATORS
    recent = ChatMessage.objects.filter(
        match=match, author=author, created_at__gte=timezone.now() - WINDOW
    ).count()
    if recent >= BURST:
        raise DomainError("You are sending messages too fast; wait a few seconds")
    message = ChatMessage.objects.create(match=match, author=author, room=room, text=text)
    events.publish_chat(
        match.pk,
        {
            "room": room,
            "author": author.username,
            "name": author.profile.display_name,
            "text": text,
            "at": message.created_at.isoformat(),
        },
    )
    return message


def chat_recent(*, match: Match, viewer: User | None, limit: int = 50) -> list[dict[str, str]]:
    room = (
        ChatRoom.PLAYERS
        if viewer is not None and match.seat_of(viewer) is not None
        else ChatRoom.SPECTATORS
    )
    lines = (
        ChatMessage.objects.filter(match=match, room=room)
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
