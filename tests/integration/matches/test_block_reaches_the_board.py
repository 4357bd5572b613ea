"""A mute or block made while a board is open reaches its chat at once: the board is sent
its chat again without the lines its viewer no longer hears, before anyone writes another
line, and the lines that follow are left out. Over the match socket, on the real channel
layer."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.models import BlockKind, User
from accounts.standing import block_remove, block_set
from tests.factories import UserFactory
from tests.integration.config.rate_limits import low_rates
from tests.integration.matches.helpers import start_match
from tests.integration.matches.sockets import next_frame, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _player(username: str) -> User:
    return UserFactory(username=username, display_name=username.capitalize())


async def _heard(socket: object, text: str) -> dict[str, object]:
    """The chat frame of the line ``text``, skipping the lines before it."""
    while True:
        frame = await next_frame(socket, "chat")  # type: ignore[arg-type]
        if frame["message"]["text"] == text:
            return frame


def _texts(frame: dict[str, object]) -> list[str]:
    messages = frame["messages"]
    assert isinstance(messages, list)
    return [f"{line['author']}: {line['text']}" for line in messages]


async def test_a_block_clears_the_blocked_players_lines_from_both_open_boards() -> None:
    # given Alice and Bruno at an open board, talking
    alice = await sync_to_async(_player)("alice")
    bruno = await sync_to_async(_player)("bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    with low_rates(chat="100/minute"):
        hers = await open_socket(match_id, alice)
        his = await open_socket(match_id, bruno)
        await next_frame(hers, "chat_history")
        await next_frame(his, "chat_history")
        await his.send_json_to({"type": "chat", "text": "you are slow"})
        await _heard(hers, "you are slow")
        await hers.send_json_to({"type": "chat", "text": "bye"})
        await _heard(his, "bye")

        # when Alice blocks Bruno from his profile while the board stays open
        await sync_to_async(block_set)(owner=alice, other=bruno, kind=BlockKind.BLOCK)

        # then, with nobody writing, each board's chat is sent again without the other
        her_chat = await next_frame(hers, "chat_history")
        his_chat = await next_frame(his, "chat_history")
        await hers.disconnect()
        await his.disconnect()

    assert _texts(her_chat) == ["alice: bye"]
    assert _texts(his_chat) == ["bruno: you are slow"]


async def test_a_mute_made_and_lifted_while_the_board_is_open_takes_hold_at_once() -> None:
    # given Alice and Bruno at an open board
    alice = await sync_to_async(_player)("alice")
    bruno = await sync_to_async(_player)("bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    with low_rates(chat="100/minute"):
        hers = await open_socket(match_id, alice)
        his = await open_socket(match_id, bruno)
        await next_frame(hers, "chat_history")
        await his.send_json_to({"type": "chat", "text": "psst"})
        assert (await next_frame(hers, "chat"))["message"]["text"] == "psst"

        # when she mutes him, he speaks, she speaks
        await sync_to_async(block_set)(owner=alice, other=bruno, kind=BlockKind.MUTE)
        muted_chat = await next_frame(hers, "chat_history")
        await his.send_json_to({"type": "chat", "text": "still there?"})
        await _heard(his, "still there?")
        await hers.send_json_to({"type": "chat", "text": "quiet now"})
        heard_while_muted = await next_frame(hers, "chat")

        # and when she lifts the mute
        await sync_to_async(block_remove)(owner=alice, other=bruno)
        lifted_chat = await next_frame(hers, "chat_history")
        await hers.disconnect()
        await his.disconnect()

    # then his lines left her board at once, and came back with the mute lifted
    assert _texts(muted_chat) == []
    assert heard_while_muted["message"]["text"] == "quiet now"
    assert _texts(lifted_chat) == ["bruno: psst", "bruno: still there?", "alice: quiet now"]
