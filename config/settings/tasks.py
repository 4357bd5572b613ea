"""Celery: the broker, the queues' behaviour, the time limits and beat's schedule."""

from __future__ import annotations

from config.settings.base import REDIS_URL, TIME_ZONE

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A lost broker is reconnected to for as long as it takes (Celery's default gives up after
# 100 tries and the worker exits): a Redis outage pauses the workers, it never stops them.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_TIMEZONE = TIME_ZONE


def _every(seconds: float, task: str) -> dict[str, object]:
    """A beat entry; a run still queued after its own interval (the workers were away) is
    dropped, as the next one does the same work."""
    return {"task": task, "schedule": seconds, "options": {"expires": max(seconds, 5.0)}}


CELERY_BEAT_SCHEDULE = {
    "sweep-match-deadlines": _every(1.0, "matches.sweep_deadlines"),
    "sweep-tournaments": _every(30.0, "tournaments.sweep"),
    "requeue-adjudications": _every(30.0, "matches.requeue_adjudications"),
    "wake-engines": _every(30.0, "matches.wake_engines"),
    "requeue-analyses": _every(30.0, "review.requeue"),
    "send-deferred-tasks": _every(10.0, "crawford.send_deferred"),
    "prune-sightings": _every(86400.0, "fairplay.prune_sightings"),
    "settle-appeals": _every(300.0, "fairplay.settle_appeals"),
    "tell-tournaments-soon": _every(60.0, "lobby.tell_tournaments_soon"),
}

# No task runs longer than this: a stuck one (an engine that never answers) is stopped, and
# the sweeps queue its work again. An adjudication at 4 ply takes seconds.
CELERY_TASK_SOFT_TIME_LIMIT = 240
CELERY_TASK_TIME_LIMIT = 300
# A task a worker took but did not acknowledge (it died) is delivered again after this long:
# longer than any task can run (above), so a task still running is never delivered twice;
# the sweeps re-queue lost adjudications and tournament steps after a minute or so, so
# nothing waits this long.
# The broker's sockets time out rather than hang on a Redis that stopped answering, and a
# connection is checked every 25 seconds, so an outage is noticed and reconnected from.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "socket_connect_timeout": 5,
    "socket_timeout": 30,
    "health_check_interval": 25,
}
