"""Celery tasks for matches: ids in, a service call, safe to run twice.

No task is scheduled per move: every clock deadline, reconnection grace and show-up time is
a ``Match.deadline`` in PostgreSQL, and ``sweep_deadlines`` (run by beat every second,
sweeping twice a run) hands the due ones to ``matches.deadlines``. Adjudication and the computer
opponent's turns run on the ``analysis`` queue, asked for by task name.
"""

from __future__ import annotations

import logging
import os
import time

from celery import shared_task
from celery.signals import worker_process_init

from analysis.engine import EngineUnavailable
from matches import adjudication, deadlines, lifecycle, pauses, practice, presence
from matches.engine import analysis_engine, engine

logger = logging.getLogger(__name__)
BATCH = 100
MAX_BATCHES = 50  # a run ends; the next beat picks up whatever is left
# Beat schedules in whole seconds (django-celery-beat stores them so); a run sweeps again
# half a second after it began, so a timeout lands within about half a second of its
# deadline (bench/bench_clocks.py) while an idle pass costs two indexed reads.
PASS_SPACING = 0.5


@shared_task(name="matches.sweep_deadlines", ignore_result=True)
def sweep_deadlines(batch: int = BATCH, passes: int = 2) -> int:
    """Expire clocks, graces and show-up times that are due, then close connections whose
    server died, ``passes`` times ``PASS_SPACING`` apart; returns how many were due."""
    handled = 0
    for sweep in range(passes):
        began = time.monotonic()
        handled += _sweep_once(batch)
        if sweep + 1 < passes:
            time.sleep(max(0.0, PASS_SPACING - (time.monotonic() - began)))
    return handled


def _sweep_once(batch: int) -> int:
    # A pause is given back before anything expires; the dead servers' connections are
    # closed after the deadlines, which do not wait on them (closing one starts a grace, it
    # ends none), so a timeout or a grace's end is one statement nearer its deadline.
    pauses.pause_given_back()
    handled = 0
    for _ in range(MAX_BATCHES):
        done = deadlines.sweep_due(batch=batch)
        handled += done
        if done < batch:
            break
    presence.sweep_stale()
    return handled


@shared_task(name="matches.requeue_adjudications", ignore_result=True)
def requeue_adjudications() -> int:
    """Queue again the adjudications a killed worker left undone; returns how many."""
    return len(deadlines.adjudication_requeue())


@shared_task(name="matches.wake_engines", ignore_result=True)
def wake_engines() -> int:
    """Ask the computer again where its turn was lost; returns how many."""
    return len(practice.engines_woken())


@shared_task(name=deadlines.ADJUDICATE_TASK, acks_late=True, ignore_result=True)
def adjudicate_match(match_id: int) -> None:
    """Evaluate and settle a suspended match (the analysis queue); safe to run twice."""
    adjudication.adjudicate(match_id=match_id)


@shared_task(name=lifecycle.ENGINE_TURN_TASK, acks_late=True, ignore_result=True)
def engine_turn(match_id: int) -> None:
    """Let the computer opponent take the actions that fall to it; safe to run twice."""
    practice.engine_turn(match_id=match_id)


@worker_process_init.connect
def _engine_warm(**_: object) -> None:
    """A worker process of the engine's queues starts its GNU Backgammon as it starts, not
    when the first adjudication arrives and a player waits for the program to load.
    ``scripts/serve worker`` names the queues in ``CRAWFORD_WORKER_QUEUES``."""
    queues = set(os.environ.get("CRAWFORD_WORKER_QUEUES", "").split(","))
    try:
        if "analysis" in queues:
            engine().start()
        if "review" in queues:
            analysis_engine().start()
    except EngineUnavailable as error:  # /healthz names it; the worker serves the rest
        logger.error("no engine to warm: %s", error)
