"""The embedded set-up's beat: the periodic sweeps run inside the server process.

Without ``REDIS_URL`` (``make run``) there is no Celery worker and no beat: tasks run
eagerly where they are queued. The sweeps still must run on their schedule, or no clock,
reconnection grace or show-up time would ever expire. ``EmbeddedBeat`` wraps the ASGI
application: when the server starts (the ASGI lifespan), it runs every entry of
``CELERY_BEAT_SCHEDULE`` at its interval, as beat would, in the thread Django's
synchronous code runs in, so the sweeps never write SQLite at the same time as a request.
With ``REDIS_URL`` set it does nothing: beat and the workers do this work.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings

from core.tasks import registered

logger = logging.getLogger(__name__)


class EmbeddedBeat:
    """ASGI middleware: answers the lifespan protocol and runs the beat schedule in-process."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            await self.application(scope, receive, send)
            return
        beat: asyncio.Task[None] | None = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if not settings.REDIS_URL:
                    beat = asyncio.create_task(run_schedule(schedule()))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if beat is not None:
                    beat.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await beat
                await send({"type": "lifespan.shutdown.complete"})
                return


def schedule() -> dict[str, float]:
    """Task name -> seconds between runs, from ``CELERY_BEAT_SCHEDULE``."""
    entries: dict[str, dict[str, Any]] = settings.CELERY_BEAT_SCHEDULE
    return {str(entry["task"]): float(entry["schedule"]) for entry in entries.values()}


async def run_schedule(every: dict[str, float]) -> None:
    """Run each task every so many seconds, for ever (until cancelled)."""
    due = dict.fromkeys(every, time.monotonic())
    while True:
        now = time.monotonic()
        for name, at in due.items():
            if at <= now:
                await sync_to_async(_run, thread_sensitive=True)(name)
                due[name] = time.monotonic() + every[name]
        await asyncio.sleep(max(0.05, min(due.values()) - time.monotonic()))


def _run(name: str) -> None:
    try:
        registered(name).apply()
    except Exception:
        logger.exception("the embedded sweep %s failed; it runs again on schedule", name)
