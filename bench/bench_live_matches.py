"""Benchmark: an evening of live matches on the shipped shape, ramped until it no longer holds.

The processes are production's, started as docker-compose.yml starts them
(``bench/shape.py``: ``scripts/serve`` with ``deploy/crawford.env``): the web service's
uvicorn workers, each with Django's psycopg pool, a Celery worker on the default queue and
beat. They run on a PostgreSQL cluster and a Redis of the bench's own (made in a temporary
folder, on free ports, Redis with compose's append-only file), so the CPU each part spends
is read from its own process tree in /proc, and nothing else on the machine is counted.

Everything a real evening opens: ``--matches`` matches (unrated, no stake, no clock), both
players' board sockets, each player's ``/ws/me/`` (told the board's page is open, as the
page does), and ``--spectators`` logged-in watchers on the boards (``bench/live_load.py``).
Actions are offered at a rate (Poisson arrivals) in steps of ``--step-seconds``, the rate
multiplied by ``--factor`` each step, until a step does not hold: p99 to the opponent or to
a spectator 100 ms or more, or anything lost or refused. The highest rate held is printed as
a ratio to pgbench's 1-row ``UPDATE`` tps on the same PostgreSQL in the same run, and the
CPU an action all-in (web + PostgreSQL + Redis, and nginx and PgBouncer where they run) at
that step as a ratio to the PostgreSQL CPU of a pgbench transaction, with the database
transactions (statements too with ``--count-statements``: pg_stat_statements) and Redis
commands an action costs.

``--through-proxy`` runs the scale profile besides: two web services behind nginx
(``deploy/nginx``), the two players of each match on different services, first with each
process's pool straight to PostgreSQL, then through PgBouncer in transaction mode
(``deploy/pgbouncer.env``; Debian's PgBouncer 1.18 keeps no prepared statements, so the
processes run with ``DB_PREPARED_STATEMENTS=false`` there, as production must with it).

The run fails (exit status 1) on an error frame, a frame lost or late, a socket that did
not open or was closed by the server, or a traceback or ERROR line in any process's log; a
ramp whose first step does not hold is a figure (printed with the costs at that step), not
a failure.

Run: ``.venv/bin/python bench/bench_live_matches.py`` (50 matches) or
``.venv/bin/python bench/bench_live_matches.py --matches 1000 --spectators 500 --rate 100``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from live_load import (  # noqa: E402
    ACTION_TIMEOUT,
    LiveMatch,
    Load,
    MeSocket,
    Seat,
    Stats,
    drain,
    drive,
    open_board,
    open_me,
    start_relay,
    until_quiet,
    watch_board,
)
from shape import SERVE, Process, Shape, descendants  # noqa: E402

from tests.private_services import PrivatePostgres, PrivateRedis  # noqa: E402

HOST = "127.0.0.1"
MATCH_LENGTH = 25  # long enough that no match ends within a run
PASSWORD = "bench-password"
CONNECT_CONCURRENCY = 20
P99_GOAL = 0.100  # seconds
TICKS = os.sysconf("SC_CLK_TCK")
METRICS_TOKEN = "crawford-bench-metrics"
SHOW_UP_IN_BENCH = timedelta(hours=2)
PROFILING = ROOT / "bench" / "profiling"


# ---------------------------------------------------------------- set-up


@dataclass
class Person:
    username: str
    cookie: str


def create_people(prefix: str, count: int) -> list[Person]:
    """People with a logged-in session each, as a browser holds after logging in."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.db import transaction

    from accounts.services import user_create

    store = import_module(settings.SESSION_ENGINE).SessionStore
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    people = []
    for first in range(0, count, 100):
        with transaction.atomic():  # a commit a hundred people, not one each
            for number in range(first, min(first + 100, count)):
                user = user_create(username=f"{prefix}{number}", password=PASSWORD)
                session = store()
                session[SESSION_KEY] = str(user.pk)
                session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
                session[HASH_SESSION_KEY] = user.get_session_auth_hash()
                session.create()
                cookie = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
                people.append(Person(user.username, cookie))
    return people


def create_matches(players: list[Person], *, round_number: int) -> list[int]:
    """One playing match per pair of players, with dice fixed per match so runs repeat."""
    from django.utils import timezone

    from accounts.models import User
    from matches import creation
    from matches.models import ClockKind, ClockSettings, Match

    users = {user.username: user for user in User.objects.filter(username__startswith="bench")}
    no_clock = ClockSettings(kind=ClockKind.NONE)
    ids = []
    for number in range(len(players) // 2):
        challenger = users[players[2 * number].username]
        opponent = users[players[2 * number + 1].username]
        match = creation.match_challenge(
            challenger=challenger,
            opponent=opponent,
            length=MATCH_LENGTH,
            rated=False,
            clock_settings=no_clock,
        )
        seed = hashlib.sha256(f"bench:{round_number}:{number}".encode()).hexdigest()
        Match.objects.filter(pk=match.pk).update(dice_seed=seed)
        creation.match_accept(match_id=match.pk, user=opponent)
        ids.append(match.pk)
    # Opening a thousand matches' sockets here takes longer than the show-up time
    # (``matches.lifecycle.SHOW_UP``) people have to come and move, which the beat enforces.
    Match.objects.filter(pk__in=ids).update(show_up_by=timezone.now() + SHOW_UP_IN_BENCH)
    return ids


# ---------------------------------------------------------------- CPU and counters


def cpu_seconds(pids: list[int]) -> float:
    """User and system time of ``pids`` and of their children that have exited (a closed
    connection's PostgreSQL backend is counted in the postmaster's)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15])
    return total / TICKS


def machine_busy() -> tuple[float, float]:
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


def postmaster(postgres: PrivatePostgres) -> int:
    return int((postgres.data / "postmaster.pid").read_text().split()[0])


@dataclass
class Parts:
    """The process trees whose CPU is counted, by part."""

    postgres: PrivatePostgres
    redis: PrivateRedis
    shape: Shape

    def trees(self) -> dict[str, list[int]]:
        pg = postmaster(self.postgres)
        assert self.redis.process is not None
        trees: dict[str, list[int]] = {
            "web": [],
            "postgres": [pg, *descendants(pg)],
            "redis": [self.redis.process.pid],
            "proxy": [],
            "pgbouncer": [],
            "workers": [],
        }
        for process in self.shape.processes:
            kind = process.name.split("-")[0]
            kind = {"worker": "workers", "beat": "workers"}.get(kind, kind)
            trees.setdefault(kind, []).extend(process.tree())
        return trees

    def sample(self) -> dict[str, float]:
        sample = {name: cpu_seconds(pids) for name, pids in self.trees().items()}
        own = os.times()
        sample["client"] = own.user + own.system
        sample["machine"], sample["machine_total"] = machine_busy()
        return sample


def counters(database_url: str, redis_url: str, *, statements: bool) -> dict[str, float]:
    """Transactions (and statements) on the bench database, and commands Redis ran."""
    import psycopg
    import redis

    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database"
            " WHERE datname = current_database()"
        ).fetchone()
        found = {"transactions": float(row[0]) if row else 0.0}
        if statements:
            calls = conn.execute(
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements"
                " WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())"
            ).fetchone()
            found["statements"] = float(calls[0]) if calls else 0.0
    info = redis.Redis.from_url(redis_url).info("stats")
    found["redis"] = float(info["total_commands_processed"])
    return found


def statements_reset(database_url: str) -> None:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_statements_reset()")


def top_statements(database_url: str, count: int = 12) -> list[tuple[int, str]]:
    """The statements run most often since the last reset, with their calls."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        return [
            (int(calls), query)
            for calls, query in conn.execute(
                "SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 160)"
                " FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database"
                " WHERE datname = current_database()) ORDER BY calls DESC LIMIT %s",
                [count],
            )
        ]


# ---------------------------------------------------------------- baseline


@dataclass
class Baseline:
    tps: float
    pg_cpu_ms: float  # PostgreSQL's CPU a transaction
    client_cpu_ms: float  # pgbench's own


def pgbench(database_url: str, postgres: PrivatePostgres, seconds: int) -> Baseline:
    """pgbench with a single-row ``UPDATE`` script, 2 clients, on the bench's PostgreSQL;
    the CPU PostgreSQL and pgbench spent a transaction."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_rows")
        conn.execute("CREATE TABLE bench_rows (id int PRIMARY KEY, n int NOT NULL)")
        conn.execute("INSERT INTO bench_rows SELECT g, 0 FROM generate_series(1, 1000) g")
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as script:
        script.write("\\set id random(1, 1000)\nUPDATE bench_rows SET n = n + 1 WHERE id = :id;\n")
        script.flush()
        command = ["pgbench", "-n", "-h", HOST, "-p", str(postgres.port), "-U", "postgres"]
        command += ["-c", "2", "-j", "2", "-T", str(seconds), "-f", script.name]
        database = database_url.rsplit("/", 1)[1]
        pg = postmaster(postgres)
        before = cpu_seconds([pg, *descendants(pg)])
        with tempfile.TemporaryFile() as output:
            process = subprocess.Popen([*command, database], stdout=output, stderr=output)
            _, status, usage = os.wait4(process.pid, 0)
            process.returncode = os.waitstatus_to_exitcode(status)
            after = cpu_seconds([pg, *descendants(pg)])
            output.seek(0)
            printed = output.read().decode()
    if process.returncode != 0:
        raise SystemExit(f"pgbench failed:\n{printed}")
    tps = re.search(r"tps = ([\d.]+)", printed)
    done = re.search(r"number of transactions actually processed: (\d+)", printed)
    if tps is None or done is None:
        raise SystemExit(f"pgbench printed no tps:\n{printed}")
    transactions = int(done.group(1))
    return Baseline(
        tps=float(tps.group(1)),
        pg_cpu_ms=1000 * (after - before) / transactions,
        client_cpu_ms=1000 * (usage.ru_utime + usage.ru_stime) / transactions,
    )


# ---------------------------------------------------------------- one configuration


@dataclass
class Step:
    rate: float
    seconds: float
    stats: Stats
    cpu: dict[str, float]
    elapsed: float
    counts: dict[str, float]
    statements: list[tuple[int, str]] = field(default_factory=list)

    @property
    def done(self) -> int:
        return len(self.stats.latencies) - self.stats.unseen

    def p99(self) -> float:
        return percentile(self.stats.latencies, 0.99)

    def watched_p99(self) -> float:
        return percentile(self.stats.watched, 0.99) if self.stats.watched else 0.0

    def lost(self) -> int:
        return self.stats.errors + self.stats.late + self.stats.unseen

    def held(self) -> bool:
        return (
            self.done > 0
            and self.p99() < P99_GOAL
            and self.watched_p99() < P99_GOAL
            and self.lost() == 0
            and self.stats.busy <= 0.01 * max(self.stats.sent, 1)
        )

    def all_in_ms(self) -> float:
        """CPU of the site's processes (web, PostgreSQL, Redis, and nginx and PgBouncer
        where they run) per action the opponent saw."""
        spent = sum(self.cpu[part] for part in ("web", "postgres", "redis", "proxy", "pgbouncer"))
        return 1000 * spent / max(self.done, 1)

    def per_action(self, part: str) -> float:
        return self.counts.get(part, 0.0) / max(self.done, 1)

    def beyond_idle_ms(self, idle: dict[str, float], part: str | None = None) -> float:
        """CPU an action beyond what the parts spend with every socket open and nobody
        acting (``idle``: CPU seconds a second), of one part or all-in."""
        parts = [part] if part else ["web", "postgres", "redis", "proxy", "pgbouncer"]
        spent = sum(self.cpu[name] - idle.get(name, 0.0) * self.elapsed for name in parts)
        return 1000 * spent / max(self.done, 1)


@dataclass
class Configuration:
    name: str
    proxy: bool
    pgbouncer: bool
    steps: list[Step] = field(default_factory=list)
    sockets: dict[str, tuple[int, int]] = field(default_factory=dict)  # kind: (open, wanted)
    placement: str = ""
    connect_seconds: float = 0.0
    notices: int = 0
    idle: dict[str, float] = field(default_factory=dict)  # CPU seconds a second, nobody acting

    def best(self) -> Step | None:
        held = [step for step in self.steps if step.held()]
        return max(held, key=lambda step: step.rate) if held else None


@dataclass
class World:
    postgres: PrivatePostgres
    redis: PrivateRedis
    database_url: str
    players: list[Person]
    spectators: list[Person]
    args: argparse.Namespace


def run_configuration(world: World, configuration: Configuration, round_number: int) -> None:
    import redis

    redis.Redis.from_url(world.redis.url()).flushdb()
    match_ids = create_matches(world.players, round_number=round_number)
    shape = Shape(
        database_url=world.database_url,
        redis_url=world.redis.url(),
        overrides={"CRAWFORD_METRICS_TOKEN": METRICS_TOKEN},
    )
    env: dict[str, str] = {}
    web_env: dict[str, str] = {}
    if world.args.profile:
        path = os.pathsep.join(filter(None, [str(PROFILING), os.environ.get("PYTHONPATH")]))
        web_env = {"PYTHONPATH": path, "CRAWFORD_PROFILE_DIR": world.args.profile}
    try:
        if configuration.pgbouncer:
            env = {
                "DATABASE_URL": shape.pgbouncer(prepared_statements=False),
                "DB_PREPARED_STATEMENTS": "false",
            }
        webs = [shape.web("web-a", **env, **web_env)]
        if configuration.proxy:
            webs.append(shape.web("web-b", **env, **web_env))
        shape.worker("default", **env)
        shape.beat(**env)
        port = shape.proxy(*webs).port if configuration.proxy else webs[0].port
        assert port is not None
        parts = Parts(world.postgres, world.redis, shape)
        asyncio.run(evening(world, configuration, match_ids, port, webs, parts))
    finally:
        shape.stop_all()
        trouble = shape.check_logs()
        if trouble:
            configuration.placement += f"; {len(trouble)} log lines of trouble in {shape.logs}"
            print(f"{configuration.name}: trouble in the logs ({shape.logs}):", file=sys.stderr)
            for line in trouble[:20]:
                print(f"  {line}", file=sys.stderr)
            world.args.trouble += len(trouble)


@dataclass
class Sockets:
    """Every socket of the evening: the boards' (players'), spectators' and ``/ws/me/``."""

    load: Load
    seats: list[Seat]
    watchers: list[Seat]
    mes: list[MeSocket]

    @classmethod
    def for_matches(cls, world: World, match_ids: list[int], port: int) -> Sockets:
        matches = [LiveMatch(match_id) for match_id in match_ids]
        for number, live in enumerate(matches):
            for player in world.players[2 * number : 2 * number + 2]:
                live.seats.append(Seat(live, player.username, player.cookie, port))
        for number, watcher in enumerate(world.spectators):
            live = matches[number % len(matches)]
            live.spectators.append(
                Seat(live, watcher.username, watcher.cookie, port, spectator=True)
            )
        mes = [
            MeSocket(player.username, player.cookie, port, matches[number // 2].id)
            for number, player in enumerate(world.players)
        ]
        return cls(
            load=Load(matches),
            seats=[seat for live in matches for seat in live.seats],
            watchers=[seat for live in matches for seat in live.spectators],
            mes=mes,
        )

    async def connect(self, *, one_at_a_time: bool) -> dict[str, tuple[int, int]]:
        """Open every socket; how many of each kind opened, of how many."""
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def gated(opening: Any) -> bool:
            async with gate:
                return bool(await opening)

        async def board(seat: Seat) -> bool:
            return await open_board(seat) and await watch_board(seat, self.load)

        if one_at_a_time:
            # Seat 0 then seat 1 of each match, one after the other: nginx sends each new
            # connection to the next service in turn, so a match's players sit on
            # different services.
            for seat in self.seats:
                if await open_board(seat):
                    # Read at once: a socket left unread misses the server's pings and
                    # is closed before the others are open.
                    start_relay(seat, self.load)
            boards = await asyncio.gather(
                *(gated(watch_board(seat, self.load)) for seat in self.seats)
            )
        else:
            boards = await asyncio.gather(*(gated(board(seat)) for seat in self.seats))
        watched = await asyncio.gather(*(gated(board(seat)) for seat in self.watchers))
        answered = await asyncio.gather(*(gated(open_me(me)) for me in self.mes))
        await until_quiet(self.load, quiet=2.0, limit=120)
        return {
            "board": (sum(boards), len(self.seats)),
            "spectator": (sum(watched), len(self.watchers)),
            "me": (sum(answered), len(self.mes)),
        }

    def closed_by_server(self) -> dict[str, int]:
        """Sockets the server closed, by kind and close code."""
        closed: Counter[str] = Counter()
        kinds = [("board", self.seats), ("spectator", self.watchers), ("me", self.mes)]
        for kind, sockets in kinds:
            for each in sockets:
                if not each.open:
                    code = each.socket.close_code if each.socket is not None else None
                    closed[f"{kind} {code}"] += 1
        return dict(closed)

    def me_frames(self) -> int:
        return sum(me.frames for me in self.mes)

    async def close(self) -> None:
        every: list[Seat | MeSocket] = [*self.seats, *self.watchers, *self.mes]
        for each in every:
            if each.socket is not None:
                each.socket.close()
        await asyncio.wait([each.reader for each in every if each.reader], timeout=10)


async def evening(
    world: World,
    configuration: Configuration,
    match_ids: list[int],
    port: int,
    webs: list[Process],
    parts: Parts,
) -> None:
    args = world.args
    rng = random.Random(7)
    sockets = Sockets.for_matches(world, match_ids, port)
    began = time.perf_counter()
    configuration.sockets = await sockets.connect(one_at_a_time=configuration.proxy)
    configuration.connect_seconds = time.perf_counter() - began
    if configuration.proxy:
        configuration.placement = "match sockets on web-a / web-b: " + " / ".join(
            str(open_match_sockets(web)) for web in webs
        )
    notices_before = sockets.me_frames()
    if args.idle_seconds > 0:
        before = parts.sample()
        await asyncio.sleep(args.idle_seconds)
        after = parts.sample()
        configuration.idle = {
            name: (after[name] - before[name]) / args.idle_seconds for name in before
        }
    if args.warmup > 0:
        await drive(sockets.load, rate=args.rate, seconds=args.warmup, rng=rng)
        await drain(sockets.load)
    rate = args.rate
    while rate <= args.max_rate:
        step = await measured_step(world, sockets.load, parts, rate=rate, rng=rng)
        configuration.steps.append(step)
        print(f"  {configuration.name}: {step_line(step)}", flush=True)
        if not step.held():
            break
        rate = round(rate * args.factor)
    configuration.notices = sockets.me_frames() - notices_before
    lost_sockets = sockets.closed_by_server()
    if lost_sockets:
        codes = ", ".join(f"{kind}: {count}" for kind, count in sorted(lost_sockets.items()))
        configuration.placement += f"; sockets closed by the server (kind code: n): {codes}"
        args.trouble += sum(lost_sockets.values())
    await sockets.close()
    await asyncio.to_thread(wait_for_disconnects, world.database_url)


def wait_for_disconnects(database_url: str, *, seconds: float = 180) -> None:
    """Until the server has closed every board's connection row: its disconnect work done,
    the web service stops with nothing left to cancel."""
    import psycopg

    deadline = time.monotonic() + seconds
    with psycopg.connect(database_url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT count(*) FROM matches_matchconnection").fetchone()
            if row is None or row[0] == 0:
                return
            time.sleep(0.5)


async def measured_step(
    world: World, load: Load, parts: Parts, *, rate: float, rng: random.Random
) -> Step:
    """Actions offered at ``rate`` for a step, drained, with the CPU and counters spent."""
    args = world.args
    load.stats = Stats()
    if args.count_statements:
        statements_reset(world.database_url)
    before_counts = counters(
        world.database_url, world.redis.url(), statements=args.count_statements
    )
    before = parts.sample()
    start = time.perf_counter()
    load.recording = True
    await drive(load, rate=rate, seconds=args.step_seconds, rng=rng)
    load.recording = False
    await drain(load)
    after = parts.sample()
    elapsed = time.perf_counter() - start
    await asyncio.sleep(1.0)  # the backends' statistics reach the shared counters
    after_counts = counters(world.database_url, world.redis.url(), statements=args.count_statements)
    step = Step(
        rate=rate,
        seconds=args.step_seconds,
        stats=load.stats,
        cpu={name: after[name] - before[name] for name in before},
        elapsed=elapsed,
        counts={name: after_counts[name] - before_counts[name] for name in before_counts},
    )
    if args.count_statements:
        step.statements = top_statements(world.database_url)
    return step


def open_match_sockets(web: Process) -> int:
    """The match sockets a web service says it holds (its /metrics)."""
    import urllib.request

    request = urllib.request.Request(
        f"http://{HOST}:{web.port}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read().decode()
    found = re.search(r'^crawford_open_sockets\{kind="match"[^}]*\} ([\d.e+]+)$', text, re.M)
    return int(float(found.group(1))) if found else -1


# ---------------------------------------------------------------- report


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def step_line(step: Step) -> str:
    ms = [1000 * value for value in step.stats.latencies]
    return (
        f"offered {step.rate:6.0f}/s  done {step.done / step.seconds:6.1f}/s  "
        f"p50 {percentile(ms, 0.5):6.1f}  p99 {percentile(ms, 0.99):7.1f}  "
        f"spectators p99 {1000 * step.watched_p99():7.1f} ms  err {step.stats.errors} "
        f"late {step.stats.late} unseen {step.stats.unseen} busy {step.stats.busy}  "
        f"{step.all_in_ms():5.2f} ms CPU/action  {'held' if step.held() else 'NOT HELD'}"
    )


def report(configurations: list[Configuration], baseline: Baseline, args: Any) -> None:
    cores = os.cpu_count() or 1
    print()
    print(
        f"{args.matches} matches, {args.spectators} spectators, a /ws/me/ per player; "
        f"steps of {args.step_seconds:g} s from {args.rate:g}/s, x{args.factor:g} "
        f"(Poisson arrivals); held: p99 < {1000 * P99_GOAL:.0f} ms to the opponent and to "
        f"spectators, nothing lost. The machine ({cores} cores) was shared with other work."
    )
    print(
        f"baseline pgbench, 1-row UPDATE, 2 clients: {baseline.tps:.0f} tps; "
        f"PostgreSQL {baseline.pg_cpu_ms:.3f} ms CPU a transaction "
        f"(pgbench itself {baseline.client_cpu_ms:.3f} ms)"
    )
    for configuration in configurations:
        print()
        sockets = ", ".join(f"{kind} {n}/{m}" for kind, (n, m) in configuration.sockets.items())
        took = configuration.connect_seconds
        print(f"{configuration.name}: sockets {sockets}, opened in {took:.0f} s")
        if configuration.placement:
            print(f"  {configuration.placement.lstrip('; ')}")
        for step in configuration.steps:
            print(f"  {step_line(step)}")
        best = configuration.best()
        if best is None:
            print(f"  {configuration.name}: no step held; the costs at its first step:")
            best = configuration.steps[0]
        else:
            print(
                f"  highest rate held: {best.rate:.0f} actions/s = "
                f"{best.rate / baseline.tps:.4f}x pgbench tps (goal >= 0.07x); "
                f"done {best.done / best.seconds:.1f}/s, p99 {1000 * best.p99():.1f} ms"
            )
        share = {name: 100 * value / best.elapsed for name, value in best.cpu.items()}
        machine = 100 * cores * best.cpu["machine"] / best.cpu["machine_total"]
        print(
            "  CPU at that step, % of one core: "
            + "  ".join(
                f"{name} {share[name]:.0f}%"
                for name in ("web", "postgres", "redis", "proxy", "pgbouncer", "workers", "client")
                if name in share and (best.cpu[name] > 0 or name in ("web", "postgres", "redis"))
            )
            + f"  machine {machine:.0f}% of {100 * cores}%"
        )
        parts = "  ".join(
            f"{name} {1000 * best.cpu[name] / max(best.done, 1):.2f}"
            for name in ("web", "postgres", "redis", "proxy", "pgbouncer")
            if best.cpu.get(name, 0) > 0 or name in ("web", "postgres", "redis")
        )
        print(
            f"  CPU an action all-in: {best.all_in_ms():.2f} ms = "
            f"{best.all_in_ms() / baseline.pg_cpu_ms:.1f}x a pgbench transaction's "
            f"(goal <= 5x); ms by part: {parts}"
        )
        if configuration.idle:
            idle = configuration.idle
            beyond = "  ".join(
                f"{name} {best.beyond_idle_ms(idle, name):.2f}"
                for name in ("web", "postgres", "redis", "proxy", "pgbouncer")
                if best.cpu.get(name, 0) > 0 or name in ("web", "postgres", "redis")
            )
            print(
                "  with every socket open and nobody acting, % of one core: "
                + "  ".join(
                    f"{name} {100 * idle[name]:.0f}%"
                    for name in ("web", "postgres", "redis", "proxy", "pgbouncer", "workers")
                    if idle.get(name, 0) > 0 or name in ("web", "postgres", "redis")
                )
            )
            print(
                f"  CPU an action beyond that: {best.beyond_idle_ms(idle):.2f} ms = "
                f"{best.beyond_idle_ms(idle) / baseline.pg_cpu_ms:.1f}x a pgbench "
                f"transaction's; ms by part: {beyond}"
            )
        counted = f"{best.per_action('transactions'):.2f} database transactions"
        if "statements" in best.counts:
            counted += f", {best.per_action('statements'):.2f} statements"
        print(
            f"  an action costs {counted}, {best.per_action('redis'):.1f} Redis commands; "
            f"{configuration.notices} frames on /ws/me/ while playing"
        )
        for calls, query in best.statements:
            print(f"    {calls / max(best.done, 1):6.2f} an action: {query}")
    print()
    print(
        "done: actions the opponent saw a second; latency: action sent to the opponent's "
        f"(or a spectator's) state frame; late: not seen within {ACTION_TIMEOUT:g} s; "
        "unseen: never seen; busy: arrivals that found every match waiting on its last "
        "action; CPU from /proc of each part's process tree, PostgreSQL's and Redis's the "
        "bench's own instances"
    )


def failed(configurations: list[Configuration], args: Any) -> list[str]:
    reasons = []
    for configuration in configurations:
        for kind, (opened, wanted) in configuration.sockets.items():
            if opened < wanted:
                reasons.append(
                    f"{configuration.name}: {wanted - opened} {kind} sockets did not open"
                )
        for step in configuration.steps:
            if step.stats.errors:
                reasons.append(
                    f"{configuration.name} at {step.rate:.0f}/s: {step.stats.errors} errors, "
                    f"first: {step.stats.first_error}"
                )
            if step.stats.late or step.stats.unseen:
                reasons.append(
                    f"{configuration.name} at {step.rate:.0f}/s: {step.stats.late} frames late, "
                    f"{step.stats.unseen} never seen"
                )
    if args.trouble:
        reasons.append(f"{args.trouble} lines of trouble in the processes' logs or sockets lost")
    return reasons


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--spectators", type=int, default=25)
    parser.add_argument("--rate", type=float, default=20.0, help="the first step's offered rate")
    parser.add_argument(
        "--factor", type=float, default=1.25, help="each step's rate over the last's"
    )
    parser.add_argument("--max-rate", type=float, default=5000.0, help="the ramp stops there")
    parser.add_argument("--step-seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    parser.add_argument(
        "--idle-seconds",
        type=float,
        default=10.0,
        help="the CPU of every socket open and nobody acting, measured this long",
    )
    parser.add_argument(
        "--through-proxy",
        action="store_true",
        help="also two web services behind nginx, with the pool and then with PgBouncer",
    )
    parser.add_argument(
        "--count-statements",
        action="store_true",
        help="load pg_stat_statements in the bench's PostgreSQL and count statements an action",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="profile the web processes with yappi (on PYTHONPATH) into DIR: not a figure",
    )
    args = parser.parse_args()
    args.trouble = 0

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * (3 * args.matches + args.spectators) + 1024
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))

    began = time.perf_counter()
    postgres = PrivatePostgres()
    if args.count_statements:
        with (postgres.data / "postgresql.auto.conf").open("a") as conf:
            conf.write("shared_preload_libraries = 'pg_stat_statements'\n")
    postgres.start()
    redis_server = PrivateRedis(appendfsync="everysec").start()
    try:
        database_url = postgres.create_database("crawford_bench")
        if args.count_statements:
            import psycopg

            with psycopg.connect(database_url, autocommit=True) as conn:
                conn.execute("CREATE EXTENSION pg_stat_statements")
        shape = Shape(database_url=database_url, redis_url=redis_server.url())
        subprocess.run(
            [str(SERVE), "migrate"], cwd=ROOT, env=shape.env(), check=True, capture_output=True
        )
        # This process makes the players and matches through Django, on the same database.
        for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"):
            os.environ[name] = shape.env()[name]
        os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
        import django

        django.setup()
        world = World(
            postgres=postgres,
            redis=redis_server,
            database_url=database_url,
            players=create_people("bench", 2 * args.matches),
            spectators=create_people("watcher", args.spectators),
            args=args,
        )
        print(
            f"set-up: {2 * args.matches} players, {args.spectators} spectators in "
            f"{time.perf_counter() - began:.0f} s",
            flush=True,
        )
        from django.db import connection

        connection.close()
        baseline = pgbench(database_url, postgres, args.pgbench_seconds)
        configurations = [Configuration("one web service, the pool", proxy=False, pgbouncer=False)]
        if args.through_proxy:
            configurations += [
                Configuration(
                    "two web services behind nginx, the pool", proxy=True, pgbouncer=False
                ),
                Configuration(
                    "two web services behind nginx, PgBouncer", proxy=True, pgbouncer=True
                ),
            ]
        for round_number, configuration in enumerate(configurations):
            run_configuration(world, configuration, round_number)
            connection.close()
        report(configurations, baseline, args)
        reasons = failed(configurations, args)
        for reason in reasons:
            print(f"FAILED: {reason}")
        return 1 if reasons else 0
    finally:
        redis_server.close()
        postgres.close()


if __name__ == "__main__":
    sys.exit(main())
