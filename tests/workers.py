"""Real Celery worker processes for tests: started on the test database, stopped, paused."""

from __future__ import annotations

import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent
IDLE_WAIT_SECONDS = 60
PR_SET_PDEATHSIG = 1  # prctl(2)


@dataclass(frozen=True)
class _Started:
    process: subprocess.Popen[bytes]
    hostname: str
    queues: tuple[str, ...]


# The workers this test process started and has not stopped, by process id.
_running: dict[int, _Started] = {}


def _test_database_url() -> str:
    database = settings.DATABASES["default"]
    user = database.get("USER") or "postgres"
    password = f":{database['PASSWORD']}" if database.get("PASSWORD") else ""
    host = database.get("HOST") or "127.0.0.1"
    port = database.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{database['TEST']['NAME']}"


def _worker_answers(hostname: str | None = None) -> bool:
    """Ping on a connection of its own, closed at once: one left in the pool waiting on
    the reply queue hangs a live server forked later, when kombu closes it there."""
    with celery_app.connection_for_read() as connection:
        answers = celery_app.control.ping(timeout=0.5, connection=connection)
    if hostname is None:
        return bool(answers)
    return any(hostname in answer for answer in answers)


def _dies_with_its_parent() -> None:
    """In the worker's process before it starts: the kernel kills it when the test process
    that started it dies. A test run stopped by force would otherwise leave its workers
    behind, listening on the Redis database the next run claims and taking its tasks."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def start_worker(*, queues: str, name: str, wait: bool = True) -> subprocess.Popen[bytes]:
    """A real Celery worker process on Redis, using the test database; waits until it answers
    unless ``wait`` is False (a worker busy with its first task answers nothing)."""
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": settings.REDIS_URL or "",
        "SECRET_KEY": settings.SECRET_KEY,
    }
    hostname = f"{name}-{os.getpid()}@{socket.gethostname()}"
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--queues",
            queues,
            "--pool",
            "solo",
            "--loglevel",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "--hostname",
            hostname,
        ],
        cwd=ROOT,
        env=env,
        preexec_fn=_dies_with_its_parent if sys.platform == "linux" else None,
    )
    _running[worker.pid] = _Started(worker, hostname, tuple(queues.split(",")))
    deadline = time.monotonic() + 60
    while wait and not _worker_answers(hostname):
        if worker.poll() is not None:
            raise RuntimeError(f"the Celery worker exited with code {worker.returncode}")
        if time.monotonic() > deadline:
            worker.kill()
            raise RuntimeError("the Celery worker did not answer within 60 seconds")
    return worker


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    _running.pop(worker.pid, None)
    worker.terminate()
    try:
        worker.wait(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        worker.wait()


def wait_until_workers_idle() -> None:
    """Until the running workers have done every task queued for them.

    Tasks are acknowledged late: one in a worker's hands stays in the broker's ``unacked``
    set until it is done. With no queued and no unacknowledged message nothing is under
    way; otherwise the workers are asked (one killed on purpose leaves its message behind).
    """
    workers = [started for started in _running.values() if started.process.poll() is None]
    if not workers:
        return
    queues = sorted({queue for started in workers for queue in started.queues})
    names = [started.hostname for started in workers]
    deadline = time.monotonic() + IDLE_WAIT_SECONDS
    idle_readings = 0
    with celery_app.connection_for_read() as connection:
        channel = connection.default_channel
        while time.monotonic() < deadline:
            # A message a worker is taking is, for a moment, in neither the queue nor the
            # unacknowledged set: two idle readings in a row are needed.
            idle = sum(channel._size(queue) for queue in queues) == 0 and (  # every priority
                channel.client.hlen(channel.unacked_key) == 0 or _idle(names, connection)
            )
            idle_readings = idle_readings + 1 if idle else 0
            if idle_readings == 2:
                return
            time.sleep(0.02)
    raise RuntimeError(f"the Celery workers were still busy after {IDLE_WAIT_SECONDS} s")


def _idle(names: list[str], connection: Any) -> bool:
    """Each worker answers that it holds no task (a busy solo worker cannot answer)."""
    inspect = celery_app.control.inspect(
        destination=names, timeout=0.5, limit=len(names), connection=connection
    )
    for held in (inspect.active(), inspect.reserved()):
        if held is None or len(held) < len(names) or any(held.values()):
            return False
    return True


@contextmanager
def queue_paused(queue: str) -> Iterator[None]:
    """No running worker takes from ``queue`` inside the block (a test's own worker may)."""
    with celery_app.connection_for_write() as connection:
        celery_app.control.cancel_consumer(queue, connection=connection, reply=True, timeout=1)
    try:
        yield
    finally:
        with celery_app.connection_for_write() as connection:
            celery_app.control.add_consumer(queue, connection=connection, reply=True, timeout=1)
