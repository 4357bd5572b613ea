"""Two changes whose frames reach a match's group in the other order (a worker's answer
for the computer overtaking the send of the move it answers): a socket never goes back to
the older state."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from matches.events import match_group
from matches.selectors import BROADCAST_WATCHER
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.matches.sockets import next_frame, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _changed(seq: int) -> dict[str, object]:
    text = json.dumps({"type": "state", "state": {"last_seq": seq}, "moves": {}})
    return {
        "type": "match.changed",
        "seq": seq,
        "frames": {"0": text, "1": text, BROADCAST_WATCHER: text},
    }


async def test_a_state_older_than_the_one_sent_is_not_forwarded() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    socket = await open_socket(match_id, alice)
    opened = (await next_frame(socket, "state"))["state"]["last_seq"]
    await next_frame(socket, "chat_history")
    for seq in (opened + 2, opened + 1, opened, opened + 3):
        await layer_send(match_id, seq)
    seen = [(await next_frame(socket, "state"))["state"]["last_seq"] for _ in range(2)]
    assert seen == [opened + 2, opened + 3]
    assert await socket.receive_nothing(timeout=0.3)
    await socket.disconnect()


async def test_a_change_as_new_as_the_opening_state_still_arrives() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    socket = await open_socket(match_id, bruno)
    opened = (await next_frame(socket, "state"))["state"]["last_seq"]
    await layer_send(match_id, opened)
    assert (await next_frame(socket, "state"))["state"]["last_seq"] == opened
    await socket.disconnect()


async def layer_send(match_id: int, seq: int) -> None:
    await get_channel_layer().group_send(match_group(match_id), _changed(seq))
