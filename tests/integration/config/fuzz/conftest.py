"""The fuzz tests' callers and the schema they read; no rate limit while they run."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from pytest_django import Settings

from accounts.roles import Role
from tests.integration.config.fuzz.fuzzing import (
    Caller,
    connections_kept,
    draft_of,
    match_of,
    users_of,
)


@pytest.fixture(autouse=True)
def no_rate_limits(settings: Settings) -> None:
    """A 429 is always a documented answer, so a spent budget would hide what the
    operation does with the request (the limits have tests of their own)."""
    settings.CRAWFORD_THROTTLE_RATES = dict.fromkeys(settings.CRAWFORD_THROTTLE_RATES, "1000/s")


@pytest.fixture
def player(db: None) -> Caller:
    user, rival = users_of(Role.PLAYER)
    return Caller(
        user=user, path={"match_id": match_of(user, rival)}, body={"opponent": rival.username}
    )


@pytest.fixture
def staff(db: None) -> Caller:
    user, rival = users_of(Role.STAFF)
    return Caller(
        user=user,
        path={"match_id": match_of(user, rival), "username": lambda: rival.username},
        body={"opponent": rival.username},
    )


@pytest.fixture
def organizer(db: None) -> Caller:
    user, _ = users_of(Role.ORGANIZER)
    return Caller(user=user, path={"tournament_id": draft_of(user)})


@pytest.fixture
def api_schema(db: None) -> Any:
    """The schema as /api/schema/ serves it, calling the application in this process."""
    with connections_kept():
        return schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
