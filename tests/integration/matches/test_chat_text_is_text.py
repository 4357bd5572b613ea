"""Chat takes text where its schema says text: a number, a boolean or a list sent as the
line is refused naming the field (400 over REST, an error frame on the socket), never
turned into a line."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from matches.models import ChatMessage
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, start_match
from tests.integration.matches.sockets import next_frame, open_socket

NOT_TEXT: list[Any] = [5, 1.5, True, ["hi"], {"text": "hi"}]


@pytest.mark.django_db
@pytest.mark.parametrize("sent", NOT_TEXT, ids=["int", "float", "bool", "list", "object"])
def test_rest_refuses_a_line_that_is_not_text_naming_the_field(sent: Any) -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)

    response = api_for(alice).post(f"/api/matches/{match_id}/chat/", {"text": sent}, format="json")

    assert response.status_code == 400
    assert response.json()["detail"] == "text: Not a valid string."
    assert "text" in response.json()["errors"]
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_the_report_note_must_be_text_too() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    said = api_for(alice).post(f"/api/matches/{match_id}/chat/", {"text": "hi"}, format="json")

    response = api_for(bruno).post(
        f"/api/chat/{said.json()['id']}/report/", {"note": 12}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["detail"] == "note: Not a valid string."


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("sent", NOT_TEXT, ids=["int", "float", "bool", "list", "object"])
async def test_the_socket_answers_a_line_that_is_not_text_with_an_error_frame(sent: Any) -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=3)
    socket = await open_socket(match_id, alice)
    await next_frame(socket, "state")

    await socket.send_json_to({"type": "chat", "text": sent})
    refused = await next_frame(socket, "error")
    await socket.disconnect()

    assert refused["message"] == '"text" must be text'
    assert not await sync_to_async(ChatMessage.objects.exists)()
