"""A thread's kept event loop for its live sends is closed by that thread when it ends, not
left for a garbage collection that may run on a thread with a loop of its own (where
channels-redis, flushing the layer of a loop being closed, cannot run it)."""

from __future__ import annotations

import asyncio
import threading

from core import live


def test_a_thread_that_ends_closes_the_loop_it_kept_for_its_sends() -> None:
    # given a thread that made its sending loop, as a task's first send does
    kept: list[asyncio.AbstractEventLoop] = []
    thread = threading.Thread(target=lambda: kept.append(live._sending_loop()))

    # when it ends
    thread.start()
    thread.join()

    # then the loop is closed, by the thread itself, without a collection
    assert kept[0].is_closed()


def test_the_same_thread_keeps_one_loop_from_send_to_send() -> None:
    loops: list[asyncio.AbstractEventLoop] = []

    def sends_twice() -> None:
        loops.extend([live._sending_loop(), live._sending_loop()])

    thread = threading.Thread(target=sends_twice)
    thread.start()
    thread.join()

    assert loops[0] is loops[1]
