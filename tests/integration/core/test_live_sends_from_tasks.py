"""Frames sent by synchronous code that runs outside any event loop (a Celery task, a sweep,
a command) reach the sockets of the group, in the order they were sent, from one thread
after another, and still once Redis has been restarted under a thread that sent before:
such a thread keeps its own event loop, and the layer's connection on it, between sends."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers, get_channel_layer
from django.test import override_settings

from core import live
from tests.private_services import PrivateRedis

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]


@pytest.fixture
def redis_layer() -> Iterator[PrivateRedis]:
    server = PrivateRedis().start()
    layers = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [server.url()], "prefix": "tasks"},
        }
    }
    try:
        with override_settings(CHANNEL_LAYERS=layers):
            yield server
    finally:
        server.close()


class TaskThread:
    """A long-lived thread with no event loop, like a worker's, that sends when asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, threading.Event]] = []
        self.wake = threading.Condition()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while True:
            with self.wake:
                while not self.asked:
                    self.wake.wait()
                text, done = self.asked.pop(0)
            if not text:
                return
            live.group_send("watchers", {"type": "tournament.changed", "text": text})
            done.set()

    async def send(self, text: str) -> None:
        done = threading.Event()
        with self.wake:
            self.asked.append((text, done))
            self.wake.notify()
        assert await asyncio.to_thread(done.wait, 10)

    def stop(self) -> None:
        with self.wake:
            self.asked.append(("", threading.Event()))
            self.wake.notify()
        self.thread.join(10)


async def arrives_again(worker: TaskThread, layer: Any, channel: str) -> str:
    """The thread sends a frame every second until one arrives (30 s at most)."""
    for _ in range(30):
        await worker.send("after the restart")
        try:
            return str((await asyncio.wait_for(layer.receive(channel), 1))["text"])
        except TimeoutError:
            continue
    raise AssertionError("no frame arrived in 30 s after Redis restarted")


async def received(layer: Any, channel: str, count: int) -> list[str]:
    return [(await asyncio.wait_for(layer.receive(channel), 10))["text"] for _ in range(count)]


async def test_a_task_threads_frames_arrive_in_order_and_after_a_redis_restart(
    redis_layer: PrivateRedis,
) -> None:
    # given a socket's channel in a tournament's group, and a worker's thread
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add("watchers", channel)
    worker = TaskThread()
    try:
        # when the thread sends three frames, and another thread one more
        for text in ("one", "two", "three"):
            await worker.send(text)
        await asyncio.to_thread(
            live.group_send, "watchers", {"type": "tournament.changed", "text": "four"}
        )

        # then the socket gets them all, in order
        assert await received(layer, channel, 4) == ["one", "two", "three", "four"]

        # when Redis restarts and the same thread sends again
        redis_layer.stop()
        redis_layer.start()
        # (a socket whose connection broke is opened again by its page: a new one listens)
        listener = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
        channel = await listener.new_channel()
        await listener.group_add("watchers", channel)

        # then its frames arrive again, on the connection it kept, once the socket's side
        # has subscribed anew (a frame published before that is lost, as publishing is:
        # the boards catch up from the database)
        assert await arrives_again(worker, listener, channel) == "after the restart"
    finally:
        worker.stop()
