"""The /ws/ping/ echo: proves sessions, the ASGI server and the channel layer work.

A message the browser sends is passed through the channel layer (Redis in
production) back to the same connection, so an answer means the whole live path
is up, not only the socket.
"""

from __future__ import annotations

from typing import Any

from core.sockets import JsonSocket

NOT_LOGGED_IN = 4401


class PingConsumer(JsonSocket):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(NOT_LOGGED_IN)
            return
        await self.accept()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or "message" not in content:
            await self.send_error('Send {"message": ...} to get it echoed.')
            return
        await self.channel_layer.send(
            self.channel_name, {"type": "ping.echo", "message": content["message"]}
        )

    async def ping_echo(self, event: dict[str, Any]) -> None:
        await self.send_json(
            {"type": "echo", "echo": event["message"], "user": self.scope["user"].get_username()}
        )


# The messages, as JSON Schemas for the AsyncAPI document (``config.asyncapi``).
SENT: dict[str, dict[str, Any]] = {
    "echo": {
        "type": "object",
        "description": "The message sent, back through the channel layer, and who sent it.",
        "properties": {"type": {"const": "echo"}, "echo": {}, "user": {"type": "string"}},
        "required": ["type", "echo", "user"],
        "additionalProperties": False,
    },
    "error": {
        "type": "object",
        "properties": {"type": {"const": "error"}, "message": {"type": "string"}},
        "required": ["type", "message"],
        "additionalProperties": False,
    },
}
RECEIVED: dict[str, dict[str, Any]] = {
    "message": {
        "type": "object",
        "description": "Anything JSON under ``message``, to be echoed.",
        "properties": {"message": {}},
        "required": ["message"],
    },
}
