"""Chat over the match socket is held to the player's chat rate: a message past it is
answered with an error frame saying how long to wait, and the socket stays open."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from matches.models import ChatMessage
from tests.factories import UserFactory
from tests.integration.config.rate_limits import low_rates
from tests.integration.matches.helpers import start_match
from tests.integration.matches.sockets import next_frame, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_chat_past_the_rate_is_refused_with_the_wait_and_the_socket_goes_on() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    with low_rates(chat="2/minute"):
        board = await open_socket(match_id, alice)
        await next_frame(board, "state")

        for line in ("good luck", "have fun", "one more"):
            await board.send_json_to({"type": "chat", "text": line})
        # the refusal comes straight back; the accepted lines come round the players' group
        said, refusals = [], []
        while len(said) < 2 or not refusals:
            frame = await board.receive_json_from(timeout=10)
            if frame["type"] == "chat":
                said.append(frame["message"]["text"])
            elif frame["type"] == "error":
                refusals.append(frame["message"])
        await board.send_json_to({"type": "fly"})  # still read and answered
        answered = await next_frame(board, "error")

    assert said == ["good luck", "have fun"]
    assert len(refusals) == 1
    assert refusals[0].startswith("You are sending messages too fast; wait ")
    assert answered["message"] == "Unknown message type 'fly'"
    count = await sync_to_async(ChatMessage.objects.filter(match_id=match_id).count)()
    assert count == 2
    await board.disconnect()
