"""Benchmark: a 4,096-player knockout registered, started and its bracket page rendered.

In one process, on PostgreSQL, with Celery tasks run in the process (as ``make run`` does):

* registration: every player buys in through the ledger (buy-in and fee, escrow, seat count);
* start: the draw, 4,095 pairing rows and the 2,048 first-round matches, each started with its
  opening roll;
* the bracket page (``/tournaments/<id>/bracket/``) rendered through Django's test client, for
  this tournament and for a 16-player one: the number of database queries must be the same;
  the big one's current round and the rounds of four matches or fewer are drawn, the others
  fetched when the page asks, and a phone is sent it compressed.

Each figure is printed with its number of queries, beside the baseline: the pure draw of the
same field by ``tournaments.formats`` (no database; the median of five), so the ratio shows
what storing it costs, in time and in CPU (this process's and the PostgreSQL process's of
its connection). A registration is set beside a bare insert committed after each one.

Run: ``.venv/bin/python bench/bench_tournament_knockout.py [players]`` (PostgreSQL on
127.0.0.1; the script creates and migrates its own database, crawford_bench_tournament).
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchdb import fresh_database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = "crawford_bench_tournament"
os.environ.update(
    DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DATABASE}",
    SECRET_KEY="bench-only",
    DEBUG="false",
    CRAWFORD_FUN_GRANT_CENTS="100000",
)
os.environ.pop("REDIS_URL", None)  # tasks run in this process, as in the embedded set-up
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def measured(what: Callable[[], Any]) -> tuple[Any, float, int]:
    """The result, the seconds and the number of database queries of ``what()``.

    Queries are counted by an execute wrapper rather than Django's query log, which keeps
    only the last 9,000 and would miscount the registration of thousands of players.
    """
    from django.db import connection

    count = 0

    def counting(execute: Any, sql: Any, params: Any, many: Any, context: Any) -> Any:
        nonlocal count
        count += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counting):
        started = time.perf_counter()
        result = what()
        seconds = time.perf_counter() - started
    return result, seconds, count


def database_cpu() -> float:
    """Seconds of CPU used so far by the PostgreSQL process serving this connection (it runs
    on this machine: 127.0.0.1)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(count: int) -> None:
    fresh_database(DATABASE)
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from accounts.models import User
    from accounts.roles import Role
    from accounts.services import user_create
    from lobby.models import Notification
    from matches.models import Match
    from tournaments import services
    from tournaments.formats.base import Entrant
    from tournaments.formats.knockout import Knockout, KnockoutOptions
    from tournaments.settings.general import TournamentSettings

    # Real password hashing is a fifth of a second per user and not what is measured here.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    rng = random.Random(4096)
    owner = user_create(username="orla", password="bench-only", role=Role.ORGANIZER)
    print(f"creating {count:,} players ...", flush=True)
    field = [
        user_create(username=f"player{n}", password="bench-only", rating=1300 + 700 * rng.random())
        for n in range(count)
    ]

    def tournament(size: int, name: str) -> int:
        created = services.tournament_create(
            organizer=owner,
            settings=TournamentSettings(
                name=name,
                format="knockout",
                buy_in_cents=1000,
                fee_cents=65,
                round_lengths=(5, 7, 9),
            ),
        )
        services.tournament_open(tournament_id=created.pk, user=owner)
        return created.pk

    small_id, big_id = tournament(16, "Small"), tournament(count, "Big")
    for player in field[:16]:
        services.entry_register(tournament_id=small_id, user=player)
    services.tournament_start(tournament_id=small_id, user=owner)

    # Registration's baseline: one row inserted and committed, the least a registration
    # can cost on this machine at this moment (a round trip and a flush of the log). One
    # follows each registration, so both meet the same load; they are taken out of the
    # registration's figures.
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE bench_bare (id bigserial PRIMARY KEY, n integer)")
    bare_s = [0.0]

    def register() -> None:
        with connection.cursor() as cursor:
            for player in field:
                services.entry_register(tournament_id=big_id, user=player)
                began = time.perf_counter()
                cursor.execute("INSERT INTO bench_bare (n) VALUES (%s)", [player.pk])
                bare_s[0] += time.perf_counter() - began

    _, register_s, register_q = measured(register)
    register_s, register_q = register_s - bare_s[0], register_q - count

    # What of the start goes to telling every player (their notices, written once the
    # matches are committed: a worker's task in production, in this process here).
    from lobby import subscribers

    telling = [0.0]
    write_notices = subscribers.notify_many

    def timed_notices(*args: Any, **kwargs: Any) -> int:
        began = time.perf_counter()
        try:
            return write_notices(*args, **kwargs)
        finally:
            telling[0] += time.perf_counter() - began

    subscribers.notify_many = timed_notices  # type: ignore[assignment]

    def start() -> None:
        services.tournament_start(tournament_id=big_id, user=owner)

    # A serving process (or a worker, after its first task) has its URLs loaded; the start
    # would otherwise pay for importing every view, once, when its notices name the pages.
    reverse("tournament-bracket", kwargs={"tournament_id": big_id})

    # CPU besides time: on a machine other work keeps busy, the start's seconds are mostly
    # waits for a core (here and in PostgreSQL), which a few hundredths of a second of draw
    # rarely meets. The CPU it takes (this process, and the database's server process for
    # this connection) against the draw's says what storing the start costs.
    server_before, cpu_before = database_cpu(), time.process_time()
    _, start_s, start_q = measured(start)
    start_cpu = time.process_time() - cpu_before
    start_server_cpu = database_cpu() - server_before
    subscribers.notify_many = write_notices  # type: ignore[assignment]
    first_round = Match.objects.filter(tournament_id=big_id).count()

    entrants = [
        Entrant(user.pk, rating=user.profile.rating)
        for user in User.objects.filter(pk__in=[p.pk for p in field]).select_related("profile")
    ]
    knockout = Knockout(KnockoutOptions((5, 7, 9)))
    # The median of five draws: one draw lasts a few tens of milliseconds, so a single one
    # says more about what else the machine was doing at that moment than about the draw.
    draws, draw_cpus = [], []
    for _ in range(5):
        began = time.process_time()
        draws.append(measured(lambda: knockout.initial_draw(entrants, random.Random(1)))[1])
        draw_cpus.append(time.process_time() - began)
    draw_s, draw_cpu = sorted(draws)[2], sorted(draw_cpus)[2]

    client = Client(HTTP_HOST="localhost")

    def page(tournament_id: int, *, phone: bool = False) -> int:
        accepts = "gzip" if phone else ""
        response = client.get(
            f"/tournaments/{tournament_id}/bracket/", HTTP_ACCEPT_ENCODING=accepts
        )
        assert response.status_code == 200, response.status_code
        return len(response.content)

    page(big_id)  # warm the template cache
    small_bytes, small_s, small_q = measured(lambda: page(small_id))
    big_bytes, big_s, big_q = measured(lambda: page(big_id))
    # What a phone is sent: the page compressed, as every browser asks for it.
    phone_bytes, phone_s, _ = measured(lambda: page(big_id, phone=True))

    print(f"\n{count:,}-player knockout on PostgreSQL, tasks in process")
    print(
        f"  register {count:,} players (ledger)   {register_s:8.2f} s  {register_q:8,} queries"
        f"  ({register_s / count * 1000:.2f} ms a player)"
    )
    print(
        f"    baseline: a bare committed insert   {bare_s[0] / count * 1000:6.2f} ms"
        f"  (registration {register_s / bare_s[0]:.1f}x)"
    )
    print(
        f"  start: draw + {first_round:,} matches      {start_s:8.2f} s  {start_q:8,} queries"
        f"  ({start_s / draw_s:,.0f} x the pure draw)"
    )
    print(
        f"    CPU: {start_cpu:.2f} s here + {start_server_cpu:.2f} s in PostgreSQL"
        f"  ({(start_cpu + start_server_cpu) / draw_cpu:,.0f}x the draw's {draw_cpu:.3f} s)"
    )
    print(
        f"    of which {Notification.objects.count():,} notices written  {telling[0]:8.2f} s"
        f"  (draw and matches alone: {start_s - telling[0]:.2f} s)"
    )
    print(f"  baseline: the pure draw             {draw_s:8.3f} s         0 queries  (median of 5)")
    print(
        f"  bracket page, {count:,} players        {big_s:8.2f} s  {big_q:8,} queries"
        f"  ({big_bytes / 1e6:.1f} MB of HTML)"
    )
    print(
        f"  the same sent to a phone (gzip)     {phone_s:8.2f} s"
        f"                ({phone_bytes / 1e3:.0f} kB sent)"
    )
    print(
        f"  bracket page, 16 players            {small_s:8.3f} s  {small_q:8,} queries"
        f"  ({small_bytes / 1e3:.0f} kB; the big page {big_s / small_s:.1f}x its time)"
    )
    print(f"  same number of queries at both sizes: {'yes' if big_q == small_q else 'NO'}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4096)
