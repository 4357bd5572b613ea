"""/healthz reports each part (database, Redis, a worker on every queue, the engine and
whether it can analyse, the deadline sweep) and names the one that is down; /healthz/live
only says the web process serves."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import Settings as SettingsWrapper

from config import health
from core.models import Beat
from matches.tasks import sweep_deadlines
from tests.workers import start_worker, stop_worker

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def every_queue_taken(celery_worker_process: None) -> Iterator[None]:
    """The suite's worker takes default and analysis; one more takes review, as the
    production review worker does."""
    worker = start_worker(queues="review", name="health-review")
    try:
        yield
    finally:
        stop_worker(worker)


@pytest.mark.usefixtures("every_queue_taken")
def test_healthy_when_every_part_answers(client: Client) -> None:
    sweep_deadlines.apply(kwargs={"passes": 1})

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "redis": "ok",
        "celery": "ok",
        "engine": "ok: the program /usr/games/gnubg",
        "analysis": "ok",
        "sweeps": "ok",
    }


@pytest.mark.usefixtures("celery_worker_process")
def test_a_queue_no_worker_takes_is_named(client: Client) -> None:
    sweep_deadlines.apply(kwargs={"passes": 1})

    body = client.get("/healthz").json()

    assert body["celery"] == "down: no worker takes review"
    assert body["down"] == "celery"


def test_503_naming_redis_when_it_is_unreachable(client: Client, settings: SettingsWrapper) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    sweep_deadlines.apply(kwargs={"passes": 1})

    response = client.get("/healthz")

    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "ok"
    assert body["redis"].startswith("down")
    assert body["celery"] == "down: broker unreachable"
    assert body["down"] == "redis, celery"


def test_a_sweep_that_stopped_is_named_with_its_age(client: Client) -> None:
    Beat.objects.update_or_create(
        name=health.SWEEP, defaults={"ran_at": timezone.now() - timedelta(minutes=3)}
    )

    body = client.get("/healthz").json()

    # (the other checks take their seconds between the row's writing and the report)
    assert re.fullmatch(r"down: the deadline sweep last ran 18\d s ago", body["sweeps"])
    assert "sweeps" in body["down"]


def test_a_sweep_that_never_ran_is_named(client: Client) -> None:
    body = client.get("/healthz").json()

    assert body["sweeps"] == "down: the deadline sweep has never run"


def test_a_missing_engine_program_is_named(client: Client, settings: SettingsWrapper) -> None:
    settings.CRAWFORD_ENGINE = "program"
    settings.GNUBG_PROGRAM = "/nowhere/gnubg"

    body = client.get("/healthz").json()

    assert body["engine"] == (
        "down: GNU Backgammon is not installed at /nowhere/gnubg: apt-get install gnubg"
    )
    assert "engine" in body["down"]


def test_the_live_check_answers_whatever_is_down(client: Client, settings: SettingsWrapper) -> None:
    settings.REDIS_URL = "redis://127.0.0.1:1/0"

    response = client.get("/healthz/live")

    assert (response.status_code, response.json()) == (200, {"web": "ok"})
