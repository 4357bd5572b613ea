"""A socket refused for who is asking or what it asks for is opened, then closed with the
code the AsyncAPI document gives (a browser reads a close code only after the handshake;
one refused during it sees 1006 and nothing more): 4401 for a visitor where a log-in is
needed, 4404 for a match or tournament there is none of (or none this viewer may see)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = (b"origin", b"http://127.0.0.1")
NO_SUCH_ID = 987_654_321


async def closed_with(path: str) -> int:
    """The code an anonymous socket to ``path`` is closed with, once it was opened."""
    socket = WebsocketCommunicator(application, path, headers=[ORIGIN])
    opened, _ = await socket.connect(timeout=10)
    assert opened, f"{path} was refused during the handshake, where no code can be read"
    closed: dict[str, Any] = await socket.receive_output(timeout=10)
    assert closed["type"] == "websocket.close"
    await socket.wait()
    return int(closed["code"])


def documented_codes(channel: str) -> dict[str, str]:
    document = Client().get("/api/asyncapi.json").json()
    codes: dict[str, str] = document["channels"][channel]["x-close-codes"]
    return codes


def private_match() -> int:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    return start_match(alice, bruno, length=1, private=True)


@pytest.mark.parametrize(
    ("channel", "path", "code"),
    [
        ("me", "/ws/me/", 4401),
        ("ping", "/ws/ping/", 4401),
        ("match", f"/ws/matches/{NO_SUCH_ID}/", 4404),
        ("tournament", f"/ws/tournaments/{NO_SUCH_ID}/", 4404),
    ],
)
async def test_a_refused_socket_is_opened_then_closed_with_the_documented_code(
    channel: str, path: str, code: int
) -> None:
    assert await closed_with(path) == code
    assert str(code) in await sync_to_async(documented_codes)(channel)


async def test_a_private_match_is_closed_to_a_visitor_as_a_missing_one_is() -> None:
    match_id = await sync_to_async(private_match)()

    assert await closed_with(f"/ws/matches/{match_id}/") == 4404


async def test_every_close_code_a_socket_may_send_is_documented_with_its_meaning() -> None:
    codes = {
        channel: await sync_to_async(documented_codes)(channel)
        for channel in ("match", "tournament", "me", "lobby", "ping")
    }

    assert set(codes["match"]) == {"4404", "4429"}
    assert set(codes["tournament"]) == {"4404", "4429"}
    assert set(codes["me"]) == set(codes["ping"]) == {"4401"}
    assert set(codes["lobby"]) == {"4429"}
    assert all(meaning.strip() for channel in codes.values() for meaning in channel.values())
