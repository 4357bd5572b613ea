"""Celery tasks of the match analysis: ids in, safe to run twice.

The analyses run on the ``review`` queue; asking for a finished match's analysis and the
sweep of lost ones are quick and run on ``default`` (``config.celery``'s routes).
"""

from __future__ import annotations

from celery import shared_task

from reviews import services

# A 25-point match at 2 ply takes a few minutes; nothing legitimate takes half an hour.
SOFT_LIMIT = 25 * 60


@shared_task(
    name=services.ANALYSE_TASK,
    acks_late=True,
    ignore_result=True,
    soft_time_limit=SOFT_LIMIT,
    time_limit=SOFT_LIMIT + 60,
)
def analyse(analysis_id: int) -> bool:
    """Analyse one queued match; a second delivery finds it taken and does nothing."""
    return services.analysis_run(analysis_id)


@shared_task(name=services.FOR_MATCH_TASK, ignore_result=True)
def for_match(match_id: int, plies: int | None = None) -> None:
    """Queue the analysis of a match that just finished (once; none without a game), at the
    depth set where it finished."""
    services.analysis_for_match(match_id, plies)


@shared_task(name="review.requeue", ignore_result=True)
def requeue() -> int:
    """Queue again the analyses whose message or worker was lost."""
    return len(services.analysis_requeue())
