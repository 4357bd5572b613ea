"""Celery tasks for matches: the one periodic sweep of due deadlines.

No task is scheduled per move: every clock deadline and reconnection grace is a
``Match.deadline`` in PostgreSQL, and ``sweep_deadlines`` (run by beat every couple
of seconds) takes the due ones in batches with ``SELECT ... FOR UPDATE SKIP LOCKED``,
so several workers share the work and never handle the same match twice.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from matches import adjudication, practice, services
from matches.models import Match, MatchStatus

logger = logging.getLogger(__name__)
BATCH = 100
MAX_BATCHES = 50  # a run ends; the next beat picks up whatever is left


@shared_task(name="matches.sweep_deadlines", ignore_result=True)
def sweep_deadlines(batch: int = BATCH) -> int:
    """Expire clocks and graces that are due; returns how many matches were handled."""
    handled = 0
    for _ in range(MAX_BATCHES):
        done = _sweep_batch(batch)
        handled += done
        if done < batch:
            break
    return handled


def _sweep_batch(batch: int) -> int:
    now = timezone.now()
    with transaction.atomic():
        due = list(
            Match.objects.select_for_update(skip_locked=True)
            .filter(deadline__lte=now, status=MatchStatus.PLAYING)
            .order_by("deadline")
            .values_list("pk", flat=True)[:batch]
        )
        for match_id in due:
            try:
                with transaction.atomic():
                    handled = (
                        services.no_show_expire(match_id=match_id, now=now)
                        or services.grace_expire(match_id=match_id, now=now)
                        or services.timeout_expire(match_id=match_id, now=now)
                    )
                    if not handled:
                        logger.debug("match %s was due but nothing had expired", match_id)
                    services.deadline_refresh(match_id=match_id)
            except Exception:
                logger.exception("sweeping match %s failed; it stays due", match_id)
    return len(due)


@shared_task(name="analysis.adjudicate_match", acks_late=True, ignore_result=True)
def adjudicate_match(match_id: int) -> None:
    """Evaluate and settle a suspended match (the analysis queue); safe to run twice."""
    adjudication.adjudicate(match_id=match_id)


@shared_task(name="analysis.engine_turn", acks_late=True, ignore_result=True)
def engine_turn(match_id: int) -> None:
    """Let the computer opponent take the actions that fall to it; safe to run twice."""
    practice.engine_turn(match_id=match_id)
