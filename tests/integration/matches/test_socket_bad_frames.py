"""Whatever a client sends, the match socket answers with an error frame and stays usable,
and the money at stake stays where it was: both stakes in the match's escrow."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from matches.models import MatchConnection
from tests.integration.matches.sockets import (
    at_stake,
    money,
    next_frame,
    open_socket,
    staked_match,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

BAD_FRAMES: list[tuple[str, str]] = [
    ("text that is not JSON", "roll please"),
    ("a JSON nesting 5,000 deep", "[" * 5000 + "]" * 5000),
    (
        "an object nesting past the limit",
        json.dumps({"type": "chat", "text": [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]}),
    ),
    ("a list where an object belongs", json.dumps([1, 2, 3])),
    ("a list as the type", json.dumps({"type": ["roll"], "seq": 1})),
    ("a seq past 2^31", json.dumps({"type": "roll", "seq": 2**31})),
    ("a seq that is not a number", json.dumps({"type": "roll", "seq": "1"})),
    ("a play that is an object", json.dumps({"type": "play", "seq": 1, "play": {"a": 1}})),
    ("a resignation level that is a list", json.dumps({"type": "resign", "seq": 1, "resign": []})),
    ("chat that is a list", json.dumps({"type": "chat", "text": ["hi"]})),
    ("a frame too long", json.dumps({"type": "chat", "text": "x" * 20_000})),
]


@pytest.mark.parametrize(("what", "frame"), BAD_FRAMES, ids=[what for what, _ in BAD_FRAMES])
async def test_a_bad_frame_gets_an_error_frame_and_the_socket_stays_usable(
    what: str, frame: str
) -> None:
    match_id, alice, bruno = await staked_match()
    socket = await open_socket(match_id, alice)
    await next_frame(socket, "state")

    await socket.send_to(text_data=frame)
    error = await next_frame(socket, "error")
    await socket.send_json_to({"type": "chat", "text": "still here"})
    heard = await next_frame(socket, "chat")

    assert error["message"], what
    assert len(json.dumps(error)) < 400, "a refusal does not echo the whole frame back"
    assert heard["message"]["text"] == "still here"
    assert await money(match_id, alice, bruno) == at_stake(alice, bruno)
    await socket.disconnect()


async def test_a_nul_character_in_chat_is_dropped_not_a_crash() -> None:
    match_id, alice, bruno = await staked_match()
    socket = await open_socket(match_id, alice)

    await socket.send_json_to({"type": "chat", "text": "good\x00 luck"})
    heard = await next_frame(socket, "chat")

    assert heard["message"]["text"] == "good luck"
    assert await money(match_id, alice, bruno) == at_stake(alice, bruno)
    await socket.disconnect()


async def test_a_binary_frame_is_refused_in_words() -> None:
    match_id, alice, bruno = await staked_match()
    socket = await open_socket(match_id, alice)

    await socket.send_to(bytes_data=b"\x00\x01")
    error: dict[str, Any] = await next_frame(socket, "error")

    assert error["message"] == "Send JSON text frames"
    assert await sync_to_async(MatchConnection.objects.filter(seat=0).count)() == 1
    assert await money(match_id, alice, bruno) == at_stake(alice, bruno)
    await socket.disconnect()
