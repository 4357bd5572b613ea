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


if __name__ == "__main__":
    if sys.argv[1:2] == ["claim"]:
        taken = claim()
        print(f"export CRAWFORD_TEST_SLOT={taken}")
        print(f"export REDIS_URL={_url(taken)}")
        print(f"export CRAWFORD_TEST_DATABASE=test_crawford_{taken}")
    elif sys.argv[1:2] == ["release"] and len(sys.argv) == 3:
        release(int(sys.argv[2]))
    else:
        raise SystemExit("usage: test_slot.py claim | release <slot>")
