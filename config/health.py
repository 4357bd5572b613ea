"""What operators read: /healthz (is each part answering?) and /metrics (the figures).

GET /healthz:

200 with every part "ok" (or "not configured" / "eager" on the embedded run); 503 with the
parts that are not named in ``down``, so a load balancer or a person sees which:

* ``database``: a statement answered;
* ``redis``: a ping answered;
* ``celery``: every queue (``default``, ``analysis``, ``review``) has a worker taking it;
* ``engine``: GNU Backgammon is installed (``ok`` and which: Debian's program or the
  Python package; ``analysis``: whether match analysis can run, the package alone cannot).
  Missing, it is ``down`` where workers serve; on the embedded run (``make run``) it is
  ``unavailable: <why>``, which leaves the site healthy: practice and analysis say so on
  their pages and everything else works;
* ``sweeps``: the deadline sweep ran within ``SWEEP_LATE`` (beat and a worker are doing
  their rounds: no clock expires without it).

GET /healthz/live answers 200 whenever the web process serves at all: the container's own
health check, which a restart of that process could fix (an outage elsewhere could not).

GET /metrics: Prometheus's text format, for a scraper that sends ``Authorization: Bearer
<CRAWFORD_METRICS_TOKEN>`` (unset: 404, no figures at all). Besides the web processes'
own figures (``core.metrics``), each scrape reads the state of the whole site: tasks
waiting on each queue and held by workers, tasks kept while the broker was away, the
analysis backlog, the age of each sweep and the matches being played.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterator
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily

from config.celery import app as celery_app
from core.beats import beat_ages
from core.metrics import forget_dead_processes, registry
from core.models import DeferredTask
from core.outages import outage_of
from matches.engine import analysis_status, engine_status
from matches.models import Match, MatchStatus
from reviews.models import Analysis, AnalysisStatus

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
    found = engine_status()
    if found.command is not None:
        return f"ok: {found.command.described}"
    if celery_app.conf.task_always_eager:
        return f"unavailable: {found.reason}"
    return f"down: {found.reason}"


def _analysis() -> str:
    found = analysis_status()
    return "ok" if found.available else f"unavailable: {found.reason}"


def _sweeps(database_state: str) -> str:
    if database_state != "ok":
        return "down: database unreachable"
    try:
        age = beat_ages().get(SWEEP)
    except Exception as exc:  # not migrated yet, or the database went away meanwhile
        return f"down: {exc.__class__.__name__}"
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
        "analysis": _analysis(),
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


@never_cache
@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    token: str = settings.CRAWFORD_METRICS_TOKEN
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not token:
        raise Http404("Metrics are not enabled (CRAWFORD_METRICS_TOKEN)")
    if not hmac.compare_digest(given.encode(), token.encode()):
        return HttpResponse("Send Authorization: Bearer <CRAWFORD_METRICS_TOKEN>.\n", status=401)
    forget_dead_processes()
    collected = registry()
    state = SiteState()
    collected.register(state)
    try:
        body = generate_latest(collected)
    finally:
        collected.unregister(state)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


class SiteState:
    """The figures read from PostgreSQL and Redis at each scrape, the same whichever
    process answers it."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield from self._queues()
        deferred = GaugeMetricFamily(
            "crawford_deferred_tasks", "Tasks kept while the broker was away, not yet sent."
        )
        deferred.add_metric([], DeferredTask.objects.count())
        yield deferred
        backlog = GaugeMetricFamily(
            "crawford_analysis_backlog",
            "Post-match analyses waiting or running.",
            labels=["status"],
        )
        for status in (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING):
            backlog.add_metric([status.value], Analysis.objects.filter(status=status).count())
        yield backlog
        ages = GaugeMetricFamily(
            "crawford_sweep_age_seconds", "Seconds since each sweep last ran.", labels=["sweep"]
        )
        for name, age in sorted(beat_ages().items()):
            ages.add_metric([name], age)
        yield ages
        playing = GaugeMetricFamily("crawford_matches_playing", "Matches being played now.")
        playing.add_metric([], Match.objects.filter(status=MatchStatus.PLAYING).count())
        yield playing

    def _queues(self) -> Iterator[GaugeMetricFamily]:
        if celery_app.conf.task_always_eager:
            return
        waiting = GaugeMetricFamily(
            "crawford_queue_depth", "Tasks waiting in each queue.", labels=["queue"]
        )
        held = GaugeMetricFamily(
            "crawford_tasks_unacknowledged", "Tasks workers hold and have not finished."
        )
        try:
            with celery_app.connection_for_read() as broker:
                # Kombu's Redis channel (its queue sizes and unacknowledged set).
                channel: Any = broker.default_channel
                for queue in QUEUES:
                    waiting.add_metric([queue], channel._size(queue))
                held.add_metric([], channel.client.hlen(channel.unacked_key))
        except Exception as exc:  # Redis is away: /healthz says so; the rest still counts
            if outage_of(exc) is None:
                raise
            return
        yield waiting
        yield held
