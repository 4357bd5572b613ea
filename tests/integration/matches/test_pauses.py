"""Time the platform was away (no deadline sweep ran: Redis, PostgreSQL, the workers or beat
were down) is given back to every running clock, so nobody loses on time through the
site's fault; a sweep on time changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.models import Beat
from matches.models import ClockKind, ClockSettings, Match, MatchConnection, MatchStatus
from matches.pauses import SWEEP
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
