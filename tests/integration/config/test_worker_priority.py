"""The workers as ``scripts/serve`` starts them with ``deploy/crawford.env``.

The review worker's analyses yield the CPU: its processes, and the engine they start, run at
the lower priority the settings give (``REVIEW_WORKER_NICE``), while the workers players
wait for (the sweeps, adjudication) keep the normal one. A worker of the engine's queues
starts GNU Backgammon with each of its processes, before any task asks for it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from django.conf import settings

from bench.shape import Process, Shape, deployment_env
from tests.workers import _test_database_url

pytestmark = pytest.mark.slow


def niceness(pid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, pid) - os.getpriority(os.PRIO_PROCESS, os.getpid())


def engines_of(process: Process) -> list[int]:
    found = []
    for pid in process.tree():
        try:
            if Path(f"/proc/{pid}/exe").resolve().name == "gnubg":
                found.append(pid)
        except OSError:
            continue
    return found


@pytest.fixture
def shape() -> object:
    started = Shape(database_url=_test_database_url(), redis_url=settings.REDIS_URL or "")
    try:
        yield started
    finally:
        started.stop_all()


@pytest.mark.django_db
def test_the_review_worker_runs_below_the_default_worker(shape: Shape) -> None:
    review, default = shape.worker("review"), shape.worker("default")
    time.sleep(1)

    assert niceness(review.popen.pid) == int(deployment_env()["REVIEW_WORKER_NICE"]) > 0
    assert niceness(default.popen.pid) == 0


@pytest.mark.django_db
def test_an_analysis_worker_has_its_engine_running_before_any_task(shape: Shape) -> None:
    analysis, default = shape.worker("analysis"), shape.worker("default")

    deadline = time.monotonic() + 60
    while not engines_of(analysis):
        assert time.monotonic() < deadline, "no GNU Backgammon was started by the worker"
        time.sleep(0.2)
    assert engines_of(default) == []
