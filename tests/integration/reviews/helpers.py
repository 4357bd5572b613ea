"""What the analysis tests share: waiting for an analysis as a client polling it would."""

from __future__ import annotations

import time
from typing import Any

from rest_framework.test import APIClient

WAIT_SECONDS = 90


def analysis_finished(client: APIClient, url: str) -> dict[str, Any]:
    """Poll ``url`` until the analysis is done or failed (within ``WAIT_SECONDS``); a match
    that has just finished has it asked for by a task, so it may not be listed at first."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        response = client.get(url)
        if response.status_code == 404 and time.monotonic() < deadline:
            time.sleep(0.1)
            continue
        assert response.status_code == 200, response.json()
        data = response.json()
        if data["status"] in ("done", "failed"):
            return data
        assert time.monotonic() < deadline, f"the analysis never finished: {data}"
        time.sleep(0.25)
