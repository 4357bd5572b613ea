"""Benchmark: many running clocks, and how late a timeout lands after its deadline, on the
shipped shape with every production feature on.

``--clocks`` matches are played at once, each with its clock running for the player to
act. ``--timeouts`` of them run out of time at moments spread evenly over ``--window``
seconds; the others' deadlines lie an hour ahead, so every sweep looks past them. Nothing
is queued per move or per deadline: beat runs the deadlines sweeper (``matches.tasks.
sweep_deadlines``, every second, two passes a run) on the ``default`` worker, which finds
what is due through the partial index on ``deadline`` and ends each match in a
transaction of its own.

The processes are the production ones as ``docker-compose.yml`` runs them, started by
``bench/shape.py`` through ``scripts/serve`` with ``deploy/crawford.env``: a worker for each
queue (``default``, ``analysis``, ``review``) and beat, on a Redis of the run's own and a
database of its own. So every match that times out is analysed on the review worker and
scanned for fair play on the default worker while the clocks run, as on a site.

The lateness of a timeout is the time from its deadline to the moment the sweep wrote the
match's timeout (its action's ``created_at``; the commit follows in the same
transaction). Printed: the percentiles beside the baseline, the sweep interval (a sweeper
that polls every ``interval`` seconds is on average half of it late, however fast it is);
the sweep's runs as its worker logged them; the Celery tasks received with an ETA (the
goal: none); the analyses and fair-play scans done meanwhile; each process's CPU. Any
traceback or ERROR in a process's log fails the run (exit status 1).

Run: ``.venv/bin/python bench/bench_clocks.py [--clocks 10000] [--timeouts 2000]
[--window 60]`` (PostgreSQL on 127.0.0.1; ``redis-server`` installed: the script starts its
own, and makes and drops its own database).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

from benchdb import drop_database, fresh_database
from shape import Process, Shape

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = f"crawford_bench_clocks_{os.getpid()}"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
os.environ.update(DATABASE_URL=DATABASE_URL, SECRET_KEY="bench-only", DEBUG="false")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

MOVE_SECONDS = 12
SWEEP_RUN = re.compile(r"Task matches\.sweep_deadlines\[[^\]]+\] succeeded in ([0-9.]+)s")
ETA_TASK = re.compile(r"Received task: \S+\s+ETA:")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def start_matches(count: int) -> list[int]:
    """``count`` unrated one-point matches under way between players with profiles, the
    clock running for the player to act, made in bulk as a tournament round is."""
    from accounts.models import Profile, User
    from accounts.names import name_skeleton
    from matches import creation
    from matches.models import ClockKind, ClockSettings

    users = [
        User(username=f"clock{n}", username_skeleton=name_skeleton(f"clock{n}"))
        for n in range(2 * count)
    ]
    for user in users:
        user.set_unusable_password()
    User.objects.bulk_create(users, batch_size=2000)
    ids = list(
        User.objects.filter(username__startswith="clock")
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    Profile.objects.bulk_create(
        [
            Profile(user_id=pk, display_name=f"clock{n}", display_name_skeleton=f"clock{n}")
            for n, pk in enumerate(ids)
        ],
        batch_size=2000,
    )
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
    """Each match's turn started ``MOVE_SECONDS`` before its deadline (no reserve left),
    its players both at the board and play under way: no clock runs in the show-up period."""
    from django.db import connection

    from matches.models import Match

    ids = list(deadlines)
    ends = [deadlines[pk] for pk in ids]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            UPDATE {Match._meta.db_table} AS m
            SET deadline = d.ends, turn_started_at = d.ends - make_interval(secs => %s),
                reserve_ms_0 = 0, reserve_ms_1 = 0, show_up_by = NULL
            FROM unnest(%s::bigint[], %s::timestamptz[]) AS d (id, ends)
            WHERE m.id = d.id
            """,  # noqa: S608 (the model's table)
            [MOVE_SECONDS, ids, ends],
        )


def wait_for(check: object, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not happen within {seconds:.0f} s")
        time.sleep(0.2)


def stop_as_compose_does(shape: Shape, process: Process, seconds: float = 60) -> None:
    """SIGTERM to the worker's main process, as ``docker stop`` sends it: the worker
    finishes the tasks in hand and leaves the queued ones in the broker."""
    os.kill(process.popen.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.popen.wait(timeout=seconds)
    shape.stop(process)


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU of these processes so far (children that ended included)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return total / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clocks", type=int, default=10_000)
    parser.add_argument("--timeouts", type=int, default=2_000)
    parser.add_argument("--window", type=float, default=60.0, help="seconds")
    parser.add_argument("--lead", type=float, default=5.0, help="seconds before the first")
    args = parser.parse_args()

    from tests.private_services import PrivateRedis

    redis = PrivateRedis().start()
    os.environ["REDIS_URL"] = redis.url()
    shape = Shape(database_url=DATABASE_URL, redis_url=redis.url())
    try:
        fresh_database(DATABASE)
        return run(args, shape)
    finally:
        shape.stop_all()  # the workers stop before their database is dropped
        drop_database(DATABASE)
        redis.close()


def run(args: argparse.Namespace, shape: Shape) -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.db.models import Count
    from django.utils import timezone

    from core.models import Beat
    from fairplay.models import Case
    from matches.models import Action, ActionKind, Match, MatchStatus
    from reviews.models import Analysis, AnalysisStatus

    interval = settings.CELERY_BEAT_SCHEDULE["sweep-match-deadlines"]["schedule"]
    print(f"starting {args.clocks:,} matches with running clocks ...", flush=True)
    began = time.perf_counter()
    ids = start_matches(args.clocks)
    print(f"  made in {time.perf_counter() - began:.1f} s", flush=True)
    connection.close()

    workers = {queue: shape.worker(queue) for queue in ("default", "analysis", "review")}
    beat = shape.beat()
    wait_for(
        lambda: Beat.objects.filter(name="matches.sweep_deadlines").exists(),
        90,
        "beat's first sweep on the default worker",
    )

    rng = random.Random(10_000)
    timing_out = set(rng.sample(ids, args.timeouts))
    first = timezone.now() + timedelta(seconds=args.lead)
    step = args.window / max(1, args.timeouts - 1)
    order = sorted(timing_out)
    rng.shuffle(order)
    due_at = {pk: first + timedelta(seconds=n * step) for n, pk in enumerate(order)}
    later = timezone.now() + timedelta(hours=1)
    set_deadlines({pk: due_at.get(pk, later) for pk in ids})
    processes = {"beat": beat, **{f"worker {queue}": p for queue, p in workers.items()}}
    cpu_before = {name: cpu_seconds(p.tree()) for name, p in processes.items()}

    print(
        f"{args.timeouts:,} of them time out over {args.window:.0f} s; beat sweeps every "
        f"{interval:g} s on the default worker, the review and analysis workers beside ...",
        flush=True,
    )
    finish_by = first.timestamp() + args.window + 30

    def timed_out() -> int:
        return Action.objects.filter(match_id__in=timing_out, kind=ActionKind.TIMEOUT).count()

    while time.time() < finish_by and timed_out() < len(timing_out):
        time.sleep(0.5)
    cpu = {name: cpu_seconds(p.tree()) - cpu_before[name] for name, p in processes.items()}
    took = time.time() - first.timestamp()

    written = dict(
        Action.objects.filter(match_id__in=timing_out, kind=ActionKind.TIMEOUT).values_list(
            "match_id", "created_at"
        )
    )
    ended = Match.objects.filter(pk__in=timing_out, status=MatchStatus.FINISHED).count()
    wrongly = Match.objects.exclude(pk__in=timing_out).exclude(status=MatchStatus.PLAYING).count()
    analyses = dict(Analysis.objects.values_list("status").annotate(n=Count("pk")))
    cases = Case.objects.count()
    connection.close()
    shape.stop(beat)
    for process in workers.values():  # before their database goes (main's finally)
        stop_as_compose_does(shape, process)
    logs = "\n".join(log.read_text(errors="replace") for log in shape.logs.glob("*.log"))
    sweeps = [float(seconds) for seconds in SWEEP_RUN.findall(logs)]
    delayed = len(ETA_TASK.findall(logs))
    late = [(written[pk] - due_at[pk]).total_seconds() for pk in timing_out if pk in written]

    print()
    print(f"running clocks                 {args.clocks:10,}")
    print(f"timed out and ended            {ended:10,} of {args.timeouts:,}")
    print(f"others ended (must be 0)       {wrongly:10,}")
    print(f"ETA/countdown tasks received   {delayed:10,}")
    if sweeps:
        print(
            f"a sweep run (beat's task)      {statistics.median(sweeps) * 1000:8.1f} ms median, "
            f"{max(sweeps) * 1000:.0f} ms longest ({len(sweeps)} runs)"
        )
    print(
        "post-match analyses            "
        + ", ".join(f"{analyses.get(s, 0):,} {s}" for s in AnalysisStatus.values)
        + f"; fair-play cases {cases:,}"
    )
    print(
        f"CPU over the {took:.0f} s, share of one core: "
        + ", ".join(f"{name} {seconds / took:.0%}" for name, seconds in cpu.items())
    )
    if late:
        p50, p95, p99 = (percentile(late, share) for share in (0.5, 0.95, 0.99))
        print(
            f"lateness p50/p95/p99/max       {p50:.2f} / {p95:.2f} / {p99:.2f} / {max(late):.2f} s"
        )
        print(
            f"baseline: the sweep interval   {interval:.2f} s (p99 / interval {p99 / interval:.2f})"
        )
    trouble = shape.check_logs()
    if trouble:
        print(f"\n{len(trouble)} lines of trouble in the processes' logs ({shape.logs}):")
        print("\n".join(trouble[:20]))
        return 1
    if ended < args.timeouts or wrongly:
        print("\nnot every timeout ended its match, or another match ended")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
