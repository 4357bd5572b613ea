"""GET /healthz: is each part Crawford depends on answering?

200 with every part "ok" (or "not configured" / "eager" on the embedded run); 503 with the
parts that are not named in ``down``, so a load balancer or a person sees which:

* ``database``: a statement answered;
* ``redis``: a ping answered;
* ``celery``: every queue (``default``, ``analysis``, ``review``) has a worker taking it;
* ``engine``: the GNU Backgammon program the workers run is installed and runnable;
* ``sweeps``: the deadline sweep ran within ``SWEEP_LATE`` (beat and a worker are doing
  their rounds: no clock expires without it).

GET /healthz/live answers 200 whenever the web process serves at all: the container's own
health check, which a restart of that process could fix (an outage elsewhere could not).
"""

from __future__ import annotations

import os

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from analysis.gnubg_process import GNUBG_EXECUTABLE
from config.beats import beat_ages
from config.celery import app as celery_app

TIMEOUT_SECONDS = 2.0
SWEEP = "matches.sweep_deadlines"
# The sweep runs every second; this much silence means beat or the workers are not running.
SWEEP_LATE = 30.0
QUEUES = ("default", "analysis", "review")


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
        with celery_app.connection_for_read() as broker:
            inspect = celery_app.control.inspect(timeout=TIMEOUT_SECONDS, connection=broker)
            replies = inspect.active_queues() or {}
    except Exception as exc:
        return f"down: {exc.__class__.__name__}"
    if not replies:
        return "down: no worker answered"
    taken = {queue["name"] for queues in replies.values() for queue in queues or ()}
    untaken = [queue for queue in QUEUES if queue not in taken]
    if untaken:
        return f"down: no worker takes {', '.join(untaken)}"
    return "ok"


def _engine() -> str:
    if os.access(GNUBG_EXECUTABLE, os.X_OK):
        return "ok"
    return f"down: {GNUBG_EXECUTABLE} is not installed"


def _sweeps(database_state: str) -> str:
    if database_state != "ok":
        return "down: database unreachable"
    age = beat_ages().get(SWEEP)
    if age is None:
        return "down: the deadline sweep has never run"
    if age > SWEEP_LATE:
        return f"down: the deadline sweep last ran {age:.0f} s ago"
    return "ok"


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    database_state = _database()
    redis_state = _redis()
    report = {
        "database": database_state,
        "redis": redis_state,
        "celery": _celery(redis_state),
        "engine": _engine(),
        "sweeps": _sweeps(database_state),
    }
    healthy = all(not state.startswith("down") for state in report.values())
    if not healthy:
        report["down"] = ", ".join(
            name for name, state in report.items() if state.startswith("down")
        )
    return JsonResponse(report, status=200 if healthy else 503)


@never_cache
@require_GET
def healthz_live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"web": "ok"})
