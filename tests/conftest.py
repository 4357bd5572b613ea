"""Fixtures shared by the whole suite: real PostgreSQL, Redis, Celery workers, browsers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import channel_layers
from django.db import connection
from django.test.utils import override_settings
from django.utils import translation

from config.celery import app as celery_app
from tests.workers import start_worker, stop_worker, wait_until_workers_idle

ROOT = Path(__file__).resolve().parent.parent

# A finished match is analysed by GNU Backgammon only in the tests about analysis
# (tests/integration/reviews): elsewhere it would cost every finished match an engine run.
# Set here for the worker processes the suite starts; ``no_analysis_after_matches`` below
# for this process.
os.environ["CRAWFORD_ANALYSE_FINISHED_MATCHES"] = "false"


@pytest.fixture(autouse=True, scope="session")
def no_analysis_after_matches() -> Iterator[None]:
    with override_settings(ANALYSE_FINISHED_MATCHES=False):
        yield


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """Real hashing costs a fifth of a second per user; tests only need it to work."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> None:
    """Each test runs its own event loop; a channel layer made under another is unusable."""
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def _site_language_after_each_test() -> Iterator[None]:
    """A request in Italian leaves Italian active in the test's thread (the locale
    middleware sets it and nothing unsets it, as a server thread's next request would);
    the next test starts in the site's language."""
    yield
    translation.deactivate()


@pytest.fixture
def tasks_run_in_process() -> Iterator[None]:
    """Celery tasks run in the test process, the moment their transaction commits.

    With transactional test cases (``django_db(transaction=True)``) ``on_commit`` hooks fire
    as in production and each task runs in its own transaction, as a worker would.
    """
    eager, propagates = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = eager, propagates


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests are marked ``browser`` and ``slow``; the files with a ``slow`` test run
    first. (Files that start workers or servers of their own carry ``slow`` themselves.)

    ``make test`` gives each process one file at a time (``--dist loadfile``), in this
    order (``--no-loadscope-reorder``: pytest-xdist would otherwise hand out the files with
    the most tests first, and the browser files, with few tests each, last): a file of
    minutes handed out last would keep the run waiting on one process while the others
    stand idle, so the long files go first and the short ones fill in.
    """
    for item in items:
        if "/tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: files stay whole


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Before a test's tables are emptied, the workers finish what it queued: a worker still
    writing while the flush truncates the tables deadlocks with it, or leaves rows behind.
    Workers still busy fail the test's teardown, after it has run."""
    busy = None
    try:
        wait_until_workers_idle()
    except RuntimeError as error:
        busy = error
    result = yield
    if busy is not None:
        raise busy
    return result


@pytest.fixture(scope="session")
def other_processes_leave_the_test_database(
    django_db_setup: None, django_db_blocker: Any
) -> Iterator[None]:
    """Before the test database is dropped, end sessions that servers and workers left.

    A live server or worker killed at the end of a test can leave its PostgreSQL session
    open a moment longer than the test run waits.
    """
    yield
    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(scope="session")
def celery_worker_process(other_processes_leave_the_test_database: None) -> Iterator[None]:
    """A real Celery worker process on Redis, using the test database, for the session."""
    celery_app.control.purge()  # tasks left queued by earlier runs name rows of other databases
    worker = start_worker(queues="default,analysis", name="test")
    try:
        yield
    finally:
        stop_worker(worker)
