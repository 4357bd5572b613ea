"""The production web processes hold at most ``DB_POOL_SIZE`` PostgreSQL connections each,
whatever the load: ten times as many requests and sockets at once as the pools hold never
open more (the per-thread connections of ``DB_CONN_MAX_AGE`` once held 99 in one process)."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
import requests
import websockets
from django.conf import settings
from django.test import Client

from bench.shape import Shape
from tests.factories import UserFactory
from tests.workers import _test_database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PROCESSES = 2
POOL = 2
LOAD = 10 * PROCESSES * POOL
NAME = "crawford-bound-test"


def test_ten_times_the_pools_of_requests_and_sockets_stay_within_the_pools() -> None:
    # given the web service with two processes of two pooled connections each
    browser = Client()
    browser.force_login(UserFactory(username="alice"))
    cookie = f"{settings.SESSION_COOKIE_NAME}={browser.cookies[settings.SESSION_COOKIE_NAME].value}"
    shape = Shape(
        database_url=f"{_test_database_url()}?application_name={NAME}",
        redis_url=str(settings.REDIS_URL),
        overrides={
            "WEB_WORKERS": str(PROCESSES),
            "DB_POOL_SIZE": str(POOL),
            "SECRET_KEY": settings.SECRET_KEY,
        },
    )
    seen: list[int] = []
    stop = threading.Event()
    try:
        web = shape.web()
        sampler = threading.Thread(target=_count_connections, args=(seen, stop))
        sampler.start()

        # when forty requests and forty sockets work at once, for a few rounds each
        with ThreadPoolExecutor(LOAD) as pool:
            answers = pool.map(
                lambda _: _pages(web.port, cookie, rounds=5), range(LOAD), timeout=120
            )
            frames = asyncio.run(_sockets(web.port, cookie, rounds=5))
            statuses = [status for statuses in answers for status in statuses]
        stop.set()
        sampler.join()

        # then every one was served, and never with more connections than the pools hold
        assert statuses == [200] * LOAD * 5
        assert frames == LOAD * 5
        assert seen, "no sample of pg_stat_activity was taken"
        assert max(seen) <= PROCESSES * POOL
    finally:
        stop.set()
        shape.stop_all()


def _pages(port: int, cookie: str, *, rounds: int) -> list[int]:
    with requests.Session() as session:
        return [
            session.get(
                f"http://127.0.0.1:{port}/api/me/", headers={"Cookie": cookie}, timeout=60
            ).status_code
            for _ in range(rounds)
        ]


async def _sockets(port: int, cookie: str, *, rounds: int) -> int:
    async def one() -> int:
        answered = 0
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/me/",
            origin=websockets.Origin(f"http://127.0.0.1:{port}"),
            additional_headers={"Cookie": cookie},
            open_timeout=60,
        ) as socket:
            for _ in range(rounds):
                await socket.send('{"type": "page", "url": "/"}')
                while '"page"' not in await asyncio.wait_for(socket.recv(), 60):
                    pass
                answered += 1
        return answered

    return sum(await asyncio.gather(*(one() for _ in range(LOAD))))


def _count_connections(seen: list[int], stop: threading.Event) -> None:
    with psycopg.connect(_test_database_url(), autocommit=True) as watcher:
        while not stop.is_set():
            row = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [NAME]
            ).fetchone()
            seen.append(int(row[0]) if row else 0)
            time.sleep(0.02)
