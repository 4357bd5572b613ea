"""Benchmark: money-game settlements per second through the ledger, against a bare write.

On PostgreSQL (``DATABASE_URL``, as for the tests) in a throwaway test database, times in
the same run:

* ledger: ``transfer_between_players`` between two players (idempotency key, two player
  rows locked in primary-key order, three entries, two cached balances, commission to
  the house, the deferred zero-sum trigger at commit), each in its own transaction;
* baseline: one bare ``LedgerTransaction`` insert per transaction, the least any recorded
  movement costs;
* contended: the ledger again, from eight threads paying among eight players at once.

Prints settlements per second of each and the ledger's as a ratio to the baseline.
Run: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/crawford .venv/bin/python
bench/bench_ledger.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "crawford-bench-only")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from accounts import ledger  # noqa: E402
from accounts.models import LedgerTransaction, TransactionKind, User  # noqa: E402
from accounts.services import user_create  # noqa: E402

SETTLEMENTS = 400
THREADS = 8


def players(count: int) -> list[User]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return [user_create(username=f"bench{n}", password="bench-password") for n in range(count)]


def ledger_rate(pairs: list[tuple[User, User]], prefix: str) -> float:
    start = time.perf_counter()
    for number, (payer, payee) in enumerate(pairs):
        ledger.transfer_between_players(
            payer=payer,
            payee=payee,
            currency="FUN",
            amount_cents=100,
            commission_cents=14,
            key=f"{prefix}:{number}",
        )
    return len(pairs) / (time.perf_counter() - start)


def baseline_rate(count: int) -> float:
    start = time.perf_counter()
    for number in range(count):
        LedgerTransaction.objects.create(key=f"bare:{number}", kind=TransactionKind.TRANSFER)
    return count / (time.perf_counter() - start)


def contended_rate(everyone: list[User]) -> float:
    rng = random.Random(3)
    jobs = [rng.sample(everyone, 2) for _ in range(SETTLEMENTS)]
    chunks = [jobs[n::THREADS] for n in range(THREADS)]

    def run(index: int) -> None:
        try:
            ledger_rate([(a, b) for a, b in chunks[index]], f"contended:{index}")
        finally:
            connection.close()

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        list(pool.map(run, range(THREADS)))
    return SETTLEMENTS / (time.perf_counter() - start)


def main() -> None:
    if connection.vendor != "postgresql":
        raise SystemExit("set DATABASE_URL to a PostgreSQL server: the bench measures its locks")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        everyone = players(THREADS)
        alice, bruno = everyone[:2]
        pairs = [(alice, bruno) if n % 2 else (bruno, alice) for n in range(SETTLEMENTS)]
        ledger_rate(pairs[:20], "warm-up")
        ours = ledger_rate(pairs, "ledger")
        bare = baseline_rate(SETTLEMENTS)
        contended = contended_rate(everyone)
        print(f"{SETTLEMENTS} settlements each, PostgreSQL {connection.pg_version}")
        print(f"ledger:    {ours:8.0f} settlements/s (one thread)")
        print(f"baseline:  {bare:8.0f} bare inserts/s (one thread)")
        print(f"contended: {contended:8.0f} settlements/s ({THREADS} threads, 8 players)")
        print(f"ledger / baseline: {ours / bare:.2f}x")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
