"""Time the platform was away (no deadline sweep ran: Redis, PostgreSQL, the workers or beat
were down) is given back to every running clock, so nobody loses on time through the
site's fault; a sweep on time changes nothing."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.models import Beat
from matches.models import ClockKind, ClockSettings, Match, MatchConnection, MatchStatus
from matches.pauses import SWEEP, pause_given_back
from matches.tasks import sweep_deadlines
from tests.integration.matches.test_clocks_and_presence import _backdate, _playing

pytestmark = pytest.mark.django_db

CLOCK = ClockSettings(kind=ClockKind.MOVE, move_seconds=12, reserve_seconds=30)


def _sweep_last_ran(seconds_ago: float) -> None:
    Beat.objects.update_or_create(
        name=SWEEP, defaults={"ran_at": timezone.now() - timedelta(seconds=seconds_ago)}
    )


def test_a_clock_that_ran_out_while_the_site_was_away_gets_the_time_back() -> None:
    # given a player who was asked 50 s ago, with 12 s free and 30 s in reserve: out of time
    # 8 s ago, but the sweep last ran two minutes ago (the site was away)
    match = _playing(clock=CLOCK)
    _backdate(match, 50)
    match.refresh_from_db()
    deadline_before = match.deadline
    _sweep_last_ran(120)

    # when the sweep runs again
    sweep_deadlines.apply(kwargs={"passes": 1})

    # then the two minutes are given back: the match plays on, the player's time intact
    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    given = match.deadline - deadline_before
    assert timedelta(seconds=118) <= given <= timedelta(seconds=120)
    assert match.deadline > timezone.now()


def test_open_connections_are_counted_as_seen_after_a_pause() -> None:
    # given a board whose server last said it was open three minutes ago, because the
    # database was away for those three minutes
    match = _playing(clock=CLOCK)
    MatchConnection.objects.create(
        match=match, user=match.player_0, seat=0, channel="specific.test!one"
    )
    MatchConnection.objects.update(seen_at=timezone.now() - timedelta(minutes=3))
    _sweep_last_ran(180)

    sweep_deadlines.apply(kwargs={"passes": 1})

    # then the board is still counted as open: its server has time to say so again
    assert MatchConnection.objects.filter(channel="specific.test!one").exists()
    match.refresh_from_db()
    assert match.grace_ends_0 is None


def test_a_sweep_on_time_gives_nothing_back_and_a_timeout_lands() -> None:
    match = _playing(clock=CLOCK)
    _backdate(match, 50)
    _sweep_last_ran(1)

    sweep_deadlines.apply(kwargs={"passes": 1})

    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert Match.objects.get(pk=match.pk).finish_reason == "timeout"


def test_a_sweep_on_time_notes_its_run_in_one_statement() -> None:
    _sweep_last_ran(1)

    with CaptureQueriesContext(connection) as sent:
        given = pause_given_back()

    assert given is None
    assert len(sent.captured_queries) == 1
    ran_at = Beat.objects.get(name=SWEEP).ran_at
    assert timezone.now() - ran_at < timedelta(seconds=1)


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_after_a_pause_give_the_time_back_once() -> None:
    # given a running clock and a sweep that last ran two minutes ago
    match = _playing(clock=CLOCK)
    deadline_before = Match.objects.get(pk=match.pk).deadline
    _sweep_last_ran(120)
    start = threading.Barrier(2)
    given: list[timedelta | None] = []

    # when two sweeps start at the same moment (beat queued two, two worker processes)
    def sweep() -> None:
        try:
            start.wait()
            given.append(pause_given_back())
        finally:
            connection.close()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # then one of them gives the two minutes back, the other finds the first's run
    assert len(given) == 2
    assert given.count(None) == 1
    moved = Match.objects.get(pk=match.pk).deadline - deadline_before
    assert timedelta(seconds=118) <= moved <= timedelta(seconds=120)
