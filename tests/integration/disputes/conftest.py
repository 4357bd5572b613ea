"""Dispute tests run Celery tasks in the test process, the moment their transaction commits.

They use transactional test cases (``django_db(transaction=True)``), so ``on_commit`` hooks
fire as in production and each task runs in its own transaction, as a worker would.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config.celery import app


@pytest.fixture(autouse=True)
def tasks_run_in_process() -> Iterator[None]:
    eager, propagates = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = eager, propagates
