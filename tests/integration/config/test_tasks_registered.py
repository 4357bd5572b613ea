"""Every task is found by its name in any Crawford process, however it is first asked for.

A web process imports no task module by itself: the first ``enqueue`` there imports them
all. Its threads (the sockets' database threads, the embedded analysis thread) may ask for
tasks at the same moment, and each must find its task, not a ``NotRegistered`` error. A
worker started on one queue imports every task module too, since what it runs queues tasks
of the other queues (an analysis done asks for a fair-play scan).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from config.celery import app
from tests.workers import start_worker, stop_worker

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
TASK_NAMES = [
    "fairplay.scan_match",
    "fairplay.scan_analysis",
    "review.analyse",
    "lobby.tell_tournament_started",
    "tournaments.match_finished",
    "matches.sweep_deadlines",
    "analysis.adjudicate_match",
]


def in_a_new_process(code: str) -> str:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))},
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_threads_asking_for_tasks_at_once_in_a_fresh_process_each_find_theirs() -> None:
    found = in_a_new_process(
        f"""
        import threading
        import django

        django.setup()
        from core.tasks import registered

        names = {TASK_NAMES!r}
        start = threading.Barrier(len(names))
        found = []

        def ask(name):
            start.wait()
            try:
                found.append(registered(name).name)
            except Exception as error:
                found.append(repr(error))

        threads = [threading.Thread(target=ask, args=(name,)) for name in names]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(",".join(sorted(found)))
        """
    )

    assert found.split(",") == sorted(TASK_NAMES)


def test_a_worker_taking_only_the_review_queue_knows_the_tasks_its_work_queues() -> None:
    worker = start_worker(queues="review", name="review-only")
    try:
        with app.connection_for_read() as connection:
            answers = app.control.inspect(timeout=5, connection=connection).registered() or {}
    finally:
        stop_worker(worker)

    mine = [
        names for host, names in answers.items() if host.startswith(f"review-only-{os.getpid()}@")
    ]
    assert mine, answers
    assert set(TASK_NAMES) <= {name.split()[0] for name in mine[0]}
