"""The Celery application: queues ``default``, ``analysis`` and ``review``, JSON only.

Tasks take ids, are safe to run twice and are enqueued after the transaction that asked
for them commits (``enqueue_on_commit``), by their registered name, so the module that
asks for work never imports the module that does it. Tasks named ``analysis.*`` go to
the ``analysis`` queue (adjudication, the computer's turns: players wait for them), and
``review.*`` to ``review`` (post-match analysis, minutes long, on workers of its own so it
never holds up an adjudication). Without ``REDIS_URL`` every task runs eagerly inside the web
process, which is what ``make run`` uses.

A task asked for while the broker is away is not lost: ``enqueue`` keeps it in the database
(``config.models.DeferredTask``) and the beat task ``crawford.send_deferred`` queues it
once the broker takes tasks again. Tasks are safe to run twice, so one that was in fact
queued before the failure was noticed does no harm.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from celery import Celery, Task
from celery.signals import task_postrun, task_prerun, worker_process_shutdown, worker_ready
from django.db import close_old_connections, transaction
from kombu import Queue
from prometheus_client import multiprocess

from config.metrics import multiprocess_dir, serve_worker_metrics
from config.outages import REDIS, outage_of

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


_importing_tasks = threading.Lock()


def registered(task_name: str) -> Task[..., Any]:
    """The task registered as ``task_name``.

    A worker imports every app's ``tasks`` module when it starts; a web process never does
    by itself, so the first lookup there imports them (Celery's autodiscovery, on demand).
    One thread imports them while the others wait: autodiscovery runs once, and a thread
    that came in while another was importing found the modules half made (NotRegistered).
    """
    if task_name not in app.tasks:
        with _importing_tasks:
            if task_name not in app.tasks:
                app.loader.import_default_modules()
    return app.tasks[task_name]


def enqueue(task_name: str, *args: object) -> None:
    """Queue the task registered as ``task_name`` now (eagerly run on the embedded set-up);
    kept in the database to be queued later when the broker is away."""
    try:
        registered(task_name).delay(*args)
    except Exception as error:
        if outage_of(error) != REDIS:
            raise
        from config.models import DeferredTask

        DeferredTask.objects.create(name=task_name, args=list(args))
        logger.warning("the broker is away: %s%r is kept until it is back", task_name, args)


@app.task(name="crawford.send_deferred", ignore_result=True)
def send_deferred(batch: int = 500) -> int:
    """Queue the tasks kept while the broker was away, oldest first; returns how many.

    Each row goes in the transaction that deletes it: one the broker refuses again stays.
    """
    from config.models import DeferredTask
    from core import locks
    from core.locks import Lock

    sent = 0
    with transaction.atomic():
        kept = DeferredTask.objects.all()
        waiting = list(locks.select(Lock.DEFERRED_TASK, kept, skip_locked=True)[:batch])
        for task in waiting:
            registered(task.name).delay(*task.args)
            sent += 1
        DeferredTask.objects.filter(pk__in=[task.pk for task in waiting]).delete()
    return sent


def enqueue_on_commit(task_name: str, *args: object) -> None:
    """Queue the task registered as ``task_name`` once the current transaction commits.

    A task enqueued earlier could run before the rows it needs are visible, and one
    enqueued by a transaction that rolls back would act on something that never was.
    """
    transaction.on_commit(lambda: enqueue(task_name, *args))
