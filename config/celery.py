"""The Celery application: queues ``default``, ``analysis`` and ``review``, JSON only.

Apps ask for work by a task's registered name after their commit (``core.tasks``). Tasks
named ``analysis.*`` go to the ``analysis`` queue (adjudication, the computer's turns:
players wait for them), and ``review.*`` to ``review`` (post-match analysis, minutes long,
on workers of its own so it never holds up an adjudication). Without ``REDIS_URL`` every
task runs eagerly inside the web process, which is what ``make run`` uses.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun, worker_process_shutdown, worker_ready
from django.db import close_old_connections
from kombu import Queue
from prometheus_client import multiprocess

from core.metrics import multiprocess_dir, serve_worker_metrics

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)


def _closing_a_lost_broker_connection_is_survived() -> None:
    """A worker that loses Redis with a task in hand must not exit (kombu 5.7, Celery 5.7).

    On a lost connection Celery collects the connection (its transport forgets the broker's
    address) and then closes it; closing the channel gives back the unacknowledged task,
    which needs a new Redis client, whose address is read from the forgotten one: an
    ``AttributeError`` that no "ignore connection errors" catches, and the worker stopped
    for good ("Unrecoverable error ... no attribute 'hostname'"). Here it is the
    connection error it is: the clean-up ignores it, the worker reconnects, and the task,
    still unacknowledged in Redis, is delivered again after the visibility timeout (tasks
    are safe to run twice). Reproduced by tests/integration/config/test_outages.py.
    """
    import redis
    from kombu.transport import redis as redis_transport

    channel_class: Any = redis_transport.Channel
    address_of = channel_class._connparams
    if getattr(address_of, "survives_a_lost_broker", False):
        return

    def _connparams(self: Any, asynchronous: bool = False) -> Any:
        if self.connection is None or self.connection.client is None:
            raise redis.ConnectionError("the broker connection was already closed")
        return address_of(self, asynchronous=asynchronous)

    _connparams.survives_a_lost_broker = True  # type: ignore[attr-defined]
    channel_class._connparams = _connparams


_closing_a_lost_broker_connection_is_survived()

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = (Queue("default"), Queue("analysis"), Queue("review"))
# The sweep that queues lost analyses again runs on default: on review it would wait behind
# the very backlog it looks after; so does asking for a finished match's analysis, so that
# the analysis is listed as queued at once. What follows a finished match (that request, the
# fair-play scans, its "your turn" notices read) waits on default behind everything else
# there (a lower priority: Redis hands a worker a queue's priority-0 messages first), so a
# burst of timeouts never holds up the next deadline sweep or a tournament's next round
# (bench/bench_clocks.py).
AFTER_THE_FACT = {"queue": "default", "priority": 6}
app.conf.task_routes = {
    "review.requeue": {"queue": "default"},
    "review.for_match": AFTER_THE_FACT,
    "fairplay.scan_*": AFTER_THE_FACT,
    "lobby.read_turn_notices": AFTER_THE_FACT,
    "analysis.*": {"queue": "analysis"},
    "review.*": {"queue": "review"},
}
app.autodiscover_tasks()
# Celery's Django fix-up closes every database connection before and after each task unless
# told to reuse them, so each task opened a connection of its own (a PostgreSQL backend
# started, the prepared statements prepared again: an adjudication's first read took 15 ms
# on an idle machine) and DB_CONN_MAX_AGE did nothing in a worker. It is told to leave them
# (it would close them after this many tasks), and Django's own rule runs around each task
# instead, as around a request: a connection older than DB_CONN_MAX_AGE or one that failed
# is closed, and one kept is checked (CONN_HEALTH_CHECKS) before the task's first query.
app.conf.CELERY_DB_REUSE_MAX = 2**62


@task_prerun.connect
@task_postrun.connect
def _old_connections_closed(task: Task[..., Any] | None = None, **_: object) -> None:
    if task is not None and not getattr(task.request, "is_eager", False):
        close_old_connections()


@worker_ready.connect
def _serve_metrics(**_: object) -> None:
    """The worker's figures on ``CRAWFORD_WORKER_METRICS_PORT`` (unset: none)."""
    port = int(os.environ.get("CRAWFORD_WORKER_METRICS_PORT") or 0)
    if port:
        serve_worker_metrics(port)


@worker_process_shutdown.connect
def _forget_process(pid: int | None = None, **_: object) -> None:
    if pid is not None and multiprocess_dir() is not None:
        multiprocess.mark_process_dead(pid, str(multiprocess_dir()))  # type: ignore[no-untyped-call]


@app.task(name="crawford.ping")
def ping() -> str:
    """Answer "pong": proves a worker takes tasks from the broker and returns results."""
    return "pong"
