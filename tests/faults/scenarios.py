"""Each fault the suite injects, how it measures the recovery, and what it checks after.

A scenario runs while the players play on; it answers an ``Outcome``: the seconds from the
fault's end until the platform served again (or the interrupted work was done), and the
problems the checks found.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import redis

from bench.shape import Process, descendants
from tests.faults import checks
from tests.faults.bots import Ledger, Player
from tests.faults.world import World

RECOVERY_BOUND = 180.0  # seconds: beyond this a fault counts as not recovered
REDONE_BOUND = 120.0  # the bound for work interrupted by a killed process


@dataclass
class Outcome:
    fault: str
    recovered: float | None
    problems: list[str] = field(default_factory=list)
    note: str = ""


class Scenarios:
    def __init__(self, world: World, ledger: Ledger, spare: list[Player]) -> None:
        self.world = world
        self.ledger = ledger
        self.spare = spare  # players kept for the scenarios' own matches

    def standing_checks(self) -> list[checks.Check]:
        return [
            checks.money,
            checks.moves_kept(self.ledger),
            checks.no_loss_on_time,
            checks.deadlines_fired,
            checks.adjudications_done,
            checks.no_task_lost,
            checks.present(self.ledger),
        ]

    async def checked(self, outcome: Outcome) -> Outcome:
        outcome.problems += await asyncio.to_thread(
            checks.settled, self.standing_checks(), within=RECOVERY_BOUND
        )
        return outcome

    async def serving_again(self, since: float) -> float | None:
        """Seconds from ``since`` until /healthz is 200 and a move was acknowledged."""
        deadline = since + RECOVERY_BOUND
        while time.monotonic() < deadline:
            if self.ledger.last_applied_at > since and await asyncio.to_thread(self.world.healthy):
                return time.monotonic() - since
            await asyncio.sleep(0.5)
        return None

    # ---- outages

    async def redis_stopped(self, seconds: float) -> Outcome:
        await asyncio.to_thread(self.world.redis.stop)
        await asyncio.sleep(seconds)
        await asyncio.to_thread(self.world.redis.start)
        back = time.monotonic()
        return await self.checked(
            Outcome(f"Redis stopped {seconds:.0f} s", await self.serving_again(back))
        )

    async def postgres_restarted(self) -> Outcome:
        await asyncio.to_thread(self.world.postgres.stop)
        await asyncio.sleep(3)
        await asyncio.to_thread(self.world.postgres.start)
        back = time.monotonic()
        return await self.checked(Outcome("PostgreSQL restarted", await self.serving_again(back)))

    # ---- processes killed with work in hand

    async def worker_killed_in_adjudication(self) -> Outcome:
        walker, stayer = self.spare[0], self.spare[1]
        for _ in range(3):
            match_id = await self._abandoned_match(walker, stayer)
            caught = await self._kill_holding("analysis", "analysis.adjudicate")
            if caught:
                break
            await asyncio.sleep(1)
        else:
            return Outcome("kill -9 worker in an adjudication", None, ["never caught it working"])
        killed_at = time.monotonic()
        await asyncio.to_thread(self.world.restart, "analysis")
        done = await self._until(lambda: _adjudications(match_id) > 0, REDONE_BOUND, killed_at)
        outcome = Outcome("kill -9 worker in an adjudication", done)
        await asyncio.sleep(5)
        if (count := await _db(_adjudications, match_id)) != 1:
            outcome.problems.append(f"match {match_id} was adjudicated {count} times")
        return await self.checked(outcome)

    async def worker_killed_in_analysis(self) -> Outcome:
        """Redone: the sweep queued the analysis again (it starts over, after whatever is
        queued before it); the note says when it was done."""
        from django.db.models import Q

        from reviews.models import Analysis, AnalysisStatus

        def running() -> tuple[int, int] | None:
            return (
                Analysis.objects.filter(status=AnalysisStatus.RUNNING, done__gt=0)
                .values_list("pk", "attempts")
                .first()
            )

        found = await self._until_value(running, 240)
        if found is None:
            return Outcome("kill -9 worker in a post-match analysis", None, ["none ran"])
        analysis_id, attempt = found
        await asyncio.to_thread(_kill, self.world.services["review"])
        killed_at = time.monotonic()
        await asyncio.to_thread(self.world.restart, "review")

        def taken_again() -> bool:
            return Analysis.objects.filter(
                Q(status=AnalysisStatus.QUEUED) | Q(attempts__gt=attempt), pk=analysis_id
            ).exists()

        def done() -> bool:
            return Analysis.objects.filter(pk=analysis_id, status=AnalysisStatus.DONE).exists()

        outcome = Outcome(
            "kill -9 worker in a post-match analysis",
            await self._until(taken_again, REDONE_BOUND, killed_at),
        )
        finished = await self._until(done, RECOVERY_BOUND * 2, killed_at)
        if finished is not None:
            outcome.note = f"done {finished:.0f} s after the kill"
        else:
            waiting = await _db(Analysis.objects.filter(status=AnalysisStatus.QUEUED).count)
            outcome.note = (
                f"not done within {RECOVERY_BOUND * 2:.0f} s: {waiting} analyses queued"
                " for the one review worker"
            )
        records = await _db(_performance_records_of, analysis_id)
        if records not in (0, 2):
            outcome.problems.append(f"analysis {analysis_id} recorded {records} performances")
        return await self.checked(outcome)

    async def worker_killed_in_computer_move(self) -> Outcome:
        learner = self.spare[2]
        match_id = await _db(_practice_match, learner.account.user_id)
        stop = asyncio.Event()
        playing = asyncio.create_task(learner.play(match_id, stop))
        try:
            caught = await self._kill_holding("analysis", "analysis.engine_turn", within=60)
            if not caught:
                return Outcome("kill -9 worker in the computer's move", None, ["never caught it"])
            killed_at = time.monotonic()
            seq_then = await _db(_last_seq, match_id)
            await asyncio.to_thread(self.world.restart, "analysis")
            moved = await self._until(
                lambda: _engine_acted_since(match_id, seq_then), REDONE_BOUND, killed_at
            )
            return await self.checked(Outcome("kill -9 worker in the computer's move", moved))
        finally:
            stop.set()
            with contextlib.suppress(Exception):
                await playing

    async def beat_killed(self) -> Outcome:
        await asyncio.to_thread(_kill, self.world.services["beat"])
        killed_at = time.monotonic()
        await asyncio.sleep(10)
        await asyncio.to_thread(self.world.restart, "beat")
        swept = await self._until(lambda: _sweep_age() < 5, RECOVERY_BOUND, killed_at)
        return await self.checked(Outcome("kill -9 beat (10 s)", swept))

    async def web_process_killed(self) -> Outcome:
        assert self.world.web is not None
        workers = descendants(self.world.web.popen.pid)
        serving = [pid for pid in workers if _is_uvicorn_worker(pid)]
        if not serving:
            return Outcome("kill -9 a web process", None, ["no web worker process found"])
        os.kill(serving[0], signal.SIGKILL)
        killed_at = time.monotonic()
        return await self.checked(
            Outcome("kill -9 a web process with sockets", await self.serving_again(killed_at))
        )

    # ---- SIGTERM, as a deployment stops each process

    async def web_terminated(self) -> Outcome:
        from matches.models import MatchConnection

        assert self.world.web is not None
        began = time.monotonic()
        await asyncio.to_thread(self.world.shape.stop, self.world.web, timeout=40)
        drained = time.monotonic() - began
        left = await _db(MatchConnection.objects.count)
        await asyncio.to_thread(self.world.restart_web)
        outcome = Outcome(
            "SIGTERM the web service",
            await self.serving_again(time.monotonic()),
            note=f"drained in {drained:.1f} s",
        )
        if left:
            outcome.problems.append(f"{left} connection rows left after the web service stopped")
        return await self.checked(outcome)

    async def worker_terminated(self, name: str) -> Outcome:
        began = time.monotonic()
        await asyncio.to_thread(self.world.shape.stop, self.world.services[name], timeout=300)
        stopped = time.monotonic() - began
        await asyncio.to_thread(self.world.restart, name)
        outcome = Outcome(
            f"SIGTERM the {name} worker",
            await self.serving_again(time.monotonic()),
            note=f"stopped in {stopped:.1f} s",
        )
        return await self.checked(outcome)

    async def beat_terminated(self) -> Outcome:
        await asyncio.to_thread(self.world.shape.stop, self.world.services["beat"])
        stopped_at = time.monotonic()
        await asyncio.to_thread(self.world.restart, "beat")
        swept = await self._until(lambda: _sweep_age() < 5, RECOVERY_BOUND, stopped_at)
        return await self.checked(Outcome("SIGTERM beat", swept))

    # ---- helpers

    async def _abandoned_match(self, walker: Player, stayer: Player) -> int:
        """A match where ``walker`` plays a little, leaves, and its grace is over now."""
        created = await self.world.call(
            walker.account, "POST", "/api/matches/", {"opponent": stayer.name, "length": 5}
        )
        match_id = int(created["id"])
        await self.world.call(stayer.account, "POST", f"/api/matches/{match_id}/accept/")
        stop = asyncio.Event()
        both = [asyncio.create_task(p.play(match_id, stop)) for p in (walker, stayer)]
        await asyncio.sleep(6)
        stop.set()
        for task in both:
            with contextlib.suppress(Exception):
                await task
        await _db(_grace_over, match_id, walker.account.user_id)
        return match_id

    async def _kill_holding(self, queue: str, task: str, *, within: float = 30) -> bool:
        """Kill the ``queue`` worker the moment it holds a ``task`` it has not finished."""
        client = redis.Redis.from_url(self.world.redis.url())
        deadline = time.monotonic() + within
        try:
            while time.monotonic() < deadline:
                held = await asyncio.to_thread(client.hvals, "unacked")
                if any(task.encode() in value for value in held):
                    await asyncio.to_thread(_kill, self.world.services[queue])
                    return True
                await asyncio.sleep(0.005)
        finally:
            client.close()
        return False

    async def _until(self, condition: Any, bound: float, since: float) -> float | None:
        while time.monotonic() - since < bound:
            if await asyncio.to_thread(_fresh(condition)):
                return time.monotonic() - since
            await asyncio.sleep(0.5)
        return None

    async def _until_value(self, read: Any, bound: float) -> Any:
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            if (value := await asyncio.to_thread(_fresh(read))) is not None:
                return value
            await asyncio.sleep(0.1)
        return None


def _fresh(read: Any) -> Any:
    """``read`` on a connection of its own: one a thread kept may be from before a restart."""

    def call() -> Any:
        from django.db import connection

        connection.close()
        try:
            return read()
        finally:
            connection.close()

    return call


async def _db(read: Any, *args: Any) -> Any:
    return await asyncio.to_thread(_fresh(lambda: read(*args)))


def _kill(process: Process) -> None:
    """SIGKILL to the process and everything under it: the container dies."""
    for pid in [process.popen.pid, *descendants(process.popen.pid)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    process.popen.wait(timeout=10)


def _is_uvicorn_worker(pid: int) -> bool:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return False
    return b"multiprocessing" in command or b"spawn_main" in command


def _adjudications(match_id: int) -> int:
    from matches.models import Adjudication

    return Adjudication.objects.filter(match_id=match_id).count()


def _grace_over(match_id: int, user_id: int) -> None:
    """The walker's three minutes of grace are over now (the suite does not wait them)."""
    from django.utils import timezone

    from matches.models import Match

    match = Match.objects.get(pk=match_id)
    seat = 0 if match.player_0_id == user_id else 1
    moment = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(**{f"grace_ends_{seat}": moment, "deadline": moment})


def _practice_match(user_id: int) -> int:
    from accounts.models import User
    from matches.practice import practice_create

    return int(
        practice_create(user=User.objects.get(pk=user_id), length=3, strength="world_class").pk
    )


def _last_seq(match_id: int) -> int:
    from matches.models import Match

    return int(Match.objects.values_list("last_seq", flat=True).get(pk=match_id))


def _engine_acted_since(match_id: int, seq: int) -> bool:
    from matches.models import Action, Match

    engine_id = Match.objects.values_list("player_1_id", flat=True).get(pk=match_id)
    return Action.objects.filter(match_id=match_id, seq__gt=seq, actor_id=engine_id).exists()


def _sweep_age() -> float:
    from core.beats import beat_ages

    return beat_ages().get("matches.sweep_deadlines", 1e9)


def _performance_records_of(analysis_id: int) -> int:
    from accounts.models import PerformanceRecord
    from reviews.models import Analysis

    match_id = Analysis.objects.values_list("match_id", flat=True).get(pk=analysis_id)
    return PerformanceRecord.objects.filter(match_id=match_id).count()
