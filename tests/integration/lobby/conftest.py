"""Lobby tests run Celery tasks in the test process (``tasks_run_in_process``)."""

from __future__ import annotations

import pytest

from tests.mailbox import mailbox  # noqa: F401 - the fixture: a real SMTP server


@pytest.fixture(autouse=True)
def _tasks_in_process(tasks_run_in_process: None) -> None:
    """Every test here runs its tasks eagerly, on commit."""
