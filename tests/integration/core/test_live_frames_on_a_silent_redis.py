"""A Redis that takes connections and never answers (a hung server, a half-open network)
must not hold up the player whose move made the frames: the frames are given up as lost
after ``LIVE_SEND_TIMEOUT_MS`` and the listeners are told, so the boards catch up from the
database instead."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator

import pytest
from django.test import override_settings

from core import live

pytestmark = pytest.mark.asyncio


@pytest.fixture
def silent_redis() -> Iterator[str]:
    """A TCP server on a free port that accepts every connection and says nothing."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    layers = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [f"redis://127.0.0.1:{server.getsockname()[1]}/0"]},
        }
    }
    try:
        with override_settings(CHANNEL_LAYERS=layers, LIVE_SEND_TIMEOUT_MS=300):
            yield f"127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        server.close()


async def test_frames_sent_to_a_redis_that_never_answers_are_given_up_and_reported(
    silent_redis: str,
) -> None:
    # given a listener waiting to hear of lost frames
    told: list[bool] = []
    live.on_frames_lost(lambda: told.append(True))

    # when a change's frames are sent while Redis says nothing
    await asyncio.wait_for(live.send_all([("match-1", {"type": "match.changed"})]), 30)

    # then the send returned and the listener was told
    assert told
