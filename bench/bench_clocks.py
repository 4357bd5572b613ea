"""Benchmark: many running clocks, and how late a timeout lands after its deadline.

``--clocks`` matches are played at once, each with its clock running for the player to
act. ``--timeouts`` of them run out of time at moments spread evenly over ``--window``
seconds; the others' deadlines lie an hour ahead, so every sweep looks past them. Nothing
is queued per move or per deadline: the deadlines sweeper (``matches.tasks.
sweep_deadlines``, as beat runs it every ``--interval`` seconds, here on ``--workers``
threads of this process) finds what is due through the partial index on ``deadline`` and
ends each match in a transaction of its own.

The lateness of a timeout is the time from its deadline to the commit of the transaction
that ended the match (the moment its players are told). Printed: the percentiles, beside
the baseline, the sweep interval (a sweeper that polls every ``interval`` seconds is on
average half of it late, however fast it is), and the number of Celery tasks queued with
an ETA or countdown while the clocks ran (the goal: none).

Run: ``.venv/bin/python bench/bench_clocks.py [--clocks 10000] [--timeouts 2000]
[--window 60] [--interval 2] [--workers 1]`` (PostgreSQL on 127.0.0.1; the script makes
and drops its own database, crawford_bench_clocks). Tasks run in the process, as in the
embedded set-up; the in-memory channel layer takes the live messages.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchdb import drop_database, fresh_database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = "crawford_bench_clocks"
os.environ.update(
    DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    SECRET_KEY="bench-only",
    DEBUG="false",
)
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

MOVE_SECONDS = 12


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def start_matches(count: int) -> list[int]:
    """``count`` unrated one-point matches under way, the clock running for the player to
    act, made in bulk as a tournament round is."""
    from accounts.models import User
    from matches import creation
    from matches.models import ClockKind, ClockSettings

    users = [User(username=f"clock{n}") for n in range(2 * count)]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users, batch_size=2000)
    ids = list(User.objects.filter(username__startswith="clock").values_list("pk", flat=True))
    clock = ClockSettings(kind=ClockKind.MOVE, move_seconds=MOVE_SECONDS, reserve_seconds=0)
    made = []
    for start in range(0, count, 1000):
        pairs = [
            creation.Pair(ids[2 * n], ids[2 * n + 1], 1)
            for n in range(start, min(count, start + 1000))
        ]
        made += creation.matches_create_for_tournament(
            tournament_id=None, pairs=pairs, clock_settings=clock, rated=False
        )
    return [match.pk for match in made]


def set_deadlines(deadlines: dict[int, datetime]) -> None:
    """Each match's turn started ``MOVE_SECONDS`` before its deadline (no reserve left)."""
    from django.db import connection

    from matches.models import Match

    ids = list(deadlines)
    ends = [deadlines[pk] for pk in ids]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {Match._meta.db_table} AS m
            SET deadline = d.ends, turn_started_at = d.ends - make_interval(secs => %s),
                reserve_ms_0 = 0, reserve_ms_1 = 0
            FROM unnest(%s::bigint[], %s::timestamptz[]) AS d (id, ends)
            WHERE m.id = d.id
            """,  # noqa: S608 (the model's table)
            [MOVE_SECONDS, ids, ends],
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clocks", type=int, default=10_000)
    parser.add_argument("--timeouts", type=int, default=2_000)
    parser.add_argument("--window", type=float, default=60.0, help="seconds")
    parser.add_argument("--lead", type=float, default=5.0, help="seconds before the first")
    parser.add_argument("--interval", type=float, default=None, help="default: beat's")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()

    fresh_database(DATABASE)
    import django

    django.setup()
    from celery.app.task import Task
    from django.conf import settings
    from django.db import connection
    from django.utils import timezone

    from matches import deadlines, tasks
    from matches.models import Match, MatchStatus

    interval = args.interval or settings.CELERY_BEAT_SCHEDULE["sweep-match-deadlines"]["schedule"]
    print(f"starting {args.clocks:,} matches with running clocks ...", flush=True)
    began = time.perf_counter()
    ids = start_matches(args.clocks)
    print(f"  made in {time.perf_counter() - began:.1f} s", flush=True)

    rng = random.Random(10_000)
    timing_out = set(rng.sample(ids, args.timeouts))
    first = timezone.now() + timedelta(seconds=args.lead)
    step = args.window / max(1, args.timeouts - 1)
    order = sorted(timing_out)
    rng.shuffle(order)
    due_at = {pk: first + timedelta(seconds=n * step) for n, pk in enumerate(order)}
    later = timezone.now() + timedelta(hours=1)
    set_deadlines({pk: due_at.get(pk, later) for pk in ids})

    # When each match's transaction committed; ETA tasks queued meanwhile.
    committed: dict[int, float] = {}
    expired = threading.local()
    sweep, expire = deadlines._sweep, deadlines._timeout

    def noted_expire(match: Any, moment: datetime) -> bool:
        expired.now = expire(match, moment)
        return expired.now

    def timed_sweep(match_id: int, moment: datetime) -> None:
        expired.now = False
        sweep(match_id, moment)  # commits on return
        if expired.now:
            committed.setdefault(match_id, time.time())

    deadlines._sweep = timed_sweep  # type: ignore[assignment]
    deadlines._timeout = noted_expire  # type: ignore[assignment]
    delayed = [0]
    apply_async = Task.apply_async

    def counting(self: Task, *a: Any, **options: Any) -> Any:
        if options.get("eta") is not None or options.get("countdown") is not None:
            delayed[0] += 1
        return apply_async(self, *a, **options)

    Task.apply_async = counting  # type: ignore[method-assign]

    finish_by = first.timestamp() + args.window + 30
    stop = threading.Event()
    sweeps: list[float] = []

    def worker(offset: float) -> None:
        time.sleep(offset)
        while not stop.is_set():
            tick = time.perf_counter()
            tasks.sweep_deadlines()
            sweeps.append(time.perf_counter() - tick)
            stop.wait(max(0.0, interval - (time.perf_counter() - tick)))
        connection.close()

    print(
        f"{args.timeouts:,} of them time out over {args.window:.0f} s; sweeping every "
        f"{interval:g} s on {args.workers} worker(s) ...",
        flush=True,
    )
    threads = [
        threading.Thread(target=worker, args=(n * interval / args.workers,))
        for n in range(args.workers)
    ]
    for thread in threads:
        thread.start()
    while time.time() < finish_by and len([pk for pk in timing_out if pk in committed]) < len(
        timing_out
    ):
        time.sleep(0.5)
    stop.set()
    for thread in threads:
        thread.join()

    ended = set(
        Match.objects.filter(pk__in=timing_out, status=MatchStatus.FINISHED).values_list(
            "pk", flat=True
        )
    )
    wrongly = Match.objects.exclude(pk__in=timing_out).exclude(status=MatchStatus.PLAYING).count()
    late = [committed[pk] - due_at[pk].timestamp() for pk in timing_out if pk in committed]
    print()
    print(f"running clocks                 {args.clocks:10,}")
    print(f"timed out and ended            {len(ended):10,} of {args.timeouts:,}")
    print(f"others ended (must be 0)       {wrongly:10,}")
    print(f"ETA/countdown tasks queued     {delayed[0]:10,}")
    print(
        f"a sweep run (beat's task)      {statistics.median(sweeps) * 1000:8.1f} ms median, "
        f"{max(sweeps) * 1000:.0f} ms longest ({len(sweeps)} runs)"
    )
    if late:
        p50, p95, p99 = (percentile(late, share) for share in (0.5, 0.95, 0.99))
        print(
            f"lateness p50/p95/p99/max       {p50:.2f} / {p95:.2f} / {p99:.2f} / {max(late):.2f} s"
        )
        print(
            f"baseline: the sweep interval   {interval:.2f} s (p99 / interval {p99 / interval:.2f})"
        )
    connection.close()
    drop_database(DATABASE)


if __name__ == "__main__":
    main()
