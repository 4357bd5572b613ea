"""A server that dies or stops leaves no connection behind that keeps a match from ending.

The ASGI server runs as a real process on the test database and Redis; a player's browser
is a WebSocket client. Killed with SIGKILL, the server runs no disconnect logic at all:
its connection rows stop being marked seen and the sweep closes them. Stopped with SIGTERM,
it closes its sockets within a bounded drain time and runs the disconnect logic itself.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import websockets
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts import ledger
from matches import presence
from matches.events import match_group
from matches.models import Action, ActionKind, Match, MatchConnection
from matches.tasks import sweep_deadlines
from tests.factories import UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.matches.sockets import group_subscribers
from tests.workers import ROOT, _test_database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]
DRAIN_SECONDS = 10


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def server() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """The production ASGI server (uvicorn, as docker-compose runs it) on a free port."""
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": settings.REDIS_URL or "",
        "SECRET_KEY": settings.SECRET_KEY,
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--timeout-graceful-shutdown",
            str(DRAIN_SECONDS),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    deadline = time.monotonic() + 30
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert process.poll() is None, "the server did not start"
        assert time.monotonic() < deadline, "the server did not listen within 30 s"
        time.sleep(0.2)
    yield process, port
    if process.poll() is None:
        process.kill()
        process.wait()


def _cookie(user: Any) -> str:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}"


async def _board_open(
    port: int, match_id: int, cookie: str, opened: asyncio.Event | None = None
) -> int | None:
    """Open the board as a browser would, read it until the server closes it; the close code.
    ``opened`` is set once the server has sent the board's first frame."""
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/matches/{match_id}/",
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        additional_headers={"Cookie": cookie},
    ) as board:
        try:
            async for _ in board:
                if opened is not None:
                    opened.set()
        except websockets.ConnectionClosed:
            pass
        return board.close_code


def _connected(match_id: int) -> bool:
    return MatchConnection.objects.filter(match_id=match_id, seat=0).exists()


def _connected_in_thread(match_id: int) -> bool:
    """``_connected`` from a worker thread, closing that thread's connection after."""
    try:
        return _connected(match_id)
    finally:
        connection.close()


def test_a_killed_server_leaves_rows_the_sweep_closes_and_the_grace_starts(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    # given alice's board open on a server
    process, port = server
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, stake_cents=STAKE, currency="FUN")
    cookie = _cookie(alice)

    async def open_then_kill() -> None:
        task = asyncio.create_task(_board_open(port, match_id, cookie))
        while not await asyncio.to_thread(_connected_in_thread, match_id):
            await asyncio.sleep(0.1)
        # when the server is killed outright
        process.send_signal(signal.SIGKILL)
        process.wait()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(open_then_kill())

    # then the row is still there (nothing ran), until the beat's sweep finds it unseen
    # longer than a live server would ever leave it
    assert _connected(match_id)
    assert Match.objects.get(pk=match_id).grace_ends_0 is None
    MatchConnection.objects.filter(match_id=match_id).update(
        seen_at=timezone.now() - presence.CONNECTION_TTL - timedelta(seconds=1)
    )
    sweep_deadlines()
    match = Match.objects.get(pk=match_id)
    assert not _connected(match_id)
    assert match.grace_ends_0 is not None
    assert Action.objects.filter(match=match, kind=ActionKind.DISCONNECT, seat=0).exists()
    assert asyncio.run(group_subscribers(match_group(match_id))) == 0  # gone with the server
    _assert_money_kept(alice, bruno, match_id)


STAKE = 500


def _assert_money_kept(alice: Any, bruno: Any, match_id: int) -> None:
    """Both stakes are in the match's escrow and the books balance."""
    grant = settings.CRAWFORD_FUN_GRANT_CENTS
    for player in (alice, bruno):
        assert ledger.balance(user=player, currency="FUN") == grant - STAKE
    assert ledger.escrow_balance(escrow_ref=f"match:{match_id}", currency="FUN") == 2 * STAKE
    assert ledger.currency_total("FUN") == 0


def test_a_stopped_server_closes_its_sockets_and_runs_their_disconnect_logic(
    server: tuple[subprocess.Popen[bytes], int],
) -> None:
    process, port = server
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3, stake_cents=STAKE, currency="FUN")
    cookie = _cookie(alice)
    stopped_at: list[float] = []
    codes: list[int | None] = []

    async def open_then_stop() -> None:
        opened = asyncio.Event()
        task = asyncio.create_task(_board_open(port, match_id, cookie, opened))
        await asyncio.wait_for(opened.wait(), 30)  # the board is open: its socket accepted
        process.send_signal(signal.SIGTERM)
        stopped_at.append(time.monotonic())
        codes.append(await asyncio.wait_for(task, DRAIN_SECONDS + 10))

    asyncio.run(open_then_stop())
    process.wait(timeout=DRAIN_SECONDS + 10)

    assert time.monotonic() - stopped_at[0] < DRAIN_SECONDS + 10
    assert codes == [1012]  # "service restart": the browser reconnects to another server
    assert not _connected(match_id)
    assert Match.objects.get(pk=match_id).grace_ends_0 is not None
    assert asyncio.run(group_subscribers(match_group(match_id))) == 0  # no dead channel names
    _assert_money_kept(alice, bruno, match_id)
