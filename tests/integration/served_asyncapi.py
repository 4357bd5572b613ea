"""Socket frames checked against the AsyncAPI document the site serves at /api/asyncapi.json."""

from __future__ import annotations

from typing import Any

from channels.testing import WebsocketCommunicator
from django.test import Client
from jsonschema import Draft7Validator

Schema = dict[str, Any]


def served_messages(channel: str, action: str) -> dict[str, Schema]:
    """The payloads of the messages the served document names on ``channel``, by name, for
    ``action`` "receive" (what the server sends) or "send" (what a client sends)."""
    document = Client().get("/api/asyncapi.json").json()
    channel_ref = f"#/channels/{channel}"
    [operation] = [
        operation
        for operation in document["operations"].values()
        if operation["action"] == action and operation["channel"]["$ref"] == channel_ref
    ]
    messages = [_resolved(document, message["$ref"]) for message in operation["messages"]]
    return {message["name"]: message["payload"] for message in messages}


def _resolved(document: Schema, ref: str) -> Schema:
    node: Any = document
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return _resolved(document, node["$ref"]) if "$ref" in node else node


def undocumented(frames: list[dict[str, Any]], messages: dict[str, Schema]) -> list[str]:
    """What in ``frames`` the document does not describe; each frame's message is the one
    named by its ``type``."""
    problems = []
    for frame in frames:
        schema = messages.get(frame.get("type"))  # type: ignore[arg-type]
        if schema is None:
            problems.append(f"undocumented type {frame.get('type')!r}")
            continue
        problems.extend(
            f"{frame['type']}: {'/'.join(map(str, error.absolute_path))}: {error.message}"
            for error in Draft7Validator(schema).iter_errors(frame)
        )
    return problems


async def drain(socket: WebsocketCommunicator, into: list[dict[str, Any]]) -> None:
    """Every frame the socket has been sent, until it is quiet for a moment."""
    while not await socket.receive_nothing(timeout=0.3):
        into.append(await socket.receive_json_from())


async def until(socket: WebsocketCommunicator, kind: str, into: list[dict[str, Any]]) -> None:
    """The socket's frames up to and including the next of ``kind``."""
    while True:
        frame = await socket.receive_json_from(timeout=10)
        into.append(frame)
        if frame["type"] == kind:
            return
