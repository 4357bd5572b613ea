"""Celery tasks for notices: ids in, a call, safe to run twice (each notice has its key).

Queued by name from ``lobby.subscribers`` and ``lobby.tournament_notices`` when an event
concerns a whole tournament field, or follows a finished match (which must not hold up
whatever ended it); from ``lobby.notifications`` for notices that also go by e-mail
(``lobby.mail``), and by beat for tournaments about to start.
"""

from __future__ import annotations

from celery import shared_task

from lobby import cancellations, mail, subscribers, tournament_notices
from lobby.notifications import MAIL_TASK


@shared_task(name="lobby.tell_tournament_started", ignore_result=True)
def tell_tournament_started(tournament_id: int) -> int:
    """Tell every entrant that the tournament started; returns how many were told."""
    return tournament_notices.tell_tournament_started(tournament_id=tournament_id)


@shared_task(name="lobby.tell_tournament_finished", ignore_result=True)
def tell_tournament_finished(tournament_id: int) -> int:
    """Tell the champion and the prize winners; returns how many were told."""
    return tournament_notices.tell_tournament_finished(tournament_id=tournament_id)


@shared_task(name=tournament_notices.TELL_CANCELLED_TASK, ignore_result=True)
def tell_tournament_cancelled(tournament_id: int) -> int:
    """Tell every entrant that the tournament was cancelled; returns how many were told."""
    return cancellations.tell_tournament_cancelled(tournament_id=tournament_id)


@shared_task(name=subscribers.READ_TURN_NOTICES_TASK, ignore_result=True)
def read_turn_notices(match_id: int) -> int:
    """Mark read the "your turn" notices of a finished match; returns how many were."""
    return subscribers.turn_notices_read(match_id=match_id)


@shared_task(name=MAIL_TASK, ignore_result=True)
def mail_notices(notice_ids: list[int]) -> int:
    """Mail these notices to the players who want them; returns how many were mailed."""
    return mail.notices_mail(notice_ids=notice_ids)


@shared_task(name="lobby.tell_tournaments_soon", ignore_result=True)
def tell_tournaments_soon() -> int:
    """Tell the entrants of the tournaments starting within ten minutes; how many were told."""
    return mail.tell_tournaments_soon()
