"""Redis and PostgreSQL servers of a test's own, to stop and start while Crawford runs.

The shared servers of the machine are never stopped: a test that pulls the plug starts a
``PrivateRedis`` (``redis-server`` on a free port, in a temporary folder) or a
``PrivatePostgres`` (a cluster made by ``initdb`` in a temporary folder, on a free port)
and stops and starts that one. Redis keeps an append-only file, as production's does
(docker-compose.yml), so queued tasks outlive a restart. PostgreSQL's programs refuse to run
as root; then they run as the ``postgres`` system user, which owns the folder.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=0.5):
            return True
    except OSError:
        return False


class PrivateRedis:
    """A ``redis-server`` of one's own; ``stop`` and ``start`` keep its port and data."""

    def __init__(self, *, appendfsync: str = "always") -> None:
        """``appendfsync``: "always" loses nothing to a killed server; compose's Redis
        runs "everysec"."""
        self.port = free_port()
        self.appendfsync = appendfsync
        self.folder = Path(tempfile.mkdtemp(prefix="crawford-redis-"))
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, database: int = 0) -> str:
        return f"redis://{HOST}:{self.port}/{database}"

    def start(self) -> PrivateRedis:
        program = shutil.which("redis-server")
        if program is None:
            raise RuntimeError("redis-server is not installed (apt-get install redis-server)")
        self.process = subprocess.Popen(
            [
                *(program, "--bind", HOST, "--port", str(self.port), "--dir", str(self.folder)),
                *("--appendonly", "yes", "--appendfsync", self.appendfsync, "--save", ""),
                *("--logfile", str(self.folder / "redis.log")),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while not _answers(self.port):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        """Stopped as an operator stops it (SIGTERM); what it holds is on disk."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None

    def kill(self) -> None:
        """Gone at once (SIGKILL), as a crashed server or a pulled plug."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=20)
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class PrivatePostgres:
    """A PostgreSQL cluster of one's own: ``initdb`` in a temporary folder, trust
    authentication for ``postgres`` on 127.0.0.1 and a free port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="crawford-postgres-"))
        self.data = self.folder / "data"
        self.bin = _postgres_bin()
        self._as_postgres = os.geteuid() == 0
        if self._as_postgres:
            shutil.chown(self.folder, "postgres")
        self._run(["initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8"])

    def url(self, database: str = "postgres") -> str:
        return f"postgres://postgres@{HOST}:{self.port}/{database}"

    def start(self) -> PrivatePostgres:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses={HOST}"
        log = str(self.folder / "log")
        self._run(["pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start"])
        return self

    def stop(self, mode: str = "fast") -> None:
        """``fast``: sessions are ended and the server stops cleanly; ``immediate``: as a
        crash (recovery at the next start)."""
        self._run(["pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop"], check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, command: list[str], *, check: bool = True) -> None:
        argv = [str(self.bin / command[0]), *command[1:]]
        if self._as_postgres:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        subprocess.run(argv, check=check, capture_output=True, cwd=self.folder)


def _postgres_bin() -> Path:
    """The server programs' folder of the newest PostgreSQL Debian installed."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
    )
    if not found:
        path = shutil.which("initdb")
        if path is None:
            raise RuntimeError("PostgreSQL's initdb is not installed (apt-get install postgresql)")
        return Path(path).parent
    return found[-1].parent
