"""Live messages to channel-layer groups, and the database work of sockets.

Synchronous code (services, their ``on_commit`` hooks) sends to a group with
``group_send``. Called from a request or a task it sends at once. Called from a socket
through ``run``, it only collects: the work runs on the database threads, commits, and
returns; then the socket's event loop sends what was collected. The database threads
never wait on Redis, and a message always leaves after the commit it tells of.

Live frames are best effort: when Redis is away, the frames a change sends are lost, the
change itself stands (it committed) and ``run`` answers as usual. Whoever listens through
``on_frames_lost`` is told, so the sockets can be brought up to date another way (the
match sockets read their matches again: ``matches.consumers.Heartbeat``). A send waits
at most ``LIVE_SEND_TIMEOUT_MS`` (the Redis client's own retries back off for
seconds), and for ``AWAY_FOR`` seconds after a loss the process does not try again, so a
player's acknowledgement never waits on a Redis that is gone.

``run`` uses a pool of database threads (``LIVE_DB_THREADS`` a process, each with its own
connection), so one slow action does not hold up every other socket of the process the way
a single database thread would. Actions on one match still go one at a time: they take
the match's row lock.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any, TypeVar, cast

import orjson
from asgiref.sync import SyncToAsync, async_to_sync
from channels.db import DatabaseSyncToAsync
from channels.layers import get_channel_layer
from django.conf import settings

from core.outages import outage_of

Result = TypeVar("Result")
Send = tuple[str, dict[str, Any]]

# After a loss, sends are dropped at once for this long: one slow failure, not one per action.
AWAY_FOR = 2.0

logger = logging.getLogger(__name__)
_away: tuple[object, float] | None = None  # the layer that was away, and until when
_collecting = threading.local()
_senders = threading.local()
_lost_listeners: list[Callable[[], None]] = []
_pool: tuple[int, ThreadPoolExecutor] | None = None
_pool_lock = threading.Lock()


def group_send(group: str, event: dict[str, Any]) -> None:
    """Send ``event`` to ``group`` now, or after ``run``'s work when called within it."""
    sends: list[Send] | None = getattr(_collecting, "sends", None)
    if sends is not None:
        sends.append((group, event))
        return
    if get_channel_layer() is not None:
        _send_now([(group, event)])


def group_send_many(sends: list[Send]) -> None:
    """``group_send`` for many events, sent together (over one connection) when not
    collected."""
    collecting: list[Send] | None = getattr(_collecting, "sends", None)
    if collecting is not None:
        collecting.extend(sends)
        return
    if sends and get_channel_layer() is not None:
        _send_now(sends)


@contextmanager
def collected() -> Iterator[list[Send]]:
    """Within the block, ``group_send`` on this thread collects instead of sending."""
    outer = getattr(_collecting, "sends", None)
    sends: list[Send] = []
    _collecting.sends = sends
    try:
        yield sends
    finally:
        _collecting.sends = outer


async def send_all(sends: list[Send]) -> None:
    """Send every event; when Redis is away the rest are dropped and the listeners told."""
    layer = get_channel_layer()
    if layer is None or not sends:
        return
    if _recently_away(layer):
        return
    _, error = await _send_each(layer, sends)
    if error is not None:
        _lost(layer, error)


def _recently_away(layer: Any) -> bool:
    """Whether the layer was found away moments ago (the frames are then lost at once)."""
    if _away is not None and _away[0] is layer and time.monotonic() < _away[1]:
        _frames_lost("the channel layer was away moments ago")
        return True
    return False


async def _send_each(layer: Any, sends: list[Send]) -> tuple[list[Send], Exception | None]:
    """Send the events in order, within ``LIVE_SEND_TIMEOUT_MS``: those left unsent and the
    outage that stopped them (a timeout, a lost connection), or nothing left and None."""
    sent = 0
    try:
        async with asyncio.timeout(settings.LIVE_SEND_TIMEOUT_MS / 1000):
            for group, event in sends:
                await layer.group_send(group, event)
                sent += 1
    except Exception as error:
        if not isinstance(error, TimeoutError) and outage_of(error) is None:
            raise
        return sends[sent:], error
    return [], None


def _lost(layer: Any, error: Exception) -> None:
    global _away
    _away = (layer, time.monotonic() + AWAY_FOR)
    _frames_lost(f"the channel layer is away ({type(error).__name__})")


def _frames_lost(why: str) -> None:
    logger.warning("live frames lost: %s", why)
    for listener in tuple(_lost_listeners):
        listener()


def on_frames_lost(listener: Callable[[], None]) -> None:
    """Call ``listener`` (in the event loop's thread, or the sender's) whenever frames were
    lost because Redis was away."""
    if listener not in _lost_listeners:
        _lost_listeners.append(listener)


async def run(work: Callable[..., Result], /, **kwargs: Any) -> Result:
    """Run ``work(**kwargs)`` on a database thread, then send what it published.

    What was published is sent even when ``work`` fails after committing part of it.
    """

    def collecting() -> tuple[Result | None, BaseException | None, list[Send]]:
        with collected() as sends:
            try:
                return work(**kwargs), None, sends
            except Exception as error:  # handed back to the caller once the sends are out
                return None, error, sends

    result, error, sends = await DatabaseSyncToAsync(
        collecting, thread_sensitive=False, executor=database_threads()
    )()
    await send_all(sends)
    if error is not None:
        raise error
    # Without an error the result is what ``work`` returned, None included.
    return cast(Result, result)


def _send_now(sends: list[Send]) -> None:
    """Send from synchronous code, waiting until the layer has taken every message.

    A thread that a server's event loop handed work to sends on that loop (an in-memory
    layer's receivers wait there). Any other thread (a task's, a command's, a sweep's) sends
    on an event loop of its own, kept from one send to the next: ``async_to_sync`` would
    start a thread and a loop for every send, and the Redis layer, whose connections belong
    to their loop, would connect afresh each time (a registration's frame took longer than
    its statements).
    """
    if _serving_loop_of_this_thread():
        async_to_sync(send_all)(sends)
        return
    if _loop_running_in_this_thread():
        _send_from_another_thread(sends)
        return
    layer = get_channel_layer()
    if _recently_away(layer):
        return
    unsent, error = _sending_loop().run_until_complete(_send_each(layer, sends))
    if error is None:
        return
    if not isinstance(error, TimeoutError):
        # The connection kept on this thread's loop may be the one at fault (Redis was
        # restarted since this thread last sent): what is left goes once more, on a new
        # loop and so a new connection. Failing again, Redis is away.
        _drop_sending_loop()
        unsent, error = _sending_loop().run_until_complete(_send_each(layer, unsent))
    if error is not None:
        _lost(layer, error)


def _loop_running_in_this_thread() -> bool:
    """Synchronous code called on a thread whose own event loop is running, not a
    server's (a program driving its loop itself, as a browser test's does)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _send_from_another_thread(sends: list[Send]) -> None:
    """This thread's loop is busy running what called us: send on a thread of its own,
    waiting for it, and close the loop it made."""

    def send() -> None:
        try:
            _send_now(sends)
        finally:
            _drop_sending_loop()

    sender = threading.Thread(target=send, name="crawford-live-send")
    sender.start()
    sender.join()


def _serving_loop_of_this_thread() -> bool:
    # asgiref notes it on each thread it runs synchronous work on for an event loop.
    serving = SyncToAsync.threadlocal
    return (
        getattr(serving, "main_event_loop", None) is not None
        and getattr(serving, "main_event_loop_pid", None) == os.getpid()
    )


class _SendingLoop:
    """A thread's kept event loop for its sends (``_sending_loop``), closed by this thread
    when it is done with it: at ``_drop_sending_loop``, or when the thread ends and drops its
    locals. Left to the garbage collector, the loop would be closed wherever a collection
    happened to run, and channels-redis, which flushes a layer on a loop it used when that
    loop closes, fails on a thread already running a loop ("Cannot run the event loop while
    another loop is running")."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()

    def close(self) -> None:
        # A forked process leaves its parent's loop alone: its connections are the parent's.
        if self.pid != os.getpid() or self.loop.is_closed() or self.loop.is_running():
            return
        try:
            self.loop.close()
        except Exception:  # a broken connection that would not close is left to be collected
            logger.warning("the live sending loop did not close cleanly", exc_info=True)

    def __del__(self) -> None:
        self.close()


_inherited: list[_SendingLoop] = []  # a parent's loops in a forked process, never closed


def _sending_loop() -> asyncio.AbstractEventLoop:
    """This thread's event loop for its sends, run only while it sends; a forked process
    makes its own (the parent's connections are not its to use)."""
    kept: _SendingLoop | None = getattr(_senders, "loop", None)
    if kept is not None and kept.pid != os.getpid():
        _inherited.append(kept)  # neither closed nor collected here
        kept = None
    if kept is None:
        kept = _senders.loop = _SendingLoop()
    return kept.loop


def _drop_sending_loop() -> None:
    """Close this thread's sending loop; the layer closes its connections on it."""
    kept: _SendingLoop | None = getattr(_senders, "loop", None)
    _senders.loop = None
    if kept is not None:
        kept.close()


def database_threads() -> ThreadPoolExecutor:
    """This process's database threads, made on first use: a process forked from one that
    had them (a test's live server) makes its own, as threads do not survive a fork."""
    global _pool
    with _pool_lock:
        if _pool is None or _pool[0] != os.getpid():
            _pool = (
                os.getpid(),
                ThreadPoolExecutor(
                    max_workers=settings.LIVE_DB_THREADS, thread_name_prefix="live-db"
                ),
            )
        return _pool[1]


def frame_text(frame: dict[str, Any]) -> str:
    """A frame as the JSON text a socket sends (encoded once, however many receive it)."""
    return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
