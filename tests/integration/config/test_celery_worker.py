"""A task goes through Redis to a real worker process and its result comes back."""

from __future__ import annotations

import pytest

from config.celery import app, ping

pytestmark = pytest.mark.slow


@pytest.mark.usefixtures("celery_worker_process")
def test_a_real_worker_answers_the_ping_task() -> None:
    result = ping.delay()

    assert result.get(timeout=30) == "pong"


@pytest.mark.usefixtures("celery_worker_process")
def test_the_worker_consumes_both_queues() -> None:
    with app.connection_for_read() as connection:
        queues = app.control.inspect(timeout=5, connection=connection).active_queues() or {}
    names = {queue["name"] for worker_queues in queues.values() for queue in worker_queues}

    assert {"default", "analysis"} <= names


def test_tasks_are_json_only() -> None:
    assert app.conf.task_serializer == "json"
    assert app.conf.accept_content == ["json"]
