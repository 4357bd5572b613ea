"""What the fair-play tests share: staff reading the queue as the API serves it."""

from __future__ import annotations

import time
from typing import Any

from accounts.models import User
from tests.integration.matches.helpers import api_for


def cases_seen_by(staff: User, *, within: float = 60.0, **query: str) -> list[dict[str, Any]]:
    """The cases ``GET /api/fairplay/cases/`` lists, waiting up to ``within`` seconds for
    at least one (the detectors run on the Celery worker after the match commits)."""
    deadline = time.monotonic() + within
    while True:
        response = api_for(staff).get("/api/fairplay/cases/", query)
        assert response.status_code == 200, response.json()
        if response.json() or time.monotonic() > deadline:
            return response.json()
        time.sleep(0.2)


def case_seen_by(staff: User, case_id: int) -> dict[str, Any]:
    response = api_for(staff).get(f"/api/fairplay/cases/{case_id}/")
    assert response.status_code == 200, response.json()
    return response.json()
