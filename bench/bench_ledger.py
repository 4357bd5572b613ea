"""Benchmark: ledger settlements and registrations per second, against a bare write.

On PostgreSQL at 127.0.0.1, in a database of its own (``crawford_bench_ledger_<pid>``,
made and migrated by ``benchdb``, dropped at the end, so two runs never meet), times in
the same run, each call in its own transaction:

* ledger: ``transfer_between_players`` between two players (idempotency key, two player
  rows locked in primary-key order, three entries, two cached balances, commission to
  the house, the zero-sum trigger);
* registration: ``tournament_buy_in`` into a Sit & Go of eight seats (the escrow locked,
  the seats counted under its lock, buy-in and fee; the first entrant creates the
  escrow account);
* baseline: one bare ``LedgerTransaction`` insert, the least any recorded movement costs;
* contended: the ledger again, from eight threads paying among eight players at once.

The three one-thread figures are taken in alternating rounds and each is the median of
its rounds, so a burst of other work on the machine weighs on all of them alike. Prints
each per second, and the ledger's and the registrations' as ratios to the baseline.

Run: ``.venv/bin/python bench/bench_ledger.py [rounds]`` (PostgreSQL as for the tests:
127.0.0.1:5432, user postgres).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from itertools import count
from pathlib import Path

from benchdb import drop_database, fresh_database

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
DATABASE = f"crawford_bench_ledger_{os.getpid()}"
os.environ.update(
    DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    SECRET_KEY="crawford-bench-only",
    DEBUG="false",
    CRAWFORD_FUN_GRANT_CENTS="100000000",
)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

CALLS = 400  # per round and measure
ROUNDS = 5
THREADS = 8
SEATS = 8


def main(rounds: int) -> None:
    fresh_database(DATABASE)
    try:
        run(rounds)
    finally:
        from django.db import connections

        connections.close_all()
        drop_database(DATABASE)


def run(rounds: int) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from accounts import ledger
    from accounts.models import LedgerTransaction, TransactionKind, User
    from accounts.services import user_create

    # Real password hashing is a fifth of a second per user and not what is measured here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    everyone = [user_create(username=f"bench{n}", password="bench-only") for n in range(THREADS)]
    keys = count()

    def settlements(pairs: list[list[User]]) -> float:
        start = time.perf_counter()
        for payer, payee in pairs:
            ledger.transfer_between_players(
                payer=payer,
                payee=payee,
                currency="FUN",
                amount_cents=100,
                commission_cents=14,
                key=f"settle:{next(keys)}",
            )
        return len(pairs) / (time.perf_counter() - start)

    def registrations() -> float:
        start = time.perf_counter()
        for _ in range(CALLS // SEATS):
            tournament = f"tournament:{next(keys)}"
            for entrant in everyone[:SEATS]:
                ledger.tournament_buy_in(
                    user=entrant,
                    currency="FUN",
                    buy_in_cents=100,
                    fee_cents=7,
                    escrow_ref=tournament,
                    key=f"{tournament}:entry:{entrant.pk}",
                    max_entries=SEATS,
                )
        return CALLS // SEATS * SEATS / (time.perf_counter() - start)

    def bare_inserts() -> float:
        start = time.perf_counter()
        for _ in range(CALLS):
            LedgerTransaction.objects.create(
                key=f"bare:{next(keys)}", kind=TransactionKind.TRANSFER
            )
        return CALLS / (time.perf_counter() - start)

    def contended() -> float:
        rng = random.Random(3)
        chunks = [[rng.sample(everyone, 2) for _ in range(CALLS // THREADS)] for _ in everyone]

        def pay(chunk: list[list[User]]) -> None:
            try:
                settlements(chunk)
            finally:
                connection.close()

        start = time.perf_counter()
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            list(pool.map(pay, chunks))
        return CALLS // THREADS * THREADS / (time.perf_counter() - start)

    alice, bruno = everyone[:2]
    pairs = [[alice, bruno] if n % 2 else [bruno, alice] for n in range(CALLS)]
    settlements(pairs[:20])  # warm-up
    figures: dict[str, list[float]] = {"ledger": [], "registration": [], "baseline": []}
    for _ in range(rounds):
        figures["ledger"].append(settlements(pairs))
        figures["registration"].append(registrations())
        figures["baseline"].append(bare_inserts())
    ours, entering, bare = (statistics.median(figures[name]) for name in figures)
    crowded = contended()
    books_balanced()
    print(f"{CALLS} calls a round, {rounds} rounds (medians), PostgreSQL {connection.pg_version}")
    print(f"ledger:       {ours:8.0f} settlements/s (one thread)")
    print(f"registration: {entering:8.0f} buy-ins/s (one thread, {SEATS}-seat Sit & Go)")
    print(f"baseline:     {bare:8.0f} bare inserts/s (one thread)")
    print(f"contended:    {crowded:8.0f} settlements/s ({THREADS} threads, {THREADS} players)")
    print(f"ledger / baseline:       {ours / bare:.2f}x")
    print(f"registration / baseline: {entering / bare:.2f}x")


def books_balanced() -> None:
    """Refuse to print figures of a ledger that lost track: speed means nothing then."""
    from django.db.models import Sum

    from accounts import ledger
    from accounts.models import KINDS_WITH_BALANCE, LedgerAccount

    accounts = LedgerAccount.objects.filter(kind__in=KINDS_WITH_BALANCE).annotate(
        entries_total=Sum("entries__amount")
    )
    wrong = [a for a in accounts if a.balance != (a.entries_total or 0) or a.balance < 0]
    if wrong or ledger.currency_total("FUN") != 0:
        raise SystemExit(f"the books do not balance: {wrong}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)
