"""The embedded set-up as ``make run`` serves it, for tests: a SQLite file, no Redis, no
worker, uvicorn serving ``config.asgi:application``.

A test prepares the database with a script run by ``manage.py shell`` (before the server
starts, so the two never write SQLite at once), then talks to the server over HTTP or
drives a browser to it. Nothing here touches the test run's own database.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.workers import ROOT

STARTUP_SECONDS = 60


def embedded_env(database: Path) -> dict[str, str]:
    """The environment of ``make run`` on the SQLite file ``database``."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name
        not in {"REDIS_URL", "DATABASE_URL", "CRAWFORD_TEST_DATABASE", "CRAWFORD_TEST_REDIS_URLS"}
    }
    return {**env, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "true"}


def prepare(env: dict[str, str], script: str) -> str:
    """Migrate the database, run ``script`` in ``manage.py shell``; returns what it printed."""
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--no-input", "-v", "0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [*manage, "shell", "-c", script], cwd=ROOT, env=env, check=True, capture_output=True
    )
    return made.stdout.decode()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class EmbeddedServer:
    """A running embedded server: its address, and reads of its API."""

    def __init__(self, process: subprocess.Popen[bytes], port: int) -> None:
        self.process = process
        self.url = f"http://127.0.0.1:{port}"

    def running(self) -> bool:
        return self.process.poll() is None

    def get_json(self, path: str) -> Any:
        """GET ``path`` as a visitor; ``OSError`` when the server does not answer."""
        with urllib.request.urlopen(f"{self.url}{path}", timeout=5) as answer:
            return json.loads(answer.read())

    def wait_until_answering(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert self.running(), "the embedded server stopped"
            try:
                self.get_json("/healthz")
                return
            except urllib.error.HTTPError:
                return  # it answers, whatever it thinks of its own health
            except OSError:
                assert time.monotonic() < deadline, "the embedded server never answered"
                time.sleep(0.2)


@contextmanager
def embedded_server(env: dict[str, str]) -> Iterator[EmbeddedServer]:
    """The server as ``make run`` starts it, on a free port, stopped on leaving the block."""
    port = free_port()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "uvicorn", "config.asgi:application"),
            *("--port", str(port), "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        yield EmbeddedServer(process, port)
    finally:
        process.terminate()
        process.wait(timeout=30)
