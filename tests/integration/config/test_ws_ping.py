"""The /ws/ping/ echo goes through channels-redis and needs a logged-in session."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from tests.factories import UserFactory
from tests.integration.served_asyncapi import served_messages, undocumented

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = (b"origin", b"http://127.0.0.1")


def _session_cookie(user: object) -> bytes:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


async def test_the_layer_is_redis() -> None:
    assert type(get_channel_layer()).__name__ == "RedisPubSubChannelLayer"


async def test_a_logged_in_player_gets_the_message_back_through_the_layer() -> None:
    from asgiref.sync import sync_to_async

    user = await sync_to_async(UserFactory)(username="echo")
    cookie = await sync_to_async(_session_cookie)(user)
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[ORIGIN, (b"cookie", cookie)]
    )

    connected, _ = await communicator.connect()
    assert connected
    await communicator.send_json_to({"message": "hello"})
    echoed = await communicator.receive_json_from(timeout=5)
    await communicator.send_json_to({"nothing": 1})
    refused = await communicator.receive_json_from(timeout=5)
    await communicator.disconnect()

    assert echoed == {"type": "echo", "echo": "hello", "user": "echo"}
    assert refused == {"type": "error", "message": 'Send {"message": ...} to get it echoed.'}
    documented = await sync_to_async(served_messages)("ping", "receive")
    assert undocumented([echoed, refused], documented) == []


async def test_an_anonymous_visitor_is_turned_away() -> None:
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN])

    opened, _ = await communicator.connect()
    closed = await communicator.receive_output(timeout=5)

    assert opened  # and then closed, so that a browser can read why
    assert (closed["type"], closed["code"]) == ("websocket.close", 4401)


async def test_a_foreign_origin_is_refused() -> None:
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"http://evil.invalid")]
    )

    connected, _ = await communicator.connect()

    assert not connected
