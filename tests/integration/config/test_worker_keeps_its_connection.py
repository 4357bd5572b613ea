"""A Celery worker keeps its database connection from one task to the next for
``DB_CONN_MAX_AGE`` (checked before each reuse), as the settings say, instead of opening a
connection for every task: Celery's Django fix-up closed it before and after each one."""

from __future__ import annotations

from datetime import datetime

import pytest
from django.db import connection

from core.tasks import registered
from tests.workers import start_worker, stop_worker, wait_until_workers_idle

pytestmark = pytest.mark.slow


def _other_backends() -> set[tuple[int, datetime]]:
    """The connections to the test database other than this test's own: (pid, started)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND backend_type = 'client backend'"
        )
        return set(cursor.fetchall())


QUEUE = "keeps-connection"


@pytest.mark.django_db(transaction=True)
def test_a_worker_runs_task_after_task_on_one_database_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given a worker as production runs it (deploy/crawford.env's WORKER_DB_CONN_MAX_AGE),
    # which has run a task
    monkeypatch.setenv("DB_CONN_MAX_AGE", "600")
    others = _other_backends()  # the suite's other processes on this database
    # (on a queue of its own: a worker the suite started earlier may be on ``default``)
    worker = start_worker(queues=QUEUE, name="keeps-connection")
    try:
        sweep = registered("matches.sweep_deadlines")
        sweep.apply_async(kwargs={"passes": 1}, queue=QUEUE)
        wait_until_workers_idle()
        kept = _other_backends() - others

        # when it runs five more
        for _ in range(5):
            sweep.apply_async(kwargs={"passes": 1}, queue=QUEUE)
        wait_until_workers_idle()

        # then they all ran on the connection the first one opened, still open
        assert len(kept) == 1
        assert _other_backends() - others == kept
    finally:
        stop_worker(worker)
