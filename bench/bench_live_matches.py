"""Benchmark: live matches played over WebSocket against the ASGI server (uvicorn, as in
production, or daphne with ``--server daphne``) on PostgreSQL and Redis.

Sets up its own database (``crawford_bench``, dropped at the end) and Redis db 3, creates
2N players and N playing matches through ``matches.creation`` (unrated, no stake, no
clock), logs every player in with a session cookie and starts the server. One asyncio client
then opens both players' sockets for every match and, at an aggregate *offered rate*
(Poisson arrivals), picks the next match in turn whose previous action has settled and
has the player to act send it: a roll, or the play ``quick_play`` prefers (no hits, back
checkers first) among the legal plays of the latest state that player received.

*Latency* is the time from sending an action to the opponent's socket receiving the
state frame whose ``last_seq`` shows it. Each configuration (one server process, two
processes on two ports with every socket placed on one of them at random) gets fresh
matches and prints actions per second, p50/p95/p99/max latency, errors, the sockets live
at the end and where the CPU went (server, PostgreSQL, Redis, this client), and the CPU of
all but the client per action.

Baseline, measured in the same run against the same PostgreSQL server: pgbench with a
single-row ``UPDATE`` script, 2 clients, persistent connections and again with a new
connection per transaction (``-C``); our actions per second are printed as a ratio of
the first.

Run: ``.venv/bin/python bench/bench_live_matches.py`` (50 matches, 20 actions/s, 20 s) or
``.venv/bin/python bench/bench_live_matches.py --matches 1000 --rate 200 --seconds 60``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import hashlib
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchdb import drop_database, fresh_database

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
POSTGRES = "postgres://postgres@127.0.0.1:5432"
BENCH_DB = "crawford_bench"
REDIS_URL = "redis://127.0.0.1:6379/3"
MATCH_LENGTH = 25  # long enough that no match ends within a run, short matches would
PASSWORD = "bench-password"
CONNECT_CONCURRENCY = 20
ACTION_TIMEOUT = 10.0  # seconds before an action whose update never came is given up
TICKS = os.sysconf("SC_CLK_TCK")

BENCH_ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": f"{POSTGRES}/{BENCH_DB}",
    "REDIS_URL": REDIS_URL,
    "SECRET_KEY": "crawford-bench-only",
    "DEBUG": "false",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
}

sys.path.insert(0, str(ROOT))
os.environ.update(BENCH_ENV)


# ---------------------------------------------------------------- set-up


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


@dataclass
class Player:
    username: str
    cookie: str


def create_players(count: int) -> list[Player]:
    """Players with a logged-in session each, as a browser would hold after logging in."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.services import user_create

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    players = []
    for number in range(count):
        user = user_create(username=f"bench{number}", password=PASSWORD)
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        players.append(
            Player(user.username, f"{settings.SESSION_COOKIE_NAME}={session.session_key}")
        )
    return players


def create_matches(players: list[Player], *, round_number: int) -> list[int]:
    """One playing match per pair of players, with dice fixed per match so runs repeat."""
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
    return ids


# ---------------------------------------------------------------- baseline


def pgbench_rate(seconds: int, *, reconnect: bool) -> float:
    """Single-row updates per second from pgbench with 2 clients on the bench database."""
    import psycopg

    with psycopg.connect(f"{POSTGRES}/{BENCH_DB}", autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_rows")
        conn.execute("CREATE TABLE bench_rows (id int PRIMARY KEY, n int NOT NULL)")
        conn.execute("INSERT INTO bench_rows SELECT g, 0 FROM generate_series(1, 1000) g")
    with tempfile.NamedTemporaryFile("w", suffix=".sql") as script:
        script.write("\\set id random(1, 1000)\nUPDATE bench_rows SET n = n + 1 WHERE id = :id;\n")
        script.flush()
        command = ["pgbench", "-n", "-h", HOST, "-U", "postgres", "-c", "2", "-j", "2"]
        command += ["-T", str(seconds), "-f", script.name, *(["-C"] if reconnect else [])]
        output = subprocess.run(
            [*command, BENCH_DB], capture_output=True, text=True, check=True
        ).stdout
    found = re.search(r"tps = ([\d.]+)", output)
    if found is None:
        raise SystemExit(f"pgbench printed no tps:\n{output}")
    return float(found.group(1))


# ---------------------------------------------------------------- servers and CPU


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


SERVER_COMMANDS = {
    "uvicorn": ["uvicorn", "--host", HOST, "--log-level", "warning", "--port"],
    "daphne": ["daphne", "-b", HOST, "-p"],
}


def start_server(
    kind: str, port: int, log: Path, extra_env: dict[str, str]
) -> subprocess.Popen[bytes]:
    program, *options = SERVER_COMMANDS[kind]
    server = subprocess.Popen(
        [str(VENV_BIN / program), *options, str(port), "config.asgi:application"],
        cwd=ROOT,
        env={**os.environ, **BENCH_ENV, **extra_env},
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"{kind} stopped at start:\n{log.read_text()[-2000:]}")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit(f"{kind} did not listen within 30 s")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=10)


def _pids_named(names: set[str]) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


def _cpu_seconds(pid: int) -> float:
    """User and system time of ``pid`` and of its children that have exited (the
    PostgreSQL backends of closed connections are counted in the postmaster's)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / TICKS


def _machine_busy_seconds() -> tuple[float, float]:
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


def cpu_sample(server_pids: list[int]) -> dict[str, float]:
    own = os.times()
    busy, total = _machine_busy_seconds()
    return {
        "server": sum(_cpu_seconds(pid) for pid in server_pids),
        "postgres": sum(_cpu_seconds(pid) for pid in _pids_named({"postgres", "postmaster"})),
        "redis": sum(_cpu_seconds(pid) for pid in _pids_named({"redis-server"})),
        "client": own.user + own.system,
        "machine": busy,
        "machine_total": total,
    }


# ---------------------------------------------------------------- the players' client


def quick_play(plays: list[dict[str, Any]]) -> str:
    """As ``tests/integration/matches/helpers.quick_play``: no hits if possible, back
    checkers first, so games stay short."""

    def preference(play: dict[str, Any]) -> tuple[bool, int]:
        return ("*" not in play["text"], sum(start for start, _ in play["moves"]))

    return max(plays, key=preference)["text"]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    sent: int = 0
    errors: int = 0
    timeouts: int = 0
    unfinished: int = 0
    not_applied: int = 0
    no_match_ready: int = 0
    first_error: str = ""
    last_done: float = 0.0


@dataclass
class Pending:
    actor: Seat
    sent_at: float
    before_seq: int
    opponent_saw: bool = False
    actor_saw: bool = False
    late: bool = False


@dataclass
class Seat:
    live: LiveMatch
    username: str
    cookie: str
    port: int
    state: dict[str, Any] | None = None
    seq: int = 0
    socket: Any = None
    reader: asyncio.Task[None] | None = None
    first_state: asyncio.Event = field(default_factory=asyncio.Event)
    open: bool = False

    @property
    def last_seq(self) -> int:
        return -1 if self.state is None else int(self.state["last_seq"])


@dataclass
class LiveMatch:
    id: int
    seats: list[Seat] = field(default_factory=list)
    pending: Pending | None = None
    over: bool = False

    def ready(self) -> bool:
        return not self.over and self.pending is None and all(s.open for s in self.seats)


class Load:
    """Both players' sockets of every match, and the actions sent on them."""

    def __init__(self, matches: list[LiveMatch]) -> None:
        self.matches = matches
        self.stats = Stats()
        self.recording = False
        self.last_frame = time.perf_counter()
        self.next_match = 0

    # -- frames in

    def received(self, seat: Seat, frame: dict[str, Any], now: float) -> None:
        self.last_frame = now
        kind = frame.get("type")
        live = seat.live
        if kind == "state":
            seat.state = frame["state"]
            seat.first_state.set()
            if seat.state["status"] != "playing":
                live.over = True
            self._settle(live, now)
        elif kind == "error":
            self._fail(live, f"{seat.username}: {frame.get('message')}")
        elif kind == "ack" and not frame.get("applied", True):
            self.stats.not_applied += self.recording

    def closed(self, seat: Seat) -> None:
        seat.open = False
        if seat.live.pending is not None:
            self._fail(seat.live, f"{seat.username}: socket closed")

    def _settle(self, live: LiveMatch, now: float) -> None:
        pending = live.pending
        if pending is None:
            return
        opponent = live.seats[1 - live.seats.index(pending.actor)]
        if not pending.opponent_saw and opponent.last_seq > pending.before_seq:
            pending.opponent_saw = True
            if self.recording:
                self.stats.latencies.append(now - pending.sent_at)
                self.stats.last_done = now
        pending.actor_saw = pending.actor_saw or pending.actor.last_seq > pending.before_seq
        if pending.opponent_saw and pending.actor_saw:
            live.pending = None

    def _fail(self, live: LiveMatch, message: str) -> None:
        if self.recording:
            self.stats.errors += 1
            self.stats.first_error = self.stats.first_error or message
        live.pending = None

    # -- actions out

    def act_on_next_ready(self) -> None:
        for _ in range(len(self.matches)):
            live = self.matches[self.next_match]
            self.next_match = (self.next_match + 1) % len(self.matches)
            if live.ready() and self._act(live):
                return
        self.stats.no_match_ready += self.recording

    def _act(self, live: LiveMatch) -> bool:
        states = [seat.state for seat in live.seats]
        if any(state is None for state in states) or states[0]["last_seq"] != states[1]["last_seq"]:
            return False  # a state frame is still on its way
        game = states[0]["game"]
        actor = next((seat for seat in live.seats if seat.username == game["turn"]), None)
        if actor is None:
            return False
        phase = actor.state["game"]["phase"]
        if phase == "roll":
            body: dict[str, Any] = {"type": "roll"}
        elif phase == "move" and actor.state["game"]["legal_plays"]:
            body = {"type": "play", "play": quick_play(actor.state["game"]["legal_plays"])}
        elif phase == "doubled":
            body = {"type": "take"}
        else:
            return False
        actor.seq += 1
        body["seq"] = actor.seq
        live.pending = Pending(actor, time.perf_counter(), actor.last_seq)
        actor.socket.send(json.dumps(body))
        self.stats.sent += self.recording
        return True

    def expire(self, now: float) -> None:
        """Count actions the opponent has not seen within ``ACTION_TIMEOUT``; their match
        waits on, since acting again before the update arrives would be out of turn."""
        for live in self.matches:
            pending = live.pending
            if pending and not pending.late and now - pending.sent_at > ACTION_TIMEOUT:
                pending.late = True
                self.stats.timeouts += self.recording

    def finish(self, now: float) -> None:
        """Actions still unseen at the end count with their age so far: a lower bound."""
        for live in self.matches:
            pending = live.pending
            if pending and not pending.opponent_saw and self.recording:
                self.stats.latencies.append(now - pending.sent_at)
                self.stats.unfinished += 1
            live.pending = None


class WebSocket:
    """The client side of RFC 6455 as far as the bench needs it: masked text frames out,
    text frames in (fragments joined), pings answered, close."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int, path: str, headers: dict[str, str]) -> WebSocket:
        reader, writer = await asyncio.open_connection(HOST, port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {HOST}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        response = await reader.readuntil(b"\r\n\r\n")
        if not response.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(response.split(b"\r\n", 1)[0].decode(errors="replace"))
        return cls(reader, writer)

    def send(self, text: str) -> None:
        self._frame(0x1, text.encode())

    def close(self) -> None:
        if not self.writer.is_closing():
            self._frame(0x8, (1000).to_bytes(2, "big"))
            self.writer.close()

    async def messages(self) -> AsyncIterator[bytes]:
        """Each message as it completes; ends when the server closes."""
        parts: list[bytes] = []
        try:
            while True:
                head = await self.reader.readexactly(2)
                opcode, size = head[0] & 0x0F, head[1] & 0x7F
                if size == 126:
                    size = int.from_bytes(await self.reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await self.reader.readexactly(8), "big")
                payload = await self.reader.readexactly(size)
                if opcode == 0x8:
                    return
                if opcode == 0x9:
                    self._frame(0xA, payload)
                elif opcode in (0x0, 0x1, 0x2):
                    parts.append(payload)
                    if head[0] & 0x80:
                        yield b"".join(parts)
                        parts = []
        except (asyncio.IncompleteReadError, ConnectionError):
            return

    def _frame(self, opcode: int, payload: bytes) -> None:
        size = len(payload)
        if size < 126:
            head = bytes([0x80 | opcode, 0x80 | size])
        elif size < 1 << 16:
            head = bytes([0x80 | opcode, 0x80 | 126]) + size.to_bytes(2, "big")
        else:
            head = bytes([0x80 | opcode, 0x80 | 127]) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        repeated = (mask * (size // 4 + 1))[:size]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
            size, "big"
        )
        self.writer.write(head + mask + masked)


async def connect(seat: Seat, load: Load, gate: asyncio.Semaphore) -> bool:
    """Open ``seat``'s socket (three tries) and relay its frames to ``load``; a socket
    counts as open once its first state has come, so connecting never outruns the
    server's work for the sockets before."""
    # The page's own origin: scheme, host and port (config.sockets checks all three).
    headers = {"Origin": f"http://{HOST}:{seat.port}", "Cookie": seat.cookie}
    async with gate:
        for _ in range(3):
            try:
                seat.socket = await asyncio.wait_for(
                    WebSocket.open(seat.port, f"/ws/matches/{seat.live.id}/", headers), 30
                )
            except (TimeoutError, OSError):
                continue
            seat.open = True
            seat.reader = asyncio.create_task(relay(seat, load))
            try:
                await asyncio.wait_for(seat.first_state.wait(), 60)
            except TimeoutError:
                return False
            return True
    return False


async def relay(seat: Seat, load: Load) -> None:
    async for message in seat.socket.messages():
        load.received(seat, json.loads(message), time.perf_counter())
    load.closed(seat)


async def until_quiet(load: Load, *, quiet: float, limit: float) -> None:
    """Wait until no frame has come for ``quiet`` seconds (at most ``limit``)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline and time.perf_counter() - load.last_frame < quiet:
        await asyncio.sleep(0.1)


async def drive(load: Load, *, rate: float, seconds: float, rng: random.Random) -> None:
    """Offer actions with Poisson arrivals at ``rate`` for ``seconds``."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    due = start
    next_sweep = start + 1
    while True:
        due += rng.expovariate(rate)
        if due >= start + seconds:
            return
        wait = due - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        load.act_on_next_ready()
        if loop.time() >= next_sweep:
            load.expire(time.perf_counter())
            next_sweep += 1


@dataclass
class Outcome:
    servers: int
    matches: int
    sockets_opened: int
    sockets_live: int
    connect_seconds: float
    window: float
    stats: Stats
    cpu: dict[str, float]
    cpu_seconds: float
    finished_matches: int

    def actions_done(self) -> int:
        return len(self.stats.latencies) - self.stats.unfinished

    def cpu_per_action_ms(self) -> float:
        """CPU of every process but the client (server, PostgreSQL, Redis) per action seen."""
        spent = self.cpu["server"] + self.cpu["postgres"] + self.cpu["redis"]
        return 1000 * spent / max(self.actions_done(), 1)


async def play(
    match_ids: list[int],
    players: list[Player],
    ports: list[int],
    server_pids: list[int],
    *,
    rate: float,
    seconds: float,
    warmup: float,
) -> Outcome:
    rng = random.Random(7)
    matches = [LiveMatch(match_id) for match_id in match_ids]
    for number, live in enumerate(matches):
        for player in players[2 * number : 2 * number + 2]:
            live.seats.append(Seat(live, player.username, player.cookie, rng.choice(ports)))
    load = Load(matches)
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    seats = [seat for live in matches for seat in live.seats]

    began = time.perf_counter()
    opened = await asyncio.gather(*(connect(seat, load, gate) for seat in seats))
    await until_quiet(load, quiet=2.0, limit=120)
    connect_seconds = time.perf_counter() - began

    if warmup > 0:
        await drive(load, rate=rate, seconds=warmup, rng=rng)
        await until_quiet(load, quiet=1.0, limit=ACTION_TIMEOUT)
    for live in matches:
        live.pending = None

    before = cpu_sample(server_pids)
    load.recording = True
    start = time.perf_counter()
    await drive(load, rate=rate, seconds=seconds, rng=rng)
    drain_until = time.perf_counter() + ACTION_TIMEOUT
    while any(live.pending for live in matches) and time.perf_counter() < drain_until:
        await asyncio.sleep(0.05)
    load.expire(time.perf_counter())
    load.finish(time.perf_counter())
    load.recording = False
    after = cpu_sample(server_pids)
    cpu_seconds = time.perf_counter() - start
    window = max(load.stats.last_done - start, seconds)

    live_sockets = sum(seat.open for seat in seats)
    for seat in seats:
        if seat.socket is not None:
            seat.socket.close()
    await asyncio.wait([seat.reader for seat in seats if seat.reader], timeout=5)
    return Outcome(
        servers=len(ports),
        matches=len(matches),
        sockets_opened=sum(opened),
        sockets_live=live_sockets,
        connect_seconds=connect_seconds,
        window=window,
        stats=load.stats,
        cpu={name: after[name] - before[name] for name in before},
        cpu_seconds=cpu_seconds,
        finished_matches=sum(live.over for live in matches),
    )


def run_configuration(
    players: list[Player], *, servers: int, round_number: int, args: argparse.Namespace
) -> Outcome:
    flush_redis()
    match_ids = create_matches(players, round_number=round_number)
    logs = Path(tempfile.mkdtemp(prefix="bench-live-"))
    extra_env = {"DB_CONN_MAX_AGE": str(args.conn_max_age)} if args.conn_max_age else {}
    ports = [free_port() for _ in range(servers)]
    servers_started = [
        start_server(args.server, port, logs / f"{args.server}-{port}.log", extra_env)
        for port in ports
    ]
    try:
        return asyncio.run(
            play(
                match_ids,
                players,
                ports,
                [server.pid for server in servers_started],
                rate=args.rate,
                seconds=args.seconds,
                warmup=args.warmup,
            )
        )
    finally:
        for server in servers_started:
            stop_server(server)
        errors = [
            line
            for log in logs.iterdir()
            for line in log.read_text(errors="replace").splitlines()
            if "Traceback" in line or "ERROR" in line
        ]
        if errors:
            print(f"  {args.server} logged {len(errors)} errors, see {logs}", file=sys.stderr)


# ---------------------------------------------------------------- report


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def report(outcomes: list[Outcome], baseline: float, reconnecting: float, args: Any) -> None:
    print()
    print(
        f"{args.matches} matches ({2 * args.matches} sockets), offered {args.rate:g} actions/s"
        f" (Poisson) for {args.seconds:g} s after {args.warmup:g} s warm-up; "
        f"DB_CONN_MAX_AGE={args.conn_max_age}"
    )
    print(f"baseline pgbench, 1-row UPDATE, 2 clients:     {baseline:9.0f} tps")
    print(f"         pgbench -C (new connection each):     {reconnecting:9.0f} tps")
    print()
    print(
        f"{'procs':>6} {'sockets':>11} {'connect':>8} {'sent/s':>7} {'done/s':>7} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'max ms':>7} {'err':>4} {'late':>5} "
        f"{'unseen':>6} {'busy':>5} {'/pgbench':>9}"
    )
    for outcome in outcomes:
        stats = outcome.stats
        done = (len(stats.latencies) - stats.unfinished) / outcome.window
        ms = [1000 * value for value in stats.latencies]
        print(
            f"{outcome.servers:>6} {outcome.sockets_live:>5}/{2 * outcome.matches:<5} "
            f"{outcome.connect_seconds:>7.1f}s {stats.sent / args.seconds:>7.1f} {done:>7.1f} "
            f"{percentile(ms, 0.50):>7.1f} {percentile(ms, 0.95):>7.1f} "
            f"{percentile(ms, 0.99):>7.1f} {max(ms, default=float('nan')):>7.1f} "
            f"{stats.errors:>4} {stats.timeouts:>5} {stats.unfinished:>6} "
            f"{stats.no_match_ready:>5} {done / baseline:>8.4f}x"
        )
    print()
    print("CPU from the window's start until its actions drained, in % of one core:")
    print(
        f"{'procs':>6} {args.server:>7} {'postgres*':>9} {'redis':>6} {'client':>7} "
        f"{'machine':>8} {'server+pg+redis ms/action':>26}"
    )
    cores = os.cpu_count() or 1
    for outcome in outcomes:
        cpu = outcome.cpu
        share = {name: 100 * value / outcome.cpu_seconds for name, value in cpu.items()}
        machine = 100 * cores * cpu["machine"] / cpu["machine_total"]
        print(
            f"{outcome.servers:>6} {share['server']:>6.0f}% {share['postgres']:>8.0f}% "
            f"{share['redis']:>5.0f}% {share['client']:>6.0f}% {machine:>7.0f}% "
            f"{outcome.cpu_per_action_ms():>26.2f}"
        )
    for outcome in outcomes:
        if outcome.stats.first_error:
            print(f"first error ({outcome.servers} {args.server}): {outcome.stats.first_error}")
        if outcome.finished_matches:
            print(f"{outcome.finished_matches} matches finished ({outcome.servers} {args.server})")
    print()
    print(
        f"sockets: live at the end / wanted; connect: time to open them all and settle; "
        f"done/s: actions the opponent saw per second; latency: action sent to the "
        f"opponent's state frame (unseen ones count with their age at the end); late: "
        f"not seen within {ACTION_TIMEOUT:g} s; unseen: not seen by the end; busy: "
        f"arrivals that found every match waiting on its last action; postgres*: every "
        f"database on the server; machine: all processes, {cores} cores = {100 * cores}%"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--rate", type=float, default=20.0, help="offered actions per second")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--servers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--server", choices=sorted(SERVER_COMMANDS), default="uvicorn")
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    parser.add_argument(
        "--conn-max-age", type=int, default=0, help="DB_CONN_MAX_AGE for the server (0: unset)"
    )
    parser.add_argument("--keep-db", action="store_true", help=f"keep {BENCH_DB} afterwards")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * args.matches + 1024
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))

    began = time.perf_counter()
    fresh_database(BENCH_DB)
    flush_redis()
    import django

    django.setup()
    from django.db import connection

    try:
        players = create_players(2 * args.matches)
        print(f"set-up: {2 * args.matches} players in {time.perf_counter() - began:.0f} s")
        baseline = pgbench_rate(args.pgbench_seconds, reconnect=False)
        reconnecting = pgbench_rate(args.pgbench_seconds, reconnect=True)
        outcomes = []
        for round_number, servers in enumerate(args.servers):
            outcome = run_configuration(
                players, servers=servers, round_number=round_number, args=args
            )
            outcomes.append(outcome)
            done = len(outcome.stats.latencies) / outcome.window
            print(
                f"{servers} {args.server}: {done:.1f} actions/s, "
                f"p99 {1000 * percentile(outcome.stats.latencies, 0.99):.1f} ms"
            )
        report(outcomes, baseline, reconnecting, args)
    finally:
        connection.close()
        flush_redis()
        if not args.keep_db:
            drop_database(BENCH_DB)


if __name__ == "__main__":
    main()
