"""When each periodic sweep last ran: a row per sweep (``core.models.Beat``).

``beat_mark`` records a run and answers how long it has been since the one before, which
the deadline sweep reads as time the platform was away (``matches.pauses``); ``beat_kept_up``
records a run in one statement when the one before was recent, as nearly every run finds
it, so only a run after a gap locks the row and reads it; ``beat_ages``
answers how long ago each sweep last ran, for ``/healthz`` and ``/metrics``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from core import locks, rows
from core.locks import Lock
from core.models import Beat


def beat_mark(name: str, *, now: datetime | None = None) -> timedelta | None:
    """Record that the sweep ``name`` runs now; the time since its last run (None: first).

    Expects to run inside the transaction that acts on the gap: the row stays locked
    until it commits, so two sweeps running at once see the gap only once.
    """
    moment = now or timezone.now()
    assert transaction.get_connection().in_atomic_block, "beat_mark needs a transaction"
    beat = locks.select(Lock.BEAT, Beat.objects.filter(name=name), name).first()
    if beat is None:
        # The first run of all, perhaps two at once: one inserts the row, the other waits
        # for that insert to commit and then locks the row it made.
        Beat.objects.bulk_create([Beat(name=name, ran_at=moment)], ignore_conflicts=True)
        beat = locks.select(Lock.BEAT, Beat.objects.all(), name).get(name=name)
        if beat.ran_at == moment:
            return None
    gap = moment - beat.ran_at
    Beat.objects.filter(name=name).update(ran_at=moment)
    return gap


def beat_kept_up(name: str, *, within: timedelta, now: datetime | None = None) -> bool:
    """Record that the sweep ``name`` runs now if its last run was less than ``within`` ago,
    in one statement; False (nothing recorded) after a longer gap or before the first run:
    then ``beat_mark`` it, in the transaction that acts on the gap.

    A run that finds the row locked by one acting on a gap waits for it, and finds then
    the run it recorded: recent. So the gap is still seen once.
    """
    moment = now or timezone.now()
    ran_at, adapt = rows.column(Beat, "ran_at"), connection.ops.adapt_datetimefield_value
    # Every pass of the deadline sweep runs it before anything can expire: a statement
    # kept prepared, as building it through the ORM cost more CPU than running it.
    with rows.prepared_cursor() as cursor:
        cursor.execute(
            f"UPDATE {rows.table(Beat)} SET {ran_at} = %s"  # noqa: S608
            f" WHERE {rows.column(Beat, 'name')} = %s AND {ran_at} > %s",
            [adapt(moment), name, adapt(moment - within)],
        )
        return bool(cursor.rowcount)


def beat_ages(*, now: datetime | None = None) -> dict[str, float]:
    """Seconds since each sweep last ran, by name."""
    moment = now or timezone.now()
    return {
        name: (moment - ran_at).total_seconds()
        for name, ran_at in Beat.objects.values_list("name", "ran_at")
    }
