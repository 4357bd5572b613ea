"""Celery tasks for tournaments: ids in, a service call, safe to run twice.

``tournament_match_finished`` is queued when a tournament match ends (``on_match_finished``
receives ``matches.events.MatchFinished`` once it is committed); ``tournament_start_matches``
after a start; ``tournament_sweep`` runs on beat to mark late pairings and to redo any of the
other two whose message was lost.
"""

from __future__ import annotations

import logging

from celery import shared_task

from core.errors import DomainError
from matches.events import MatchFinished
from tournaments import scheduler, services

logger = logging.getLogger(__name__)


def on_match_finished(event: MatchFinished) -> None:
    """Subscribed in ``TournamentsConfig.ready``: a committed result moves the bracket on."""
    if event.tournament_id is not None:
        tournament_match_finished.delay(event.match_id)


@shared_task(name="tournaments.match_finished", ignore_result=True)
def tournament_match_finished(match_id: int) -> bool:
    """Record a finished match in its tournament and start or finish what follows."""
    return scheduler.match_finished(match_id=match_id)


@shared_task(name="tournaments.start_matches", ignore_result=True)
def tournament_start_matches(tournament_id: int) -> int:
    """Create the matches of every ready pairing that has none yet."""
    return scheduler.matches_start(tournament_id=tournament_id)


@shared_task(name="tournaments.use_ticket", ignore_result=True)
def tournament_use_ticket(ticket_id: int) -> None:
    """Seat a satellite's ticket holder in the target; a target not open keeps it for later."""
    try:
        services.ticket_use(ticket_id=ticket_id)
    except DomainError as refusal:
        logger.info("ticket %s kept for later: %s", ticket_id, refusal)


@shared_task(name="tournaments.start", ignore_result=True)
def tournament_start_due(tournament_id: int) -> None:
    """Start a tournament whose start time has come; one that cannot start stays open."""
    try:
        services.tournament_start(tournament_id=tournament_id, user=None)
    except DomainError as refusal:
        logger.warning("tournament %s did not start at its time: %s", tournament_id, refusal)


@shared_task(name="tournaments.sweep", ignore_result=True)
def tournament_sweep() -> int:
    """Mark overdue pairings late; re-enqueue results, matches and starts that were missed."""
    report = scheduler.sweep()
    for match_id in report.results_redone:
        tournament_match_finished.delay(match_id)
    for tournament_id in report.tournaments_to_fill:
        tournament_start_matches.delay(tournament_id)
    for tournament_id in report.tournaments_to_start:
        tournament_start_due.delay(tournament_id)
    return report.late
