"""The Celery application: queues ``default`` and ``analysis``, JSON only.

Tasks take ids, are safe to run twice and are enqueued after the transaction that
asked for them commits (``delay_on_commit``). Without ``REDIS_URL`` every task runs
eagerly inside the web process, which is what ``make run`` uses.
"""

from __future__ import annotations

import os

from celery import Celery, Task
from django.db import transaction
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("crawford")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.task_queues = (Queue("default"), Queue("analysis"))
app.conf.task_routes = {"analysis.*": {"queue": "analysis"}}
app.autodiscover_tasks()


@app.task(name="crawford.ping")
def ping() -> str:
    """Answer "pong": proves a worker takes tasks from the broker and returns results."""
    return "pong"


def enqueue_on_commit(task: Task, *args: object) -> None:
    """Queue ``task`` once the current transaction commits (at once outside one).

    A task enqueued earlier could run before the rows it needs are visible, and one
    enqueued by a transaction that rolls back would act on something that never was.
    """
    transaction.on_commit(lambda: task.delay(*args))
