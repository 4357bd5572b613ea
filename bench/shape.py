"""Crawford's production processes, started on this machine as docker-compose.yml starts them.

Every process starts through ``scripts/serve`` (the services' command in compose) with the
tunables of ``deploy/crawford.env`` (the services' ``env_file``); only what names this
machine's services is set here: the database and Redis to use, a secret, plain HTTP on
127.0.0.1. The benchmarks, the fault suite and the tests of the production shape all start
their servers, workers and beat through ``Shape``, so a figure they print is the shipped
deployment's, not a shape of their own.

``Shape.check_logs`` reads every process's log for a traceback or an ERROR line: a run whose
processes failed somewhere is not a figure.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV_FILE = ROOT / "deploy" / "crawford.env"
PGBOUNCER_ENV = ROOT / "deploy" / "pgbouncer.env"
NGINX_TEMPLATE = ROOT / "deploy" / "nginx" / "crawford.conf.template"
SERVE = ROOT / "scripts" / "serve"
VENV_BIN = ROOT / ".venv" / "bin"
HOST = "127.0.0.1"
TROUBLE = re.compile(r"Traceback \(most recent call last\)|\bERROR\b|\bCRITICAL\b")


def deployment_env(path: Path = ENV_FILE) -> dict[str, str]:
    """An env file of ``deploy/`` as a dict (``NAME=value`` lines; ``#`` starts a comment)."""
    values = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def local_env(*, database_url: str, redis_url: str, **overrides: str) -> dict[str, str]:
    """The environment of a Crawford process here: compose's, on this machine's services."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "DJANGO_"))},
        **deployment_env(),
        "PATH": f"{VENV_BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SECRET_KEY": "crawford-local-shape-only",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        # Plain HTTP on this machine, no proxy in front (compose's comment says the same).
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "TRUSTED_PROXY_COUNT": "0",
        "HOST": HOST,
        **overrides,
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class Process:
    name: str
    popen: subprocess.Popen[bytes]
    log: Path
    port: int | None = None

    def tree(self) -> list[int]:
        """This process and its descendants now (uvicorn's and Celery's workers)."""
        return [self.popen.pid, *descendants(self.popen.pid)]


@dataclass
class Shape:
    """Crawford's processes on this machine; ``stop`` ends them all."""

    database_url: str
    redis_url: str
    overrides: dict[str, str] = field(default_factory=dict)
    logs: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="crawford-shape-")))
    processes: list[Process] = field(default_factory=list)

    def env(self, **more: str) -> dict[str, str]:
        """A process's environment: compose's on this machine's services, with each
        service's metrics folder under this run's own."""
        return local_env(
            database_url=self.database_url,
            redis_url=self.redis_url,
            **{"METRICS_ROOT": str(self.logs / "metrics"), **self.overrides, **more},
        )

    def start(self, name: str, *arguments: str, port: int | None = None, **env: str) -> Process:
        log = self.logs / f"{name}.log"
        popen = subprocess.Popen(
            [str(SERVE), *arguments],
            cwd=ROOT,
            env=self.env(**env),
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the group is the process and its children, killed at the end
        )
        process = Process(name, popen, log, port)
        self.processes.append(process)
        return process

    def web(self, name: str = "web", *, port: int | None = None, **env: str) -> Process:
        """``scripts/serve web`` on a free port; waits until ``/healthz`` answers."""
        port = port or free_port()
        process = self.start(name, "web", str(port), port=port, **env)
        wait_for_http(process, f"http://{HOST}:{port}/healthz")
        return process

    def worker(self, queues: str, *, name: str | None = None, **env: str) -> Process:
        """``scripts/serve worker QUEUES``; its metrics on a free port (``metrics_port``)."""
        env = {"WORKER_METRICS_PORT": str(free_port()), **env}
        process = self.start(name or f"worker-{queues.replace(',', '-')}", "worker", queues, **env)
        process.port = int(env["WORKER_METRICS_PORT"])
        return process

    def beat(self, **env: str) -> Process:
        return self.start("beat", "beat", **env)

    def pgbouncer(self, *, prepared_statements: bool) -> str:
        """PgBouncer (Debian's program) in front of this shape's PostgreSQL, set as
        ``deploy/pgbouncer.env`` sets compose's; the address to use as ``DATABASE_URL``.

        ``max_prepared_statements`` needs PgBouncer 1.21: with an older program, pass
        ``prepared_statements=False`` and run the processes with
        ``DB_PREPARED_STATEMENTS=false``.
        """
        from urllib.parse import urlsplit

        upstream = urlsplit(self.database_url)
        settings = deployment_env(PGBOUNCER_ENV)
        port = free_port()
        if not prepared_statements:
            settings.pop("MAX_PREPARED_STATEMENTS", None)
        settings["LISTEN_PORT"] = str(port)
        folder = self.logs / "pgbouncer"
        folder.mkdir(exist_ok=True)
        as_root = os.geteuid() == 0
        if as_root:  # PgBouncer refuses to run as root: as postgres, reading its own folder
            os.chmod(self.logs, 0o755)
            shutil.chown(folder, "postgres")
        database = upstream.path.lstrip("/")
        ini = [
            "[databases]",
            f"{database} = host={upstream.hostname} port={upstream.port or 5432}"
            f" dbname={database} user={upstream.username or 'postgres'}",
            "[pgbouncer]",
            f"listen_addr = {HOST}",
            "auth_type = trust",
            f"auth_file = {folder / 'users.txt'}",
            f"unix_socket_dir = {folder}",
            f"pidfile = {folder / 'pgbouncer.pid'}",
            *(f"{name.lower()} = {value}" for name, value in settings.items()),
        ]
        (folder / "users.txt").write_text(f'"{upstream.username or "postgres"}" ""\n')
        (folder / "pgbouncer.ini").write_text("\n".join(ini) + "\n")
        log = self.logs / "pgbouncer.log"
        popen = subprocess.Popen(
            ["pgbouncer", str(folder / "pgbouncer.ini")],
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
            user="postgres" if as_root else None,
        )
        self.processes.append(Process("pgbouncer", popen, log, port))
        wait_for_port(port, popen)
        user = upstream.username or "postgres"
        return f"postgres://{user}@{HOST}:{port}/{database}"

    def proxy(self, *webs: Process) -> Process:
        """nginx in front of two web services, with ``deploy/nginx``'s template; it listens
        on ``.port``."""
        port = free_port()
        values = {
            "CRAWFORD_WEB_A": f"{HOST}:{webs[0].port}",
            "CRAWFORD_WEB_B": f"{HOST}:{webs[-1].port}",
            "CRAWFORD_PROXY_PORT": f"{HOST}:{port}",
        }
        site = NGINX_TEMPLATE.read_text()
        for name, value in values.items():
            site = site.replace("${" + name + "}", value)
        folder = self.logs / "nginx"
        folder.mkdir(exist_ok=True)
        (folder / "nginx.conf").write_text(
            f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
            "worker_processes 1;\nevents { worker_connections 8192; }\n"
            f"http {{\n  access_log off;\n  client_body_temp_path {folder};\n"
            f"  proxy_temp_path {folder};\n{site}\n}}\n"
        )
        log = self.logs / "nginx.log"
        popen = subprocess.Popen(
            ["nginx", "-c", str(folder / "nginx.conf"), "-p", str(folder)],
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        process = Process("proxy", popen, log, port)
        self.processes.append(process)
        wait_for_port(port, popen)
        return process

    def all_pids(self) -> list[int]:
        return [pid for process in self.processes for pid in process.tree()]

    def stop(self, process: Process, *, timeout: float = 30) -> None:
        """SIGTERM to the process, as a container's stop sends it to the container's first
        process (``scripts/serve`` execs the server, so that is uvicorn's supervisor or
        Celery's main process, which stop their own children); SIGKILL to the whole group
        after ``timeout``. A SIGTERM to the group would reach a worker's pool children
        behind their parent's back, which no deployment does."""
        if process.popen.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.popen.pid, signal.SIGTERM)
            try:
                process.popen.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(process.popen.pid, signal.SIGKILL)
                process.popen.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):  # a child its parent left behind
            os.killpg(process.popen.pid, signal.SIGKILL)
        if process in self.processes:
            self.processes.remove(process)

    def stop_all(self) -> None:
        for process in list(reversed(self.processes)):
            self.stop(process)

    def check_logs(self) -> list[str]:
        """Lines of every log that tell of a failure: a traceback, ERROR or CRITICAL."""
        found = []
        for log in sorted(self.logs.glob("*.log")):
            for line in log.read_text(errors="replace").splitlines():
                if TROUBLE.search(line):
                    found.append(f"{log.name}: {line.strip()[:300]}")
        return found


def wait_for_http(process: Process, url: str, *, seconds: float = 60) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.popen.poll() is not None:
            raise RuntimeError(
                f"{process.name} stopped at start:\n{process.log.read_text()[-3000:]}"
            )
        try:
            with urllib.request.urlopen(url, timeout=10):
                return
        except urllib.error.HTTPError:
            return  # it answers (a 503 names a part that is down, not a server that is)
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{process.name} did not answer {url} within {seconds:.0f} s")


def wait_for_port(port: int, popen: subprocess.Popen[bytes], *, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if popen.poll() is not None:
            raise RuntimeError(f"a process stopped before listening on {port}")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listened on port {port} within {seconds:.0f} s")


def descendants(pid: int) -> list[int]:
    """Every process below ``pid``, read from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found
