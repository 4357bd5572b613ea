"""Figures for operators, in Prometheus's text format (prometheus-client).

The processes that do the work count it here; ``/metrics`` (``config.health``) and each
Celery worker's own port (``serve_worker_metrics``) read it out:

* ``crawford_actions_total{action, outcome}`` and ``crawford_action_seconds``: the
  players' actions (socket and REST) and the time from arrival to answer;
* ``crawford_open_sockets{kind}``: WebSockets open now (match, me, tournament, lobby);
* ``crawford_deadline_lateness_seconds``: how long after its deadline a clock, grace or
  show-up time was dealt with by the sweep (on the workers);
* ``crawford_engine_calls_total{call, outcome}`` and ``crawford_engine_seconds{call}``:
  GNU Backgammon's work (on the workers).

A production process runs several processes of one kind (uvicorn's ``--workers``, Celery's
pool): each writes its figures to files in ``PROMETHEUS_MULTIPROC_DIR`` (one folder per
service, emptied when the service starts: ``scripts/serve``), and whichever process answers
a scrape adds them up. Without that folder (``make run``, the tests) the figures are the
process's own.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess

logger = logging.getLogger(__name__)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

ACTIONS = Counter(
    "crawford_actions", "Players' actions handled, socket and REST.", ["action", "outcome"]
)
ACTION_SECONDS = Histogram(
    "crawford_action_seconds",
    "Seconds from an action's arrival to its answer (committed, or refused).",
    buckets=LATENCY_BUCKETS,
)
OPEN_SOCKETS = Gauge(
    "crawford_open_sockets", "WebSockets open now, by kind.", ["kind"], multiprocess_mode="livesum"
)
DEADLINE_LATENESS = Histogram(
    "crawford_deadline_lateness_seconds",
    "Seconds from a deadline (a clock, a grace, a show-up time) to the sweep dealing with it.",
    buckets=(0.1, 0.25, 0.5, 0.75, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0),
)
ENGINE_CALLS = Counter("crawford_engine_calls", "Requests to GNU Backgammon.", ["call", "outcome"])
ENGINE_SECONDS = Histogram(
    "crawford_engine_seconds",
    "Seconds GNU Backgammon took to answer.",
    ["call"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0),
)


@contextmanager
def action_timed(action: str) -> Iterator[None]:
    """Count an action and time it; one that raises counts as ``refused``."""
    began = time.perf_counter()
    outcome = "refused"
    try:
        yield
        outcome = "done"
    finally:
        ACTIONS.labels(action, outcome).inc()
        ACTION_SECONDS.observe(time.perf_counter() - began)


def engine_called(call: str, seconds: float, ok: bool) -> None:
    ENGINE_CALLS.labels(call, "answered" if ok else "failed").inc()
    ENGINE_SECONDS.labels(call).observe(seconds)


def registry() -> CollectorRegistry:
    """What a scrape reads: every process of this service's figures, or this process's."""
    if multiprocess_dir() is None:
        from prometheus_client import REGISTRY

        return REGISTRY
    collected = CollectorRegistry()
    multiprocess.MultiProcessCollector(collected)  # type: ignore[no-untyped-call]
    return collected


def multiprocess_dir() -> Path | None:
    folder = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    return Path(folder) if folder else None


def forget_dead_processes() -> None:
    """Drop the live gauges of processes that are gone (a killed worker of this service
    would otherwise count its sockets open for ever)."""
    folder = multiprocess_dir()
    if folder is None or not folder.is_dir():
        return
    for path in folder.glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), str(folder))  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def serve_worker_metrics(port: int) -> None:
    """A Celery worker's figures on ``port`` (its main process, for Prometheus to scrape)."""
    from prometheus_client import start_http_server

    forget_dead_processes()
    start_http_server(port, registry=registry())
    logger.info("worker metrics on port %d", port)
