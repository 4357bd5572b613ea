"""Benchmark: the time from a reconnection grace running out to the settlement committed,
on the shipped shape with every production feature on.

N matches (a few moves into a 5-point match played for a pot) are left by a player. The
workers are the production ones as ``docker-compose.yml`` runs them, started by
``bench/shape.py`` through ``scripts/serve`` with ``deploy/crawford.env``: ``default``,
``analysis`` (adjudication, in its warm GNU Backgammon) and ``review`` (the post-match
analysis every settled match is queued for), on a Redis of the run's own and a database of
its own, with beat. For each match in turn the grace is made to end now and the deadline
sweep (``matches.sweep_deadlines``, the code beat runs every second) runs at that moment: it
suspends the match and queues its adjudication; the analysis worker evaluates the position
at 2 ply and settles the pot in one transaction. The grace is written to end a moment ahead
and the sweep runs when it ends, so the bench's own write is not counted. The time counted
runs from the grace's end to the moment this process sees the settlement committed
(polling every 2 ms, in a prepared statement on a connection of its own, so that watching
takes little of the CPU the worker settles with); the sweep's part of it ends at the
suspension's action. The sweep's own polling delay is not in it:
``bench_clocks.py`` measures that.

Each grace ends once the analysis worker has finished the match before (its task, with the
after-commit work the settlement queues, acknowledged to the broker), as abandoned games
come one by one, not the instant the one before was settled; the time the worker stays busy
after a commit is printed beside the figure. Whatever the match before queued elsewhere
(its post-match analysis on the review worker, its fair-play scan) may still be running.

Beside it, in the same run, the bare 2-ply evaluation of the same positions in a warm
engine of this process, each just before its match's grace ends (so both see the machine
as it is then): the baseline, so the ratio shows what the platform adds to the engine's
own time. Any traceback or ERROR in a process's log fails the run (exit status 1).

Because a loaded machine stretches every wait, each match's time is also taken apart: the
engine's own time in the worker (its ``crawford_engine_seconds``, read from the worker's
metrics after the match), and, for each process on the path (this process's sweep, the
analysis worker's main and pool processes, its GNU Backgammon, the run's PostgreSQL
backends, Redis), the CPU it ran and the time it stood ready but waiting for a core, from
the grace's end to the settlement seen (``/proc/<pid>/task/*/schedstat``, nanoseconds).
Redis runs as compose runs it (append-only, fsync every second).

Run: ``.venv/bin/python bench/bench_adjudication.py [matches]`` (PostgreSQL on 127.0.0.1;
``redis-server`` installed: the script starts its own, and makes and drops its database).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
from benchdb import drop_database, fresh_database
from shape import Process, Shape, descendants

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = f"crawford_bench_adjudication_{os.getpid()}"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
os.environ.update(DATABASE_URL=DATABASE_URL, SECRET_KEY="bench-only", DEBUG="false")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
SETTLED_WITHIN = 60.0
GRACE_SET_AHEAD = timedelta(milliseconds=20)
ENGINE_SECONDS = re.compile(r'^crawford_engine_seconds_sum\{call="evaluate"\} (\S+)$', re.M)


def scheduled(pid: int) -> tuple[float, float]:
    """Seconds ``pid``'s threads have run on a core and stood ready waiting for one."""
    ran = waited = 0
    with contextlib.suppress(FileNotFoundError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(FileNotFoundError, ValueError):
                fields = (task / "schedstat").read_text().split()
                ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return ran / 1e9, waited / 1e9


def is_engine(pid: int) -> bool:
    with contextlib.suppress(FileNotFoundError):
        return Path(f"/proc/{pid}/comm").read_text().strip() == "gnubg"
    return False


OWN_BACKEND = "  the sweep's PostgreSQL backend"


class PathProcesses:
    """The processes an adjudication passes through, by part, for their CPU and waits."""

    PARTS = (
        "the sweep (this process)",
        OWN_BACKEND,
        "worker main process",
        "worker pool process",
        "  the pool's PostgreSQL backend",
        "the worker's engine",
        "Redis",
        "other PostgreSQL backends",
    )

    def __init__(self, worker: Process, redis_pid: int, own_backend: int, watcher: int) -> None:
        self.worker, self.redis_pid = worker, redis_pid
        self.own_backend, self.watcher = own_backend, watcher

    def pids(self) -> dict[str, list[int]]:
        below = descendants(self.worker.popen.pid)
        pool = [pid for pid in below if not is_engine(pid)]
        ports = {port for pid in pool for port in local_ports(pid)}
        with psycopg.connect(DATABASE_URL, autocommit=True) as look:
            backends = look.execute(
                "SELECT pid, client_port FROM pg_stat_activity WHERE datname = %s"
                " AND pid NOT IN (%s, %s, pg_backend_pid())",
                [DATABASE, self.own_backend, self.watcher],
            ).fetchall()
        return dict(
            zip(
                self.PARTS,
                (
                    [os.getpid()],
                    [self.own_backend],
                    [self.worker.popen.pid],
                    pool,
                    [pid for pid, port in backends if port in ports],
                    [pid for pid in below if is_engine(pid)],
                    [self.redis_pid],
                    [pid for pid, port in backends if port not in ports],
                ),
                strict=True,
            )
        )

    @staticmethod
    def reading(pids: dict[str, list[int]]) -> dict[str, tuple[float, float]]:
        totals = {}
        for part, listed in pids.items():
            each = [scheduled(pid) for pid in listed]
            totals[part] = (sum(ran for ran, _ in each), sum(waited for _, waited in each))
        return totals


def local_ports(pid: int) -> set[int]:
    """The local ports of ``pid``'s TCP sockets (its database connection's among them)."""
    inodes = set()
    with contextlib.suppress(FileNotFoundError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


def engine_seconds(worker: Process) -> float:
    """The analysis worker's evaluations so far, in seconds (its metrics)."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{worker.port}/metrics", timeout=10) as answer:
        found = ENGINE_SECONDS.search(answer.read().decode())
    return float(found.group(1)) if found else 0.0


def stop_as_compose_does(shape: Shape, process: Process, seconds: float = 60) -> None:
    """SIGTERM to the worker's main process, as ``docker stop`` sends it: the worker
    finishes the tasks in hand and leaves the queued ones in the broker."""
    os.kill(process.popen.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.popen.wait(timeout=seconds)
    shape.stop(process)


def analysis_in_hand(broker: Any) -> bool:
    """Whether a message of the ``analysis`` queue is delivered and not yet acknowledged: an
    adjudication being run, its after-commit work included (acknowledged when it returns)."""
    return any(json.loads(raw)[2] == "analysis" for raw in broker.hvals("unacked"))


def analysis_worker_idle(broker: Any) -> float:
    """Wait until the analysis worker holds no adjudication; the seconds waited."""
    began = time.monotonic()
    while analysis_in_hand(broker):
        if time.monotonic() - began > SETTLED_WITHIN:
            raise TimeoutError(f"the analysis worker was still busy after {SETTLED_WITHIN:.0f} s")
        time.sleep(0.002)
    return time.monotonic() - began


def abandoned_matches(count: int) -> list[int]:
    """``count`` 5-point matches for a pot, six actions in, left by their second player."""
    from accounts.services import user_create
    from matches import creation
    from matches.actions import PlayerAction
    from matches.models import Match
    from matches.play import action_submit
    from matches.selectors import match_snapshot
    from tests.integration.matches.helpers import board_left, quick_play

    alice = user_create(username="bench-alice", password="bench-password-1")
    bruno = user_create(username="bench-bruno", password="bench-password-1")
    match_ids = []
    for _ in range(count):
        match = creation.match_challenge(
            challenger=alice, opponent=bruno, length=5, stake_cents=100
        )
        creation.match_accept(match_id=match.pk, user=bruno)
        for seq in range(1, 7):  # each player's seq only has to grow
            match = Match.objects.get(pk=match.pk)  # afresh: a match caches its game
            state = match_snapshot(match, viewer=None)
            player = match.player(state["game"]["turn_seat"])
            mine = match_snapshot(match, viewer=player)["game"]
            if mine["phase"] == "roll":
                action_submit(match_id=match.pk, user=player, action=PlayerAction.ROLL, seq=seq)
            else:
                action_submit(
                    match_id=match.pk,
                    user=player,
                    action=PlayerAction.PLAY,
                    play=quick_play(mine["legal_plays"]),
                    seq=seq,
                )
        board_left(match.pk, bruno)
        match_ids.append(match.pk)
    return match_ids


def main(count: int) -> int:
    from tests.private_services import PrivateRedis

    redis = PrivateRedis(appendfsync="everysec").start()  # compose's Redis
    os.environ["REDIS_URL"] = redis.url()
    shape = Shape(database_url=DATABASE_URL, redis_url=redis.url())
    try:
        fresh_database(DATABASE)
        assert redis.process is not None
        return run(count, shape, redis.url(), redis.process.pid)
    finally:
        shape.stop_all()  # the workers stop before their database is dropped
        drop_database(DATABASE)
        redis.close()


def run(count: int, shape: Shape, redis_url: str, redis_pid: int) -> int:
    import django
    import redis

    django.setup()
    from django.db import connection
    from django.utils import timezone

    from analysis.engine import EvalSettings
    from core.models import Beat
    from matches import adjudication
    from matches.engine import engine
    from matches.models import Action, ActionKind, Match, MatchStatus
    from matches.tasks import sweep_deadlines

    workers = [shape.worker(queue) for queue in ("default", "analysis", "review")]
    workers.append(shape.beat())  # its sweeps run too: one that stopped gives time back
    match_ids = abandoned_matches(count)
    deadline = time.monotonic() + 90
    while not Beat.objects.filter(name="matches.sweep_deadlines").exists():
        if time.monotonic() > deadline:
            print("beat's sweep did not run on the default worker within 90 s")
            return 1
        time.sleep(0.2)
    engine().start()

    broker = redis.Redis.from_url(redis_url)
    # The settlement is watched for on a connection of its own, in a statement kept
    # prepared: the ORM's query built every 2 ms took a share of the CPU the worker
    # settles with.
    watcher = psycopg.connect(DATABASE_URL, autocommit=True)
    settled = f"SELECT 1 FROM {Match._meta.db_table} WHERE id = %s AND status = %s"  # noqa: S608
    baseline, timings, sweeps, busy_after = [], [], [], []
    in_worker, baseline_cpu = [], []
    parts: dict[str, list[tuple[float, float]]] = {part: [] for part in PathProcesses.PARTS}
    connection.ensure_connection()
    own_backend = connection.connection.info.backend_pid
    path = PathProcesses(workers[1], redis_pid, own_backend, watcher.info.backend_pid)
    for match_id in match_ids:
        analysis_worker_idle(broker)
        evaluated_before = engine_seconds(workers[1])
        pids = path.pids()
        # The baseline just before the match it is compared with, on the machine as it is
        # then (the match before's analysis and scans running or not), not all at the start
        # while the workers were idle.
        position = adjudication.position_of(Match.objects.get(pk=match_id))
        engine_pid = engine().pid
        assert engine_pid is not None
        engine_cpu, started = scheduled(engine_pid)[0], time.perf_counter()
        engine().evaluate(position.gnubg_id, EvalSettings(plies=2))
        baseline.append(time.perf_counter() - started)
        baseline_cpu.append(scheduled(engine_pid)[0] - engine_cpu)
        # The grace is set to end a moment ahead, and the clock starts when it ends: the
        # bench's own write of it is not the platform's time.
        # The processes are read before the grace is written: reading them takes time (tens
        # of milliseconds at load 15), which must not make the sweep start late.
        before = path.reading(pids)
        ends = timezone.now() + GRACE_SET_AHEAD
        Match.objects.filter(pk=match_id).update(grace_ends_1=ends, deadline=ends)
        before[OWN_BACKEND] = scheduled(own_backend)  # that write is the bench's, not the sweep's
        time.sleep(max(0.0, ends.timestamp() - time.time()))
        sweep_began = scheduled(os.getpid())
        # The sweep at the grace's end (beat's, a moment later, would find it the same way):
        # it suspends the match and queues its adjudication.
        sweep_deadlines(passes=1)
        swept = scheduled(os.getpid())
        waited = time.monotonic()
        finished = [match_id, MatchStatus.FINISHED.value]
        while not watcher.execute(settled, finished, prepare=True).fetchone():
            if time.monotonic() - waited > SETTLED_WITHIN:
                print(f"match {match_id} was not settled within {SETTLED_WITHIN:.0f} s")
                return 1
            time.sleep(0.002)
        timings.append(time.time() - ends.timestamp())  # seen committed, within 2 ms or so
        after = path.reading(pids)
        for part in PathProcesses.PARTS:
            parts[part].append((after[part][0] - before[part][0], after[part][1] - before[part][1]))
        # this process's own part: the sweep only, not the watching that followed it
        parts["the sweep (this process)"][-1] = (
            swept[0] - sweep_began[0],
            swept[1] - sweep_began[1],
        )
        busy_after.append(analysis_worker_idle(broker))
        in_worker.append(engine_seconds(workers[1]) - evaluated_before)
        suspended = Action.objects.get(match_id=match_id, kind=ActionKind.SUSPEND).created_at
        sweeps.append((suspended - ends).total_seconds())
    broker.close()
    watcher.close()
    connection.close()
    engine().close()
    for worker in workers:  # before their database goes (main's finally)
        stop_as_compose_does(shape, worker)

    def ms(values: list[float], q: float) -> float:
        return 1000 * sorted(values)[min(len(values) - 1, int(q * len(values)))]

    print(f"matches adjudicated:                 {count}")
    for label, values in (
        ("bare 2-ply evaluation (baseline)", baseline),
        ("grace end -> settlement committed", timings),
        ("  of which grace end -> suspended", sweeps),
        ("  and suspended -> settled", [t - s for t, s in zip(timings, sweeps, strict=True)]),
        ("analysis worker busy after the commit", busy_after),
        ("the engine's call in the worker", in_worker),
        (
            "  the rest: queue, reads, settlement",
            [t - s - e for t, s, e in zip(timings, sweeps, in_worker, strict=True)],
        ),
    ):
        print(f"{label:38} median {ms(values, 0.5):7.1f} ms   p95 {ms(values, 0.95):7.1f} ms")
    print("\ngrace end -> settlement seen, by process (median a match):  CPU   waiting for a core")
    print(f"{'  engine, the baseline (this process)':38} {ms(baseline_cpu, 0.5):7.1f} ms")
    for part in PathProcesses.PARTS:
        cpu = [r for r, _ in parts[part]]
        waits = [w for _, w in parts[part]]
        print(f"  {part:36} {ms(cpu, 0.5):7.1f} ms   {ms(waits, 0.5):7.1f} ms")
    everything = [sum(parts[p][i][0] for p in PathProcesses.PARTS) for i in range(count)]
    print(f"  {'all of them':36} {ms(everything, 0.5):7.1f} ms")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    ratio = statistics.median(timings) / statistics.median(baseline)
    print(f"ratio (median): {ratio:.2f}x the bare evaluation")
    trouble = shape.check_logs()
    if trouble:
        print(f"\n{len(trouble)} lines of trouble in the processes' logs ({shape.logs}):")
        print("\n".join(trouble[:20]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 20))
