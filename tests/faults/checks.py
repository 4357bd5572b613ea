"""What must hold after every fault, read from the database and from what the players saw.

Each check answers a list of problems (empty: it holds). ``settled`` waits, up to a bound,
for the checks that need the platform to catch up (a deadline swept, a task sent).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from django.db import connection
from django.db.models import Q, Sum
from django.utils import timezone

from tests.faults.bots import Ledger

Check = Callable[[], list[str]]


def money() -> list[str]:
    """The ledger sums to zero in every currency; no player or escrow balance is negative,
    and each equals the sum of its entries."""
    from accounts.models import KINDS_WITH_BALANCE, LedgerAccount, LedgerEntry

    problems = []
    for row in LedgerEntry.objects.values("account__currency").annotate(total=Sum("amount")):
        if row["total"] != 0:
            problems.append(f"{row['account__currency']} entries sum to {row['total']}, not 0")
    accounts = LedgerAccount.objects.filter(kind__in=KINDS_WITH_BALANCE).annotate(
        entries_total=Sum("entries__amount")
    )
    for account in accounts:
        if account.balance < 0:
            problems.append(f"account {account.pk} holds {account.balance} cents")
        if account.balance != (account.entries_total or 0):
            problems.append(f"account {account.pk}: {account.balance} != {account.entries_total}")
    return problems


def moves_kept(ledger: Ledger) -> Check:
    """Every action a player was told was done is in the match log."""

    def check() -> list[str]:
        from matches.models import Action

        told = set(ledger.acknowledged)
        kept = set(
            Action.objects.filter(client_seq__isnull=False, seat__isnull=False).values_list(
                "match_id", "seat", "client_seq"
            )
        )
        missing = sorted(told - kept)
        return (
            [f"{len(missing)} acknowledged actions not in the log: {missing[:5]}"]
            if missing
            else []
        )

    return check


def no_loss_on_time() -> list[str]:
    """The players always move within a second: a match lost on time is the site's fault."""
    from matches.models import Game, Match

    late = list(Match.objects.filter(finish_reason="timeout").values_list("pk", flat=True))
    late += list(Game.objects.filter(finish_reason="timeout").values_list("match_id", flat=True))
    return [f"matches lost on time: {sorted(set(late))}"] if late else []


def deadlines_fired() -> list[str]:
    """No running match has a deadline more than a few seconds past."""
    from matches.models import Match, MatchStatus

    overdue = Match.objects.filter(
        status=MatchStatus.PLAYING, deadline__lt=timezone.now() - timedelta(seconds=5)
    ).values_list("pk", flat=True)
    return [f"deadlines overdue in matches {list(overdue)}"] if overdue else []


def adjudications_done() -> list[str]:
    """No match the engine should settle has waited for it two minutes."""
    from matches.models import AbandonPolicy, Action, ActionKind, Match, MatchStatus

    waiting = []
    for match in Match.objects.filter(
        status=MatchStatus.SUSPENDED, adjudications__isnull=True
    ).filter(abandon_policy=AbandonPolicy.ENGINE):
        suspended = (
            Action.objects.filter(match=match, kind=ActionKind.SUSPEND).order_by("-seq").first()
        )
        if suspended and suspended.created_at < timezone.now() - timedelta(minutes=2):
            waiting.append(match.pk)
    return [f"matches waiting for adjudication: {waiting}"] if waiting else []


def no_task_lost() -> list[str]:
    """Nothing kept for the broker, nothing stuck on a queue or with a dead worker."""
    from core.models import DeferredTask
    from reviews.models import Analysis, AnalysisStatus
    from reviews.services import LOST_AFTER, SILENT_AFTER

    problems = []
    if kept := DeferredTask.objects.count():
        problems.append(f"{kept} tasks still kept for the broker")
    moment = timezone.now()
    stuck = Analysis.objects.filter(
        Q(status=AnalysisStatus.QUEUED, queued_at__lt=moment - LOST_AFTER - timedelta(seconds=60))
        | Q(status=AnalysisStatus.RUNNING, alive_at__lt=moment - SILENT_AFTER * 2)
    ).values_list("pk", flat=True)
    if stuck:
        problems.append(f"analyses stuck: {list(stuck)}")
    if failed := list(
        Analysis.objects.filter(status=AnalysisStatus.FAILED).values_list("error", flat=True)
    ):
        problems.append(f"analyses failed: {list(failed[:3])}")
    return problems


def present(ledger: Ledger) -> Check:
    """Every player whose socket is open to a match being played is present at it."""

    def check() -> list[str]:
        from matches.models import Match, MatchConnection, MatchStatus

        problems = []
        for (match_id, seat), connected in list(ledger.connected.items()):
            if not connected:
                continue
            match = Match.objects.filter(pk=match_id, status=MatchStatus.PLAYING).first()
            if match is None:
                continue
            if not MatchConnection.objects.filter(match_id=match_id, seat=seat).exists():
                problems.append(f"seat {seat} of match {match_id} has a socket but no presence")
            elif match.grace_ends(seat) is not None:
                problems.append(f"seat {seat} of match {match_id} is connected yet in its grace")
        return problems

    return check


def settled(checks: list[Check], *, within: float) -> list[str]:
    """Run ``checks`` until all hold, for at most ``within`` seconds; the last problems."""
    deadline = time.monotonic() + within
    while True:
        connection.close()  # a fresh connection: the database may have been restarted
        try:
            problems = [problem for check in checks for problem in check()]
        except Exception as error:  # the database is still coming back
            problems = [f"could not check: {error.__class__.__name__}: {error}"]
        if not problems or time.monotonic() > deadline:
            return problems
        time.sleep(1.0)
