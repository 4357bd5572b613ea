"""The review worker the analysis tests share: a real Celery worker on the ``review`` queue."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from tests.workers import start_worker, stop_worker


@pytest.fixture
def review_worker(celery_worker_process: None) -> Iterator[None]:
    """Finished matches are analysed, at 0 ply to be quick, by a worker of their own."""
    with override_settings(ANALYSE_FINISHED_MATCHES=True, ANALYSIS_PLIES=0):
        worker = start_worker(queues="review", name="review")
        try:
            yield
        finally:
            stop_worker(worker)
