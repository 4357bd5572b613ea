"""Abandoned games are adjudicated by GNU Backgammon and settled once, in one transaction."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts import ledger
from accounts.models import AccountKind, LedgerAccount, RatingChange
from accounts.money import commission_cents
from accounts.roles import Role
from matches import adjudication, deadlines
from matches.engine import engine
from matches.models import Action, ActionKind, Adjudication, FinishReason, Match, MatchStatus
from matches.tasks import adjudicate_match, sweep_deadlines
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, board_left, start_match
from tests.workers import queue_paused, start_worker

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]


def _abandon(match_id: int, seat: int) -> None:
    """``seat`` leaves and their grace runs out; the sweeper suspends the match."""
    match = Match.objects.get(pk=match_id)
    player = match.player(seat)
    board_left(match_id, player)
    past = timezone.now() - timedelta(seconds=1)
    field = "grace_ends_0" if seat == 0 else "grace_ends_1"
    Match.objects.filter(pk=match_id).update(**{field: past, "deadline": past})
    sweep_deadlines()


def _played_a_little(**options: object) -> tuple[int, Bot]:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, **options)
    bot = Bot({"alice": alice, "bruno": bruno})
    for _ in range(6):
        bot.step(match_id)
    return match_id, bot


@pytest.mark.django_db
def test_a_money_game_is_split_by_the_engines_cubeful_equity() -> None:
    # given a money session abandoned by player 1
    match_id, _ = _played_a_little(money=True, stake_cents=100, max_cube=4, currency="FUN")
    players = [Match.objects.get(pk=match_id).player(seat) for seat in (0, 1)]
    before = {seat: ledger.balance(user=players[seat], currency="FUN") for seat in (0, 1)}
    _abandon(match_id, 1)
    assert Match.objects.get(pk=match_id).status == MatchStatus.SUSPENDED

    # when the analysis task runs
    adjudicate_match.apply(args=[match_id])

    # then the split is the engine's equity x cube x stake, conserved, with commission
    match = Match.objects.get(pk=match_id)
    record = Adjudication.objects.get(match=match)
    equity = engine().evaluate(record.gnubg_id).player(0).cubeful_equity
    cube = record.evaluation["cube_value"]
    expected = max(-300 * cube, min(300 * cube, round(equity * cube * 100)))
    settlement = record.decision["settlement_cents"]
    assert settlement == [expected, -expected]
    assert record.plies == 2
    assert record.evaluation["engine"]["met"]
    winner = 0 if expected > 0 else 1
    fee = 2 * commission_cents(abs(expected)) if expected else 0
    after = {seat: ledger.balance(user=match.player(seat), currency="FUN") for seat in (0, 1)}
    exposure = 3 * 4 * 100
    assert after[winner] - before[winner] == exposure + abs(expected) - fee
    assert after[1 - winner] - before[1 - winner] == exposure - abs(expected)
    assert match.status == MatchStatus.FINISHED
    assert match.finish_reason == FinishReason.ADJUDICATED
    assert ledger.currency_total("FUN") == 0


@pytest.mark.django_db
def test_a_match_for_a_pot_is_split_by_match_winning_chances() -> None:
    match_id, _ = _played_a_little(length=5, stake_cents=1000, currency="FUN")
    _abandon(match_id, 0)

    adjudicate_match.apply(args=[match_id])

    record = Adjudication.objects.get(match_id=match_id)
    mwc = record.evaluation["players"][0]["mwc"]
    shares = record.decision["shares_cents"]
    assert sum(shares) == 2000
    assert abs(shares[0] - mwc * 2000) <= 1
    assert ledger.currency_total("FUN") == 0


@pytest.mark.django_db
def test_a_grace_running_out_is_swept_in_a_handful_of_round_trips() -> None:
    # given a match whose player 1 left and whose grace has just run out
    match_id, _ = _played_a_little(length=5, stake_cents=1000, currency="FUN")
    board_left(match_id, Match.objects.get(pk=match_id).player(1))
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(grace_ends_1=past, deadline=past)

    # when the sweeper's pass finds it due (the test's transaction makes the match's a savepoint)
    with CaptureQueriesContext(connection) as sent:
        deadlines.sweep_due(batch=10)

    # then: the due matches, the lock, the suspension's log row with the match's row; the
    # match, out of play, has no deadline to work out again
    statements = [query["sql"] for query in sent.captured_queries]
    assert len(statements) <= 5, "\n".join(str(sql)[:60] for sql in statements)
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.SUSPENDED
    assert match.deadline is None
    assert Action.objects.filter(match=match).order_by("-seq")[0].kind == ActionKind.SUSPEND


@pytest.mark.django_db
def test_a_grace_running_out_is_suspended_before_the_sweep_looks_for_dead_servers() -> None:
    # given a match whose player 1 left and whose grace has just run out
    match_id, _ = _played_a_little(length=5, stake_cents=1000, currency="FUN")
    board_left(match_id, Match.objects.get(pk=match_id).player(1))
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(grace_ends_1=past, deadline=past)

    # when beat's sweep makes a pass
    statements: list[str] = []

    def noted(execute: Any, sql: str, *rest: Any) -> Any:
        statements.append(sql)
        return execute(sql, *rest)

    with connection.execute_wrapper(noted):
        sweep_deadlines(passes=1)

    # then the suspension is written before the connections of dead servers are looked
    # for: closing one starts a grace and ends none, so no deadline waits on it
    suspension = f'UPDATE "{Match._meta.db_table}" SET "status"'
    suspended = next(i for i, sql in enumerate(statements) if sql.startswith(suspension))
    stale = next(i for i, sql in enumerate(statements) if "matchconnection" in sql.lower())
    assert suspended < stale, "\n".join(sql[:60] for sql in statements)
    assert Match.objects.get(pk=match_id).status == MatchStatus.SUSPENDED


@pytest.mark.django_db
def test_the_position_is_read_and_the_split_settled_in_a_handful_of_round_trips() -> None:
    # given a rated match for a pot, abandoned and suspended, on a site whose house has
    # taken commission before (its account is there)
    match_id, _ = _played_a_little(length=5, stake_cents=1000, currency="FUN")
    _abandon(match_id, 1)
    LedgerAccount.objects.get_or_create(kind=AccountKind.HOUSE, currency="FUN")

    # when it is adjudicated (the test's transaction makes the settlement's a savepoint)
    with CaptureQueriesContext(connection) as sent:
        adjudicate_match.apply(args=[match_id])

    # then the position is one read (the match, its game and its suspension together), and
    # the settlement the lock, the money, the writes travelling with the profiles' lock
    # (which reads the ratings already recorded too), the rest of the writes: each player
    # waits on round trips
    statements = [query["sql"] for query in sent.captured_queries]
    assert len(statements) <= 7, "\n".join(str(sql)[:60] for sql in statements)
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    assert RatingChange.objects.filter(match_id=match_id).count() == 2
    assert Action.objects.filter(match=match).order_by("-seq")[0].kind == ActionKind.MATCH_OVER
    assert ledger.currency_total("FUN") == 0


@pytest.mark.django_db
def test_an_unstaked_match_goes_to_the_higher_match_winning_chances() -> None:
    match_id, _ = _played_a_little(length=3)
    _abandon(match_id, 1)

    adjudicate_match.apply(args=[match_id])

    match = Match.objects.get(pk=match_id)
    record = Adjudication.objects.get(match=match)
    mwc0 = record.evaluation["players"][0]["mwc"]
    assert match.winner_seat == (0 if mwc0 >= 0.5 else 1)
    assert match.finish_reason == FinishReason.ADJUDICATED


@pytest.mark.django_db
def test_running_the_task_twice_does_nothing_the_second_time() -> None:
    match_id, _ = _played_a_little(money=True, stake_cents=50, max_cube=2, currency="FUN")
    _abandon(match_id, 1)
    adjudicate_match.apply(args=[match_id])
    players = [Match.objects.get(pk=match_id).player(seat) for seat in (0, 1)]
    balances = [ledger.balance(user=player, currency="FUN") for player in players]

    adjudicate_match.apply(args=[match_id])

    assert Adjudication.objects.filter(match_id=match_id).count() == 1
    assert [ledger.balance(user=player, currency="FUN") for player in players] == balances


@pytest.mark.django_db
def test_under_the_forfeit_policy_the_absent_player_loses_without_the_engine() -> None:
    match_id, _ = _played_a_little(length=3)
    Match.objects.filter(pk=match_id).update(abandon_policy="forfeit")

    _abandon(match_id, 1)

    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    assert match.winner_seat == 0
    assert match.finish_reason == FinishReason.FORFEIT
    assert not Adjudication.objects.filter(match=match).exists()


@pytest.mark.django_db
def test_staff_rerun_deeper_keeps_the_original_beside_the_new_numbers() -> None:
    match_id, _ = _played_a_little(length=3)
    _abandon(match_id, 1)
    adjudicate_match.apply(args=[match_id])
    staff = UserFactory(username="sam", role=Role.STAFF)
    player = UserFactory(username="nosy")

    deeper = adjudication.rerun(match_id=match_id, plies=3, staff=staff)

    original = Adjudication.objects.get(match_id=match_id, supersedes__isnull=True)
    assert deeper.supersedes == original
    assert (original.plies, deeper.plies) == (2, 3)
    assert deeper.evaluation["settings"]["plies"] == 3
    assert Match.objects.get(pk=match_id).winner_seat == original.decision["winner_seat"]
    with pytest.raises(Exception, match="Only staff"):
        adjudication.rerun(match_id=match_id, plies=3, staff=player)


KILLABLE = """
import os, sys, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()
from matches import adjudication
adjudication.adjudicate(match_id=int(sys.argv[1]))
"""


def _waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        # Statistics views keep one snapshot per transaction unless told to look again.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_adjudication_leaves_nothing_behind_and_a_retry_settles() -> None:
    # given a suspended match, and a worker that has evaluated it and is settling it, held
    # inside its transaction by a lock this test keeps on the match row
    match_id, _ = _played_a_little(length=3)
    Match.objects.filter(pk=match_id).update(abandon_policy="suspend")  # no queued task races us
    _abandon(match_id, 1)
    database = settings.DATABASES["default"]
    user, host, port = (
        database["USER"] or "postgres",
        database["HOST"] or "127.0.0.1",
        database["PORT"] or 5432,
    )
    env = {**os.environ, "DATABASE_URL": f"postgres://{user}@{host}:{port}/{database['NAME']}"}
    with transaction.atomic():
        Match.objects.select_for_update().get(pk=match_id)
        worker = subprocess.Popen(
            [sys.executable, "-c", KILLABLE, str(match_id)], cwd=ROOT, env=env
        )
        deadline = time.monotonic() + 60
        while not _waiting_for_a_lock():
            assert worker.poll() is None, "the worker ended before it reached the settlement"
            assert time.monotonic() < deadline, "the worker never reached the settlement"
            time.sleep(0.1)

        # when it is killed in the middle of its transaction
        worker.send_signal(signal.SIGKILL)
        worker.wait()

    # then nothing was written, and running the task again settles the match once
    assert not Adjudication.objects.filter(match_id=match_id).exists()
    assert Match.objects.get(pk=match_id).status == MatchStatus.SUSPENDED
    adjudicate_match.apply(args=[match_id])
    assert Adjudication.objects.filter(match_id=match_id).count() == 1
    assert Match.objects.get(pk=match_id).status == MatchStatus.FINISHED


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker_process")
def test_grace_expiry_to_settlement_through_a_real_worker_on_the_analysis_queue() -> None:
    match_id, _ = _played_a_little(length=3)

    _abandon(match_id, 0)

    deadline = time.monotonic() + 60
    while Match.objects.get(pk=match_id).status != MatchStatus.FINISHED:
        assert time.monotonic() < deadline, "the analysis worker did not settle the match"
        time.sleep(0.2)
    assert Adjudication.objects.filter(match_id=match_id).count() == 1


@pytest.mark.django_db
def test_staff_see_the_adjudication_page_and_rerun_deeper_from_it(client: object) -> None:
    from django.test import Client

    assert isinstance(client, Client)
    match_id, _ = _played_a_little(length=3)
    _abandon(match_id, 1)
    adjudicate_match.apply(args=[match_id])
    client.force_login(UserFactory(username="nosy"))
    assert client.get(f"/matches/{match_id}/adjudication/").status_code == 403
    client.force_login(UserFactory(username="sam", role=Role.STAFF))

    page = client.get(f"/matches/{match_id}/adjudication/")
    rerun = client.post(f"/matches/{match_id}/adjudication/", {"plies": "3"}, follow=True)

    assert page.status_code == 200
    assert b"2 ply" in page.content
    assert b"3 ply" in rerun.content
    assert Adjudication.objects.filter(match_id=match_id).count() == 2


@contextmanager
def _match_row_held(match_id: int) -> Iterator[None]:
    """The match row locked by a connection of its own, as another server would hold it."""
    database = settings.DATABASES["default"]
    with psycopg.connect(
        host=database["HOST"] or "127.0.0.1",
        port=database["PORT"] or 5432,
        user=database["USER"] or "postgres",
        dbname=database["NAME"],
    ) as holder:
        holder.execute("SELECT 1 FROM matches_match WHERE id = %s FOR UPDATE", [match_id])
        yield
        holder.rollback()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("celery_worker_process")
def test_an_adjudication_lost_with_its_killed_worker_is_queued_again_and_settles_once() -> None:
    # given a suspended match whose adjudication a worker took from the analysis queue and
    # was settling when it was killed: the broker would redeliver it only after an hour
    match_id, _ = _played_a_little(length=3, stake_cents=500, currency="FUN")
    with queue_paused("analysis"):
        _abandon(match_id, 1)
        with _match_row_held(match_id):
            doomed = start_worker(queues="analysis", name="doomed", wait=False)
            deadline = time.monotonic() + 60
            while not _waiting_for_a_lock():
                assert doomed.poll() is None, "the worker ended before it reached the settlement"
                assert time.monotonic() < deadline, "the worker never reached the settlement"
                time.sleep(0.1)
            doomed.send_signal(signal.SIGKILL)
            doomed.wait()
    assert Match.objects.get(pk=match_id).status == MatchStatus.SUSPENDED
    assert not Adjudication.objects.filter(match_id=match_id).exists()

    # when the sweep runs a while later (and again, as beat would)
    later = timezone.now() + deadlines.REQUEUE_AFTER * 2
    requeued = deadlines.adjudication_requeue(now=later)
    deadlines.adjudication_requeue(now=later)

    # then a live worker settles it exactly once, and no money was made or lost
    assert requeued == [match_id]
    deadline = time.monotonic() + 60
    while Match.objects.get(pk=match_id).status != MatchStatus.FINISHED:
        assert time.monotonic() < deadline, "the re-queued adjudication never settled"
        time.sleep(0.2)
    assert Adjudication.objects.filter(match_id=match_id).count() == 1
    assert ledger.escrow_balance(escrow_ref=f"match:{match_id}", currency="FUN") == 0
    assert ledger.currency_total("FUN") == 0
    assert deadlines.adjudication_requeue(now=later) == []


@pytest.mark.django_db
def test_a_match_suspended_only_a_moment_ago_is_left_to_its_worker() -> None:
    match_id, _ = _played_a_little(length=3)
    _abandon(match_id, 1)

    assert deadlines.adjudication_requeue() == []
