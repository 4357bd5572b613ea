"""A real SMTP server for the tests that send e-mail: aiosmtpd on a free port of 127.0.0.1.

``mailbox`` (a fixture; import it into the test module) starts the server, points Django's
SMTP backend at it for the test, and collects each message it receives, parsed.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from pytest_django import Settings

LINK = re.compile(r"https?://\S+")


class Mailbox:
    """What the SMTP server received, in order."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self._arrived:
            self.messages.append(message)
            self._arrived.notify_all()
        return "250 Message accepted for delivery"

    def wait_for(self, count: int, *, timeout: float = 10.0) -> list[EmailMessage]:
        """The first ``count`` messages, once they have come (at most ``timeout`` seconds)."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.messages) >= count, timeout=timeout)
            assert len(self.messages) >= count, f"{len(self.messages)} of {count} arrived"
            return self.messages[:count]

    def about(self, subject: str, *, count: int = 1, timeout: float = 10.0) -> list[EmailMessage]:
        """The messages whose subject holds ``subject``, once ``count`` of them have come."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self._about(subject)) >= count, timeout=timeout)
            found = self._about(subject)
            assert len(found) >= count, f"{len(found)} of {count} about {subject!r} arrived"
            return found

    def _about(self, subject: str) -> list[EmailMessage]:
        return [message for message in self.messages if subject in str(message["Subject"])]


def body(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def links(message: EmailMessage) -> list[str]:
    return LINK.findall(body(message))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def mailbox(settings: Settings) -> Iterator[Mailbox]:
    box = Mailbox()
    port = free_port()
    server = Controller(box, hostname="127.0.0.1", port=port)
    server.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.CRAWFORD_SITE_URL = "http://testserver"
    try:
        yield box
    finally:
        server.stop()
