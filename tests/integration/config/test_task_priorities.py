"""What follows a finished match (asking for its analysis, the fair-play scans, its "your turn"
notices read) waits on the ``default`` queue behind the work players wait for: a burst of
timeouts queues hundreds of them, and the next deadline sweep or a tournament's next round
must not wait behind them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config.celery import app
from core.tasks import registered
from tests.private_services import PrivateRedis

pytestmark = pytest.mark.slow


@pytest.fixture
def broker() -> Iterator[str]:
    """A Redis of the test's own: no worker of the suite takes these messages."""
    redis = PrivateRedis().start()
    try:
        yield redis.url()
    finally:
        redis.close()


def test_a_sweep_queued_after_a_burst_of_scans_is_taken_first(broker: str) -> None:
    with app.connection_for_write(url=broker) as connection:
        # given a burst of after-the-fact work on the default queue
        for match_id in range(1, 4):
            registered("fairplay.scan_match").apply_async((match_id,), connection=connection)
            registered("review.for_match").apply_async((match_id, 2), connection=connection)
            registered("lobby.read_turn_notices").apply_async((match_id,), connection=connection)
        # when beat queues the deadline sweep and a tournament step after them
        registered("matches.sweep_deadlines").apply_async(connection=connection)
        registered("tournaments.match_finished").apply_async((9,), connection=connection)

        # then a worker of the queue is handed the sweep and the tournament step first
        channel = connection.default_channel
        taken = [channel._get("default")["headers"]["task"] for _ in range(11)]

    assert taken[:2] == ["matches.sweep_deadlines", "tournaments.match_finished"]
    assert sorted(taken[2:]) == (
        ["fairplay.scan_match"] * 3 + ["lobby.read_turn_notices"] * 3 + ["review.for_match"] * 3
    )
