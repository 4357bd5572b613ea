"""Work asked of the Celery workers: by a task's registered name, after the commit.

Tasks take ids, are safe to run twice and are enqueued after the transaction that asked
for them commits (``enqueue_on_commit``), by their registered name, so the module that
asks for work never imports the module that does it. The Celery application itself, its
queues and routes, is wiring (``config.celery``); this module only uses the current one.

A task asked for while the broker is away is not lost: ``enqueue`` keeps it in the database
(``core.models.DeferredTask``) and the beat task ``crawford.send_deferred`` queues it
once the broker takes tasks again. Tasks are safe to run twice, so one that was in fact
queued before the failure was noticed does no harm.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import Task, current_app, shared_task
from django.db import transaction

from core.outages import REDIS, outage_of

logger = logging.getLogger(__name__)


_importing_tasks = threading.Lock()


def registered(task_name: str) -> Task[..., Any]:
    """The task registered as ``task_name``.

    A worker imports every app's ``tasks`` module when it starts; a web process never does
    by itself, so the first lookup there imports them (Celery's autodiscovery, on demand).
    One thread imports them while the others wait: autodiscovery runs once, and a thread
    that came in while another was importing found the modules half made (NotRegistered).
    """
    if task_name not in current_app.tasks:
        with _importing_tasks:
            if task_name not in current_app.tasks:
                current_app.loader.import_default_modules()
    return current_app.tasks[task_name]


def enqueue(task_name: str, *args: object) -> None:
    """Queue the task registered as ``task_name`` now (eagerly run on the embedded set-up);
    kept in the database to be queued later when the broker is away."""
    try:
        registered(task_name).delay(*args)
    except Exception as error:
        if outage_of(error) != REDIS:
            raise
        from core.models import DeferredTask

        DeferredTask.objects.create(name=task_name, args=list(args))
        logger.warning("the broker is away: %s%r is kept until it is back", task_name, args)


@shared_task(name="crawford.send_deferred", ignore_result=True)
def send_deferred(batch: int = 500) -> int:
    """Queue the tasks kept while the broker was away, oldest first; returns how many.

    Each row goes in the transaction that deletes it: one the broker refuses again stays.
    """
    from core.models import DeferredTask

    sent = 0
    with transaction.atomic():
        from core import locks
        from core.locks import Lock

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
