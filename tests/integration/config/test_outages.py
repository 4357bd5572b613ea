"""Pulling the plug on Redis or PostgreSQL, for seconds, on servers of the test's own: the
API answers 503 with ``Retry-After`` and a JSON body (never an HTML 500), pages that need
no Redis keep working, the workers and beat carry on by themselves once it is back, a
task asked for meanwhile is sent then, and a web process outlives a restart of PostgreSQL
without one of its own. (``make faults`` pulls the same plugs for minutes, in the middle of
matches and a tournament.)"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from django.core.cache import caches
from django.test import Client, override_settings
from rest_framework.test import APIClient

from bench.shape import ROOT, Shape
from core.models import Beat, DeferredTask
from tests.factories import UserFactory
from tests.private_services import PrivatePostgres, PrivateRedis
from tests.workers import _test_database_url

pytestmark = pytest.mark.slow

OUTAGE_SECONDS = 8  # long enough for every reconnection to fail a few times


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis().start()
    try:
        yield server
    finally:
        server.close()


def until(condition: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {seconds:.0f} s")


@pytest.mark.django_db
def test_the_api_answers_503_with_retry_after_while_redis_is_away(
    private_redis: PrivateRedis,
) -> None:
    # given the rate limits counted in a Redis that then goes away
    player = UserFactory(username="alice")
    api = APIClient()
    api.force_authenticate(player)
    cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache"}
    with override_settings(CACHES={"default": {**cache, "LOCATION": private_redis.url()}}):
        assert api.get("/api/me/").status_code == 200
        private_redis.stop()

        # when a program calls the API, and a person opens a page that needs no Redis
        answer = api.get("/api/me/")
        page = Client().get("/ratings/")

        # then the program is told to come back, in JSON; the person sees the page
        assert answer.status_code == 503
        assert answer["Retry-After"] == "5"
        assert answer.json()["unavailable"] == "redis"
        assert "try again" in answer.json()["detail"].lower()
        assert page.status_code == 200

        # and once Redis is back, the API answers again by itself
        private_redis.start()
        assert api.get("/api/me/").status_code == 200
        caches["default"].close()


@pytest.mark.django_db(transaction=True)
def test_workers_and_beat_carry_on_after_redis_is_away_and_send_what_was_asked_meanwhile(
    private_redis: PrivateRedis,
) -> None:
    # given a worker and beat on a Redis of their own, the sweeps running
    shape = Shape(database_url=_test_database_url(), redis_url=private_redis.url())
    try:
        worker, beat = shape.worker("default"), shape.beat()
        ran = until(_sweep_ran_at, 60, "the first sweep")

        # when Redis goes away, and meanwhile a task is asked for
        private_redis.stop()
        _enqueue_in_a_process(shape, "crawford.ping")
        kept = list(DeferredTask.objects.values_list("name", flat=True))
        time.sleep(OUTAGE_SECONDS)
        private_redis.start()

        # then the sweeps run again without anyone restarting anything
        until(lambda: (_sweep_ran_at() or ran) > ran, 60, "a sweep after the outage")
        assert worker.popen.poll() is None
        assert beat.popen.poll() is None
        # and the task asked for during the outage was kept, then sent
        assert kept == ["crawford.ping"]
        until(lambda: not DeferredTask.objects.exists(), 30, "the kept task sent")
    finally:
        shape.stop_all()


def _sweep_ran_at() -> Any:
    return (
        Beat.objects.filter(name="matches.sweep_deadlines").values_list("ran_at", flat=True).first()
    )


def _enqueue_in_a_process(shape: Shape, task: str) -> None:
    code = f"import django; django.setup(); from core.tasks import enqueue; enqueue({task!r})"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=shape.env(), check=True, timeout=60)


@pytest.fixture
def private_postgres(django_db_blocker: Any) -> Iterator[PrivatePostgres]:
    """A cluster of the test's own holding a copy of the test database."""
    server = PrivatePostgres().start()
    try:
        url = server.create_database("crawford")
        with django_db_blocker.unblock():
            dump = subprocess.run(
                ["pg_dump", "--no-owner", "--no-privileges", _test_database_url()],
                capture_output=True,
                check=True,
            ).stdout
        subprocess.run(["psql", "-q", url], input=dump, capture_output=True, check=True)
        yield server
    finally:
        server.close()


@pytest.mark.django_db(transaction=True)
def test_a_web_process_answers_503_while_postgres_restarts_and_recovers_by_itself(
    private_postgres: PrivatePostgres,
) -> None:
    # given the production web process on a PostgreSQL of the test's own
    shape = Shape(
        database_url=private_postgres.url("crawford"),
        redis_url=_redis_url(),
        overrides={"WEB_WORKERS": "1", "DB_POOL_SIZE": "2"},
    )
    try:
        web = shape.web()
        base = f"http://127.0.0.1:{web.port}"
        assert requests.get(f"{base}/api/schema/", timeout=10).status_code == 200

        # when PostgreSQL stops
        private_postgres.stop()
        api, page = _get(f"{base}/api/seeks/"), _get(f"{base}/ratings/", json=False)

        # then the API and the pages answer 503 with Retry-After, the API in JSON
        assert (api.status_code, api.headers["Retry-After"]) == (503, "5")
        assert api.json()["unavailable"] == "database"
        assert (page.status_code, page.headers["Retry-After"]) == (503, "5")
        assert "Back in a moment" in page.text

        # and once it is back, the same process answers again, every request
        private_postgres.start()
        until(lambda: _get(f"{base}/api/seeks/").status_code == 200, 30, "an answer")
        answers = [_get(f"{base}/api/seeks/").status_code for _ in range(5)]
        assert answers == [200] * 5
        assert web.popen.poll() is None
    finally:
        shape.stop_all()


def _get(url: str, *, json: bool = True) -> requests.Response:
    return requests.get(url, timeout=30, headers={"Accept": "application/json" if json else "*/*"})


def _redis_url() -> str:
    from django.conf import settings

    return str(settings.REDIS_URL)
