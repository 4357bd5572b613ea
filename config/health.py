"""GET /healthz: is each service Crawford depends on answering?

200 with every part "ok" (or "not configured" / "eager" on the embedded run);
503 with the part that is down named, so a load balancer or a person sees which.
"""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app

TIMEOUT_SECONDS = 2.0


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return f"down: {exc.__class__.__name__}"
    return "ok"


def _redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL,
            socket_connect_timeout=TIMEOUT_SECONDS,
            socket_timeout=TIMEOUT_SECONDS,
        )
        client.ping()
    except redis.RedisError as exc:
        return f"down: {exc.__class__.__name__}"
    return "ok"


def _celery(redis_state: str) -> str:
    if celery_app.conf.task_always_eager:
        return "eager"
    if redis_state != "ok":
        return "down: broker unreachable"
    try:
        # A connection of its own, closed at once: the pool's would be left waiting on
        # the reply queue, which a process forked later would inherit.
        with celery_app.connection_for_read() as connection:
            replies = celery_app.control.ping(timeout=TIMEOUT_SECONDS, connection=connection)
    except Exception as exc:
        return f"down: {exc.__class__.__name__}"
    return "ok" if replies else "down: no worker answered"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    redis_state = _redis()
    report = {"database": _database(), "redis": redis_state, "celery": _celery(redis_state)}
    healthy = all(not state.startswith("down") for state in report.values())
    if not healthy:
        report["down"] = ", ".join(
            name for name, state in report.items() if state.startswith("down")
        )
    return JsonResponse(report, status=200 if healthy else 503)
