"""Players, sockets and seeks for the lobby's tests, made the way players make them."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from config.asgi import application
from lobby.models import Notification
from tests.factories import UserFactory
from tests.integration.matches.sockets import ORIGIN, _cookie


def player(username: str, display_name: str | None = None, **options: Any) -> User:
    return UserFactory(
        username=username, display_name=display_name or username.capitalize(), **options
    )


def notices(user: User) -> list[Notification]:
    """The player's notices, newest first."""
    return list(Notification.objects.filter(user=user).order_by("-created_at", "-pk"))


def texts(user: User) -> list[str]:
    return [notice.text for notice in notices(user)]


async def socket_to(path: str, user: User | None) -> WebsocketCommunicator:
    """A socket to ``path`` as ``user`` (None: anonymous), not yet connected."""
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(_cookie)(user)))
    return WebsocketCommunicator(application, path, headers=headers)


async def me_socket(user: User) -> WebsocketCommunicator:
    """``/ws/me/`` as ``user``, connected."""
    socket = await socket_to("/ws/me/", user)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def next_frame(socket: WebsocketCommunicator, kind: str) -> dict[str, Any]:
    """The next frame of ``kind``, skipping others."""
    while True:
        frame = await socket.receive_json_from(timeout=10)
        if frame["type"] == kind:
            return frame
