"""Sockets stay in their groups for as long as they are open, whatever the channel layer
forgets, and an anonymous crowd from one address cannot fill a server's sockets."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from core import sockets
from lobby.events import LOBBY_GROUP, user_group
from tests.factories import UserFactory
from tests.integration.matches.sockets import ORIGIN, _cookie, group_subscribers
from tests.integration.tournaments.helpers import open_tournament, organizer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _socket(path: str, user: Any | None = None, address: str = "127.0.0.1") -> Any:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(_cookie)(user)))
    socket = WebsocketCommunicator(application, path, headers=headers)
    socket.scope["client"] = (address, 50000)
    return socket


async def test_a_socket_is_in_its_group_while_open_and_nowhere_once_closed() -> None:
    # given: a player's /ws/me/ socket
    alice = await sync_to_async(UserFactory)(username="alice")
    group = user_group(alice.pk)
    me = await _socket("/ws/me/", alice)
    assert (await me.connect())[0]

    # then: the group reaches it, and this server is subscribed to the group in Redis
    await get_channel_layer().group_send(group, {"type": "notice.unread", "unread": 1})
    assert (await me.receive_json_from(timeout=5))["unread"] == 1
    assert await group_subscribers(group) == 1

    # when: it closes, nothing of it is left in the group
    await me.disconnect()
    assert await group_subscribers(group) == 0
    assert not sockets.members().groups


@pytest.mark.parametrize("kind", ["lobby", "tournament"])
async def test_an_address_holds_only_so_many_anonymous_sockets_of_a_kind(kind: str) -> None:
    if kind == "lobby":
        path = "/ws/lobby/"
    else:
        tournament = await sync_to_async(lambda: open_tournament(organizer()))()
        path = f"/ws/tournaments/{tournament.pk}/"
    crowd = [await _socket(path) for _ in range(sockets.ANONYMOUS_PER_ADDRESS)]
    for socket in crowd:
        assert (await socket.connect())[0]

    one_more = await _socket(path)
    opened, _ = await one_more.connect()
    closed = await one_more.receive_output(timeout=5)
    elsewhere = await _socket(path, address="192.0.2.9")
    player = await _socket(path, await sync_to_async(UserFactory)(username="bruno"))

    assert opened  # and then closed, so that a browser can read why
    assert (closed["type"], closed["code"]) == ("websocket.close", sockets.TOO_MANY)
    assert (await elsewhere.connect())[0]
    assert (await player.connect())[0]
    # one leaves: there is room again
    await crowd.pop().disconnect()
    again = await _socket(path)
    assert (await again.connect())[0]
    if kind == "lobby":
        await get_channel_layer().group_send(
            LOBBY_GROUP, {"type": "lobby.seek", "event": "posted", "seek": 1}
        )
        assert (await again.receive_json_from(timeout=5))["type"] == "seek"
    for socket in (*crowd, elsewhere, player, again):
        await socket.disconnect()
