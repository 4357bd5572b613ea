"""The first run of a sweep on a new deployment may be two at once (beat queued two runs
and the default worker has two processes): each records itself, neither fails."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from core.beats import beat_mark
from core.models import Beat


@pytest.mark.django_db(transaction=True)
def test_two_first_runs_at_once_both_record_themselves() -> None:
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def run() -> None:
        try:
            with transaction.atomic():
                start.wait()
                gap = beat_mark("matches.sweep_deadlines")
            outcomes.append("first" if gap is None else "after")
        except Exception as error:
            outcomes.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["after", "first"]
    assert Beat.objects.filter(name="matches.sweep_deadlines").count() == 1
