"""Fixtures shared by the whole suite: real PostgreSQL, Redis, Celery workers, browsers."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import channel_layers
from django.conf import settings
from django.db import connection
from django.test.utils import override_settings

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing() -> Iterator[None]:
    """Real hashing costs a fifth of a second per user; tests only need it to work."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> None:
    """Each test runs its own event loop; a channel layer made under another is unusable."""
    channel_layers.backends.clear()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "/tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def _test_database_url() -> str:
    database = settings.DATABASES["default"]
    user = database.get("USER") or "postgres"
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    host = database.get("HOST") or "127.0.0.1"
    port = database.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{database['TEST']['NAME']}"


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


def _worker_answers() -> bool:
    """Ping on a connection of its own, closed at once: one left in the pool waiting on
    the reply queue hangs a live server forked later, when kombu closes it there."""
    with celery_app.connection_for_read() as connection:
        return bool(celery_app.control.ping(timeout=0.5, connection=connection))


@pytest.fixture(scope="session")
def celery_worker_process(other_processes_leave_the_test_database: None) -> Iterator[None]:
    """A real Celery worker process on Redis, using the test database, for the session."""
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": settings.REDIS_URL or "",
        "SECRET_KEY": settings.SECRET_KEY,
    }
    celery_app.control.purge()  # tasks left queued by earlier runs name rows of other databases
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--queues",
            "default,analysis",
            "--pool",
            "solo",
            "--loglevel",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "--hostname",
            f"test-{os.getpid()}@%h",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.monotonic() + 60
        while not _worker_answers():
            if worker.poll() is not None:
                raise RuntimeError(f"the Celery worker exited with code {worker.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("the Celery worker did not answer within 60 seconds")
        yield
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
