"""Give one test run a PostgreSQL test database and a Redis database of its own.

Two runs on one machine (two checkouts, CI beside a developer) must never take each
other's Celery tasks or drop each other's test database. ``claim`` finds a free slot
among Redis databases 2 to 15 by setting a key there that expires (a run that dies
frees its slot within the hour) and prints the environment of that slot:
``REDIS_URL`` (the slot's Redis database) and ``CRAWFORD_TEST_DATABASE``
(``test_crawford_<slot>``). ``release <slot>`` frees it.

    eval "$(.venv/bin/python scripts/test_slot.py claim)"
    ...
    .venv/bin/python scripts/test_slot.py release "$CRAWFORD_TEST_SLOT"

``claim <n>`` claims ``n`` slots for a run split over ``n`` processes (pytest-xdist): the
first is the run's, and ``CRAWFORD_TEST_REDIS_URLS`` lists one Redis database per process
(``config.settings`` gives worker ``gwK`` the K-th). ``release`` takes them all.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit, urlunsplit

import redis

SLOTS = range(2, 16)
CLAIM_SECONDS = 3600
KEY = "crawford:test-run"


def _base_url() -> str:
    return os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def _url(slot: int) -> str:
    parts = urlsplit(_base_url())
    return urlunsplit((parts.scheme, parts.netloc, f"/{slot}", parts.query, parts.fragment))


def claim() -> int:
    for slot in SLOTS:
        client = redis.Redis.from_url(_url(slot))
        if client.set(KEY, os.getpid(), nx=True, ex=CLAIM_SECONDS):
            client.flushdb()  # what a dead run left: queued tasks naming rows of its database
            client.set(KEY, os.getpid(), ex=CLAIM_SECONDS)
            return slot
    raise SystemExit("Every test slot (Redis databases 2-15) is taken: wait for a run to end.")


def release(slot: int) -> None:
    redis.Redis.from_url(_url(slot)).flushdb()


def claim_many(count: int) -> list[int]:
    taken: list[int] = []
    try:
        for _ in range(count):
            taken.append(claim())
    except SystemExit:
        for slot in taken:
            release(slot)
        raise
    return taken


if __name__ == "__main__":
    if sys.argv[1:2] == ["claim"] and len(sys.argv) <= 3:
        slots = claim_many(int(sys.argv[2]) if len(sys.argv) == 3 else 1)
        print(f"export CRAWFORD_TEST_SLOT='{' '.join(str(slot) for slot in slots)}'")
        print(f"export REDIS_URL={_url(slots[0])}")
        print(f"export CRAWFORD_TEST_DATABASE=test_crawford_{slots[0]}")
        print(f"export CRAWFORD_TEST_REDIS_URLS={','.join(_url(slot) for slot in slots)}")
    elif sys.argv[1:2] == ["release"] and len(sys.argv) >= 3:
        for slot in sys.argv[2:]:
            release(int(slot))
    else:
        raise SystemExit("usage: test_slot.py claim [n] | release <slot> [<slot> ...]")
