"""Redis away in the middle of a match: the moves still go through the sockets already
open. Each change commits; its frames are lost with the channel layer, and the boards are
brought up to date from the database within a second or two instead."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from asgiref.sync import sync_to_async
from django.test import override_settings

from core import live
from tests.factories import UserFactory
from tests.integration.matches.helpers import quick_play, start_match
from tests.integration.matches.sockets import latest_state, next_frame, open_socket
from tests.private_services import PrivateRedis

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.slow]


@pytest.fixture
def layer_on_a_private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis().start()
    layers = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [server.url()], "prefix": "outage"},
        }
    }
    try:
        with override_settings(CHANNEL_LAYERS=layers):
            yield server
    finally:
        server.close()


async def test_a_move_made_while_redis_is_away_reaches_the_opponents_board(
    layer_on_a_private_redis: PrivateRedis,
) -> None:
    # given Alice and Bruno at the board, each with the opening state
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=3)
    boards = {
        "alice": await open_socket(match_id, alice),
        "bruno": await open_socket(match_id, bruno),
    }
    states = {name: (await next_frame(board, "state"))["state"] for name, board in boards.items()}
    mover = states["alice"]["game"]["turn"]
    other = "bruno" if mover == "alice" else "alice"

    # when Redis goes away and the player on roll plays
    layer_on_a_private_redis.stop()
    play = quick_play(states[mover]["game"]["legal_plays"])
    await boards[mover].send_json_to({"type": "play", "play": play, "seq": 1})

    # then the move is acknowledged as done, and the opponent's board shows it
    assert await next_frame(boards[mover], "ack") == {"type": "ack", "seq": 1, "applied": True}
    seen = await latest_state(boards[other], states[other]["last_seq"] + 1)
    assert seen["game"]["turn"] == other


async def test_sockets_coming_and_going_leave_one_listener_of_lost_frames() -> None:
    # given a match and its players
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=3)
    board = await open_socket(match_id, alice)
    await next_frame(board, "state")
    listening = len(live._lost_listeners)

    # when sockets open and close again and again on this server process
    for _ in range(5):
        socket = await open_socket(match_id, bruno)
        await next_frame(socket, "state")
        await socket.disconnect()
    await board.disconnect()

    # then the process still has the one heartbeat listening, not one per socket
    assert len(live._lost_listeners) == listening
