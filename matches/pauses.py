"""Time the platform was away is given back to the players.

When Redis or PostgreSQL is away, or the workers or beat, no deadline is swept, and players
cannot see each other's moves or make their own: their clocks would run out through no
fault of theirs. The deadline sweep notes when it runs (``core.beats``); finding that
its last run was more than ``PAUSE`` ago, it knows the platform was away for that long,
and before it sweeps, ``pause_given_back`` moves every running match's times by the gap:
the turn's start (so the time used does not count), the reconnection graces, the show-up
time and the deadline. Every connection row is marked seen as well, so the servers that
held them open have their ``presence.CONNECTION_TTL`` to say so again before the sweep
takes them for dead.

A pause of beat alone (the players could play on) is given back the same way: a few extra
seconds to the player on roll, never a loss on time the site caused.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from core.beats import beat_kept_up, beat_mark
from matches.models import Match, MatchConnection, MatchStatus

logger = logging.getLogger(__name__)

SWEEP = "matches.sweep_deadlines"
# The sweep runs every half second; a gap this long means it was stopped, not slow.
PAUSE = timedelta(seconds=5)
# Of a gap, this much is the sweep's own interval, not time away.
INTERVAL = timedelta(seconds=1)
_MOVED = ("turn_started_at", "grace_ends_0", "grace_ends_1", "show_up_by", "deadline")


def pause_given_back(*, now: datetime | None = None) -> timedelta | None:
    """Note this sweep's run; after a pause, give its length back to every running match
    and to every open connection. Returns the time given back (None: no pause)."""
    moment = now or timezone.now()
    if beat_kept_up(SWEEP, within=PAUSE, now=moment):  # one statement, as nearly every run
        return None
    return _after_a_gap(moment)


@transaction.atomic
def _after_a_gap(moment: datetime) -> timedelta | None:
    gap = beat_mark(SWEEP, now=moment)
    if gap is None or gap < PAUSE:
        return None
    given = gap - INTERVAL
    # One statement; a time that is not set stays unset (NULL plus an interval is NULL).
    matches = Match.objects.filter(status=MatchStatus.PLAYING, deadline__isnull=False).update(
        **{column: F(column) + given for column in _MOVED}
    )
    MatchConnection.objects.update(seen_at=moment)
    logger.warning(
        "the deadline sweep had not run for %.0f s: %.0f s given back to %d running matches",
        gap.total_seconds(),
        given.total_seconds(),
        matches,
    )
    return given
