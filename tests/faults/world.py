"""The fault suite's world: private PostgreSQL and Redis, the production processes on them,
and the players, made the way the site makes them."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from dataclasses import dataclass, field
from typing import Any

import requests

from bench.shape import ROOT, SERVE, Process, Shape
from tests.private_services import PrivatePostgres, PrivateRedis

SECRET = "crawford-faults-only"
PASSWORD = "fault-suite-password"
# The production settings, but for the rate limits: a few dozen players share 127.0.0.1.
LOOSE_LIMITS = {
    f"CRAWFORD_THROTTLE_{scope}": "100000/minute"
    for scope in ("ANON", "USER", "LOGIN", "SIGNUP", "CHAT", "CHALLENGE")
}
RESTART_AFTER = 1.0  # compose's restart policy starts a stopped service again about this soon


@dataclass
class Account:
    username: str
    token: str
    cookie: str
    user_id: int


@dataclass
class World:
    postgres: PrivatePostgres
    redis: PrivateRedis
    shape: Shape
    web: Process | None = None
    services: dict[str, Process] = field(default_factory=dict)

    @classmethod
    def create(cls) -> World:
        postgres = PrivatePostgres().start()
        redis = PrivateRedis().start()
        database_url = postgres.create_database("crawford")
        shape = Shape(
            database_url=database_url,
            redis_url=redis.url(),
            overrides={"SECRET_KEY": SECRET, **LOOSE_LIMITS},
        )
        subprocess.run(
            [str(SERVE), "migrate"], cwd=ROOT, env=shape.env(), check=True, capture_output=True
        )
        # This process reads and checks the same database through Django.
        for name in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY"):
            os.environ[name] = shape.env()[name]
        os.environ.update(DEBUG="false", DJANGO_SETTINGS_MODULE="config.settings")
        import django

        django.setup()
        return cls(postgres=postgres, redis=redis, shape=shape)

    # ---- the production processes

    def start_all(self) -> None:
        self.web = self.shape.web()
        for queue in ("default", "analysis", "review"):
            self.services[queue] = self.shape.worker(queue)
        self.services["beat"] = self.shape.beat()

    @property
    def base(self) -> str:
        assert self.web is not None
        assert self.web.port is not None
        return f"http://127.0.0.1:{self.web.port}"

    def restart_web(self) -> None:
        """The web service started again on its port, as compose restarts it."""
        assert self.web is not None
        port = self.web.port
        if self.web.popen.poll() is None:
            self.shape.stop(self.web)
        elif self.web in self.shape.processes:
            self.shape.processes.remove(self.web)
        time.sleep(RESTART_AFTER)
        self.web = self.shape.web(port=port)

    def restart(self, name: str) -> Process:
        """A Celery worker (by queue) or beat, started again after it stopped."""
        old = self.services[name]
        if old in self.shape.processes:
            self.shape.processes.remove(old)
        time.sleep(RESTART_AFTER)
        started = self.shape.beat() if name == "beat" else self.shape.worker(name)
        self.services[name] = started
        return started

    def healthy(self) -> bool:
        try:
            return requests.get(f"{self.base}/healthz", timeout=10).status_code == 200
        except requests.RequestException:
            return False

    def close(self) -> None:
        self.shape.stop_all()
        self.redis.close()
        self.postgres.close()

    # ---- people

    def account(self, username: str, *, role: str = "player") -> Account:
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.test.utils import override_settings
        from knox.models import AuthToken

        from accounts.roles import Role
        from accounts.services import user_create
        from accounts.sessions import SessionStore

        with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            user = user_create(username=username, password=PASSWORD, role=Role(role))
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        _, token = AuthToken.objects.create(user)
        return Account(username, token, f"sessionid={session.session_key}", user.pk)

    # ---- the API, as a program calls it: a 503 is waited out as Retry-After says

    async def call(
        self, account: Account, method: str, path: str, body: dict[str, Any] | None = None
    ) -> Any:
        deadline = time.monotonic() + 300
        while True:
            try:
                answer = await asyncio.to_thread(
                    requests.request,
                    method,
                    f"{self.base}{path}",
                    json=body,
                    headers={"Authorization": f"Token {account.token}"},
                    timeout=30,
                )
            except requests.RequestException:
                answer = None
            if answer is not None and answer.status_code < 500:
                if answer.status_code >= 400:
                    raise CallRefused(f"{method} {path}: {answer.status_code} {answer.text[:300]}")
                return answer.json() if answer.content else None
            if answer is not None and answer.status_code != 503:
                raise CallRefused(f"{method} {path}: {answer.status_code} {answer.text[:300]}")
            if time.monotonic() > deadline:
                raise CallRefused(f"{method} {path}: unavailable for five minutes")
            wait = float(answer.headers.get("Retry-After", 1)) if answer is not None else 1.0
            await asyncio.sleep(min(wait, 5.0))


class CallRefused(Exception):
    """The API refused a call the players make only when it should succeed."""
