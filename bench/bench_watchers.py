"""Benchmark: many browsers watching a tournament's bracket and the play lobby, through the
shipped server.

The server is the production shape (``bench/shape.py``: ``scripts/serve web`` with
``deploy/crawford.env``, and a Celery worker on the ``default`` queue, which moves the
bracket on after each result), on a database of its own and a Redis started for the run.

* Bracket: a ``--players`` knockout is registered and started; watchers open
  ``/ws/tournaments/<id>/`` (anonymous sockets from many loopback addresses, as browsers
  from many homes). First-round matches end (the player to act resigns, the other accepts)
  at ``--rate`` a minute, first with one watcher (the baseline), then with ``--watchers``.
  For each phase: the watchers' update latency (from the result's commit to the frame that
  shows it finished, at each socket), PostgreSQL transactions and server CPU (web and
  worker) a result, the slots each frame carried and the distinct frames (one text for
  every watcher: rendered once). The old way's cost is printed beside it: each watcher's
  page fetched the bracket fragment again, timed here once.
* The bracket page itself, as a phone gets it (gzip): seconds and bytes, against the
  fragment of a 16-player knockout in the same run.
* Lobby: ``--lobby-watchers`` sockets on ``/ws/lobby/``; seeks posted at ``--seek-rate`` a
  minute, each cancelled when the next is posted, first with one socket, then with all:
  latency, transactions and CPU a change. Each socket does with a frame what the play
  lobby's page does (``static/js/lobby/seeks.js``): it keeps the list's seek ids, adds a posted
  seek from the frame, drops one taken or cancelled, and fetches the list (``/play/seeks/``)
  only where the page would: a frame it cannot apply, or a seek gone from a list that had
  more open seeks than it showed. Those fetches are made, and counted.

Run: ``.venv/bin/python bench/bench_watchers.py`` (4,096 players, 1,000 watchers, 100 results
a minute; 2,000 lobby sockets, 50 seeks a minute), ``--small`` for ``make bench``.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchdb import drop_database, fresh_database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DATABASE = "crawford_bench_watchers"
DATABASE_URL = f"postgres://postgres@127.0.0.1:5432/{DATABASE}"
PER_ADDRESS = 16  # anonymous sockets of one kind an address may hold (core.sockets)
# PostgreSQL's backends report their statistics within ten seconds of going idle: a phase's
# transactions are read that long after its last change (and before its first).
SETTLE = 11.0


def start_redis() -> tuple[subprocess.Popen[bytes], str, Path]:
    """A Redis of the run's own, on a free port, keeping nothing on disk."""
    from shape import free_port, wait_for_port

    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="crawford-watchers-redis-"))
    popen = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
            "--maxclients",
            "20000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_for_port(port, popen)
    return popen, f"redis://127.0.0.1:{port}/0", folder


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def transactions() -> int:
    """Transactions committed in the bench's database so far (every autocommit statement is
    one): PostgreSQL's own count, read after its statistics are flushed."""
    import psycopg

    with psycopg.connect("postgres://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute("SELECT pg_stat_force_next_flush()")
        row = c.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
            [DATABASE],
        ).fetchone()
    return int(row[0]) if row else 0


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


@dataclass
class Watchers:
    """Sockets on one path; every frame's arrival time kept, by the text it carried."""

    port: int
    path: str
    sockets: list[Any] = field(default_factory=list)
    frames: list[list[tuple[float, str]]] = field(default_factory=list)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    opened: int = 0

    async def open(self, count: int) -> None:
        from websockets.asyncio.client import connect

        gate = asyncio.Semaphore(50)

        async def one(index: int) -> None:
            n = self.opened + index
            address = f"127.{10 + n // (PER_ADDRESS * 250)}.{(n // PER_ADDRESS) % 250 + 1}.1"
            async with gate:
                socket = await connect(
                    f"ws://127.0.0.1:{self.port}{self.path}",
                    local_addr=(address, 0),
                    max_size=None,
                    open_timeout=60,
                    ping_interval=None,
                )
            arrived: list[tuple[float, str]] = []
            self.sockets.append(socket)
            self.frames.append(arrived)
            self.tasks.append(asyncio.create_task(self._read(socket, arrived)))

        await asyncio.gather(*(one(i) for i in range(count)))
        self.opened += count

    async def _read(self, socket: Any, arrived: list[tuple[float, str]]) -> None:
        try:
            async for message in socket:
                arrived.append((time.perf_counter(), message))
        except Exception:  # closed at the end of the run
            return

    def clear(self) -> None:
        for arrived in self.frames:
            arrived.clear()

    async def close(self) -> None:
        for socket in self.sockets:
            await socket.close()
        for task in self.tasks:
            task.cancel()


@dataclass
class Phase:
    name: str
    watchers: int
    changes: int
    latencies: list[float]
    missed: int
    transactions: int
    cpu: float
    slots: list[int]
    distinct_frames: int
    fetches: int | None = None  # the lobby's: lists its pages fetched
    calls_cpu: float = 0.0  # the lobby's: CPU of the changes' own calls, frames built on commit

    def line(self) -> str:
        p50 = percentile(self.latencies, 0.5) * 1000
        p99 = percentile(self.latencies, 0.99) * 1000
        fetched = "" if self.fetches is None else f"  {self.fetches} list fetches"
        return (
            f"  {self.name:<22} {self.watchers:>6,} watchers  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms"
            f"  missed {self.missed}  {self.transactions / self.changes:6.1f} transactions"
            f"  {self.cpu / self.changes * 1000:6.1f} ms CPU a change{fetched}"
        )


SEEKS_SHOWN = 50  # lobby.selectors.SEEKS_SHOWN


@dataclass
class LobbyPage:
    """What one play lobby page keeps of its list, and when it fetches the list again: as
    ``static/js/lobby/seeks.js`` does (the watchers are visitors, so nobody's seek is blocked)."""

    seeks: list[int] = field(default_factory=list)  # newest first
    complete: bool = True  # the lobby is empty when the sockets open
    fetches: int = 0

    def must_fetch(self, frame: dict[str, Any]) -> bool:
        """Apply the frame; True when the page would fetch the list instead."""
        seek = frame.get("seek")
        if frame.get("event") == "posted":
            if not isinstance(frame.get("row"), str) or not isinstance(frame.get("rules"), list):
                return True
            if seek not in self.seeks:
                self.seeks.insert(0, seek)
            return False
        if seek not in self.seeks:
            return False
        self.seeks.remove(seek)
        return not self.complete and len(self.seeks) < SEEKS_SHOWN

    def fetched(self, html: str) -> None:
        self.fetches += 1
        self.seeks = [int(found) for found in re.findall(r'data-seek="(\d+)"', html)]
        self.complete = 'data-complete="yes"' in html


@dataclass
class LobbyWatchers(Watchers):
    """Lobby sockets, each behind a page that fetches the list when it would."""

    pages: list[LobbyPage] = field(default_factory=list)

    async def _read(self, socket: Any, arrived: list[tuple[float, str]]) -> None:
        import orjson

        page = LobbyPage()
        self.pages.append(page)
        url = f"http://127.0.0.1:{self.port}/play/seeks/"
        try:
            async for message in socket:
                arrived.append((time.perf_counter(), message))
                frame = orjson.loads(message)
                if frame.get("type") == "seek" and page.must_fetch(frame):
                    page.fetched(await asyncio.to_thread(_fetched, url))
        except Exception:  # closed at the end of the run
            return


def _fetched(url: str) -> str:
    with urllib.request.urlopen(url, timeout=60) as response:
        return str(response.read().decode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--results", type=int, default=100, help="results in each phase")
    parser.add_argument("--rate", type=float, default=100, help="results a minute")
    parser.add_argument("--lobby-watchers", type=int, default=2000)
    parser.add_argument("--seeks", type=int, default=50, help="seeks in each phase")
    parser.add_argument("--seek-rate", type=float, default=50, help="seeks a minute")
    parser.add_argument("--small", action="store_true", help="the make bench run")
    args = parser.parse_args()
    if args.small:
        args.players, args.watchers, args.results, args.rate = 256, 200, 10, 300
        args.lobby_watchers, args.seeks, args.seek_rate = 200, 10, 300
    redis, redis_url, redis_folder = start_redis()
    os.environ.update(
        DATABASE_URL=DATABASE_URL,
        REDIS_URL=redis_url,
        SECRET_KEY="bench-only",
        DEBUG="false",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        CRAWFORD_FUN_GRANT_CENTS="1000000",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    shape = None
    try:
        fresh_database(DATABASE)
        from shape import Shape

        shape = Shape(DATABASE_URL, redis_url)
        asyncio.run(run(args, shape))
        trouble = shape.check_logs()
        if trouble:
            print("\nthe server's logs tell of failures:")
            for line in trouble[:20]:
                print(f"  {line}")
            raise SystemExit(1)
    finally:
        if shape is not None:
            shape.stop_all()
        redis.terminate()
        redis.wait(timeout=10)
        shutil.rmtree(redis_folder, ignore_errors=True)
        drop_database(DATABASE)


def setting_up(players: int, seekers: int) -> dict[str, Any]:
    """Players, a 16-player knockout and the big one, started: in this process, as an
    organizer's requests would."""
    import django

    django.setup()
    from django.conf import settings

    from accounts.roles import Role
    from accounts.services import user_create
    from tournaments import services
    from tournaments.settings.general import TournamentSettings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    rng = random.Random(29)
    owner = user_create(username="orla", password="bench-only", role=Role.ORGANIZER)
    field_ = [
        user_create(username=f"w{n}", password="bench-only", rating=1300 + 700 * rng.random())
        for n in range(players)
    ]

    def knockout(name: str, entrants: list[Any]) -> int:
        made = services.tournament_create(
            organizer=owner,
            settings=TournamentSettings(
                name=name,
                format="knockout",
                buy_in_cents=0,
                fee_cents=0,
                round_lengths=(1,),
                clock={"kind": "none"},
            ),
        )
        services.tournament_open(tournament_id=made.pk, user=owner)
        for player in entrants:
            services.entry_register(tournament_id=made.pk, user=player)
        services.tournament_start(tournament_id=made.pk, user=owner)
        return made.pk

    return {
        "small": knockout("Sixteen", field_[:16]),
        "big": knockout("Saturday", field_),
        "players": {user.pk: user for user in field_},
        "seekers": [
            user_create(username=f"s{n}", password="bench-only", rating=1500)
            for n in range(seekers)
        ],
    }


def end_match(match_id: int, players: dict[int, Any]) -> None:
    """The player to act resigns a single game; the other accepts: a 1-point match ends."""
    from backgammon.game import ResultKind
    from core.errors import DomainError
    from matches.actions import PlayerAction
    from matches.models import Match
    from matches.play import action_submit

    match = Match.objects.get(pk=match_id)
    for first, second in (
        (match.player_1_id, match.player_0_id),
        (match.player_0_id, match.player_1_id),
    ):
        try:
            action_submit(
                match_id=match_id,
                user=players[first],
                action=PlayerAction.RESIGN,
                resign=ResultKind.SINGLE,
            )
        except DomainError:
            continue
        action_submit(match_id=match_id, user=players[second], action=PlayerAction.ACCEPT_RESIGN)
        return
    raise RuntimeError(f"match {match_id} could not be resigned")


async def bracket_phase(
    name: str,
    watchers: Watchers,
    matches: list[tuple[int, str]],
    players: dict[int, Any],
    rate: float,
    pids: list[int],
) -> Phase:
    from asgiref.sync import sync_to_async

    watchers.clear()
    await asyncio.sleep(SETTLE)
    before_x, before_cpu = await sync_to_async(transactions)(), cpu_seconds(pids)
    ended: dict[str, float] = {}
    for match_id, key in matches:
        began = time.perf_counter()
        ended[key] = began  # the latency includes the result's own commit
        await sync_to_async(end_match)(match_id, players)
        await asyncio.sleep(max(0.0, 60 / rate - (time.perf_counter() - began)))
    await asyncio.sleep(SETTLE)  # the last frames, and the statistics' flush
    after_x, after_cpu = await sync_to_async(transactions)(), cpu_seconds(pids)
    latencies, missed, slots, texts = [], 0, [], set()
    import orjson

    for arrived in watchers.frames:
        seen: dict[str, float] = {}
        for moment, text in arrived:
            texts.add(text)
            frame = orjson.loads(text)
            for key, html in (frame.get("slots") or {}).items():
                if key in ended and 'data-status="finished"' in html:
                    seen.setdefault(key, moment)
            if arrived is watchers.frames[0]:
                slots.append(len(frame.get("slots") or {}))
        for key, at in ended.items():
            if key in seen:
                latencies.append(seen[key] - at)
            else:
                missed += 1
    return Phase(
        name,
        len(watchers.sockets),
        len(matches),
        latencies,
        missed,
        after_x - before_x,
        after_cpu - before_cpu,
        slots,
        len(texts),
    )


async def lobby_phase(
    name: str, watchers: LobbyWatchers, posters: list[Any], rate: float, pids: list[int]
) -> Phase:
    """Each poster posts a seek at ``rate`` a minute; each seek is cancelled as the next is
    posted (the last at the end), so the list stays short and both kinds of frame count."""
    from asgiref.sync import sync_to_async

    from lobby.seeks import SeekTerms, seek_cancel, seek_post

    watchers.clear()
    fetches_before = sum(page.fetches for page in watchers.pages)
    await asyncio.sleep(SETTLE)
    before_x, before_cpu = await sync_to_async(transactions)(), cpu_seconds(pids)
    changed: dict[tuple[int, str], float] = {}  # (seek, event): from before its call
    calls_cpu: list[float] = []

    def cancel(seek_id: int, user: Any) -> None:
        changed[(seek_id, "cancelled")] = time.perf_counter()
        began = time.thread_time()
        seek_cancel(seek_id=seek_id, user=user)
        calls_cpu.append(time.thread_time() - began)

    def post(user: Any) -> int:
        began = time.thread_time()
        seek = seek_post(user=user, terms=SeekTerms(length=3))
        calls_cpu.append(time.thread_time() - began)
        return seek.pk

    previous: tuple[int, Any] | None = None
    for user in posters:
        began = time.perf_counter()
        seek_id = await sync_to_async(post)(user)
        changed[(seek_id, "posted")] = began
        if previous is not None:
            await sync_to_async(cancel)(*previous)
        previous = (seek_id, user)
        await asyncio.sleep(max(0.0, 60 / rate - (time.perf_counter() - began)))
    if previous is not None:
        await sync_to_async(cancel)(*previous)
    await asyncio.sleep(SETTLE)
    after_x, after_cpu = await sync_to_async(transactions)(), cpu_seconds(pids)
    import orjson

    latencies, missed, texts = [], 0, set()
    for arrived in watchers.frames:
        seen: dict[Any, float] = {}
        for moment, text in arrived:
            texts.add(text)
            frame = orjson.loads(text)
            seen.setdefault((frame.get("seek"), frame.get("event")), moment)
        for key, at in changed.items():
            if key in seen:
                latencies.append(seen[key] - at)
            else:
                missed += 1
    return Phase(
        name,
        len(watchers.sockets),
        len(changed),
        latencies,
        missed,
        after_x - before_x,
        after_cpu - before_cpu,
        [],
        len(texts),
        sum(page.fetches for page in watchers.pages) - fetches_before,
        sum(calls_cpu),
    )


def old_lobby_cost(posters: list[Any], base: str, pids: list[int]) -> float:
    """Server CPU of one visitor's seek list fetched, as every page did after each change
    before: with a seek open from each poster, the mean of 20 after two to warm up (the
    processes' CPU is counted in ticks of 10 ms)."""
    from lobby.seeks import SeekTerms, seek_post

    for user in posters:
        seek_post(user=user, terms=SeekTerms(length=3))
    for _ in range(2):
        timed_get(f"{base}/play/seeks/", phone=True)
    before = cpu_seconds(pids)
    for _ in range(20):
        timed_get(f"{base}/play/seeks/", phone=True)
    return (cpu_seconds(pids) - before) / 20


def timed_get(url: str, *, phone: bool) -> tuple[float, int, int]:
    """Seconds, bytes sent and bytes of HTML of one GET."""
    headers = {"Accept-Encoding": "gzip"} if phone else {}
    request = urllib.request.Request(url, headers=headers)
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read()
        encoded = response.headers.get("Content-Encoding") == "gzip"
    took = time.perf_counter() - began
    return took, len(body), len(gzip.decompress(body) if encoded else body)


async def run(args: argparse.Namespace, shape: Any) -> None:
    from asgiref.sync import sync_to_async

    print(f"setting up {args.players:,} players and their knockout ...", flush=True)
    web = shape.web()
    worker = shape.worker("default")
    made = await sync_to_async(setting_up)(args.players, 2 * args.seeks)
    from matches.models import Match
    from tournaments.models import Pairing

    big, players = made["big"], made["players"]
    first_round = args.players // 2
    deadline = time.monotonic() + 600
    while await sync_to_async(Match.objects.filter(tournament_id=big).count)() < first_round:
        if time.monotonic() > deadline:
            raise RuntimeError("the worker did not start the first round's matches")
        await asyncio.sleep(0.5)
    rows = await sync_to_async(
        lambda: list(
            Pairing.objects.filter(tournament_id=big, round=0, match_id__isnull=False)
            .order_by("position")
            .values_list("match_id", "position")
        )
    )()
    need = 2 * args.results
    if len(rows) < need:
        raise SystemExit(f"{len(rows)} first-round matches: --results {args.results} needs {need}")
    picked = [(int(match_id or 0), f"main:0:{position}") for match_id, position in rows[:need]]
    pids = [*web.tree(), *worker.tree()]
    base = f"http://127.0.0.1:{web.port}"

    # The page and the old way's cost: one fragment fetched, as each watcher's page did.
    # The best of three, after one for each web process to warm up.
    pages = [timed_get(f"{base}/tournaments/{big}/bracket/", phone=True) for _ in range(5)]
    page_s, page_sent, page_html = min(pages[2:])
    smalls = [
        timed_get(f"{base}/tournaments/{made['small']}/bracket/", phone=True) for _ in range(5)
    ]
    small_s = min(smalls[2:])[0]
    cpu_before = cpu_seconds(pids)
    fragment_s, _, fragment_html = timed_get(
        f"{base}/tournaments/{big}/bracket/fragment/", phone=True
    )
    fragment_cpu = cpu_seconds(pids) - cpu_before

    watchers = Watchers(web.port, f"/ws/tournaments/{big}/")
    await watchers.open(1)
    alone = await bracket_phase(
        "bracket, one watcher", watchers, picked[: args.results], players, args.rate, pids
    )
    print(f"opening {args.watchers:,} bracket sockets ...", flush=True)
    await watchers.open(args.watchers - 1)
    crowd = await bracket_phase(
        "bracket, all watchers", watchers, picked[args.results :], players, args.rate, pids
    )
    await watchers.close()

    posters = made["seekers"]
    lobby = LobbyWatchers(web.port, "/ws/lobby/")
    await lobby.open(1)
    seek_alone = await lobby_phase(
        "lobby, one socket", lobby, posters[: args.seeks], args.seek_rate, pids
    )
    print(f"opening {args.lobby_watchers:,} lobby sockets ...", flush=True)
    await lobby.open(args.lobby_watchers - 1)
    seek_crowd = await lobby_phase(
        "lobby, all sockets", lobby, posters[args.seeks :], args.seek_rate, pids
    )
    await lobby.close()
    old_lobby = await sync_to_async(old_lobby_cost)(posters[: args.seeks], base, pids)
    report(args, alone, crowd, seek_alone, seek_crowd)
    print(
        f"  the lobby's old way, each page fetching its list after every change: one list"
        f" of {len(posters[: args.seeks])} seeks took {old_lobby * 1000:.1f} ms of server CPU"
        f" = {old_lobby * seek_crowd.watchers:.2f} s of CPU a change at"
        f" {seek_crowd.watchers:,} pages (now {seek_crowd.cpu / seek_crowd.changes:.3f} s)"
    )
    print("\nthe bracket page (a phone: gzip), against a 16-player one in the same run")
    print(
        f"  {args.players:,} players: {page_s:.3f} s, {page_sent / 1e3:.0f} kB sent"
        f" ({page_html / 1e3:.0f} kB of HTML); 16 players {small_s:.3f} s"
        f" ({page_s / small_s:.1f}x)"
    )
    print(
        f"  the old way, each watcher fetching the fragment: {fragment_s * 1000:.0f} ms and"
        f" {fragment_cpu * 1000:.0f} ms of server CPU a watcher ({fragment_html / 1e3:.0f} kB)"
        f" = {fragment_cpu * crowd.watchers:.1f} s of CPU a result at {crowd.watchers:,}"
    )
    print("  (the machine is shared with other work: compare lines of one run, not runs)")


def report(
    args: argparse.Namespace, alone: Phase, crowd: Phase, seek_alone: Phase, seek_crowd: Phase
) -> None:
    print(
        f"\n{args.players:,}-player knockout, results at {args.rate:g} a minute; seeks at"
        f" {args.seek_rate:g} a minute; web and worker as shipped (scripts/serve)"
    )
    for phase in (alone, crowd, seek_alone, seek_crowd):
        print(phase.line())
    for what, one, many in (("bracket", alone, crowd), ("lobby", seek_alone, seek_crowd)):
        ratio_x = (many.transactions / many.changes) / max(one.transactions / one.changes, 1e-9)
        ratio_cpu = (many.cpu / many.changes) / max(one.cpu / one.changes, 1e-9)
        print(
            f"  {what}: transactions a change with {many.watchers:,} watchers / with one:"
            f" {ratio_x:.2f}x; server CPU a change {ratio_cpu:.2f}x;"
            f" p99 {percentile(many.latencies, 0.99):.2f} s (goal 2 s)"
        )
    print(
        f"  lobby frames: {seek_crowd.distinct_frames} distinct texts for {seek_crowd.changes}"
        f" changes at {seek_crowd.watchers:,} sockets (encoded once each); pages' list fetches:"
        f" {seek_crowd.fetches} (with one socket: {seek_alone.fetches})"
    )
    print(
        "  lobby changes' own calls (in this process: the post or cancel, its frame read and"
        f" rendered on commit): {seek_alone.calls_cpu / seek_alone.changes * 1000:.1f} ms CPU"
        f" a change with one socket, {seek_crowd.calls_cpu / seek_crowd.changes * 1000:.1f} ms"
        f" with {seek_crowd.watchers:,}"
    )
    slots = crowd.slots or [0]
    print(
        f"  bracket frames: {crowd.distinct_frames} distinct texts for {crowd.changes} results"
        f" at {crowd.watchers:,} watchers (rendered once each), {min(slots)}-{max(slots)}"
        " slots a frame"
    )


if __name__ == "__main__":
    main()
