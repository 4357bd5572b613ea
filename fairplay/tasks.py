"""Celery tasks of fair play, on the ``default`` queue: ids in, safe to run twice.

Each detector reads what the match or its analysis left and opens or updates a case
(``fairplay.cases.case_report``), so running one twice finds the same case.
"""

from __future__ import annotations

from celery import shared_task

from accounts.standing import sightings_prune
from fairplay import appeals
from fairplay.detectors import dumping, engine_use, shared_accounts, stalling
from fairplay.subscribers import SCAN_ANALYSIS, SCAN_MATCH, SCAN_SIGHTINGS


@shared_task(name=SCAN_MATCH, ignore_result=True)
def scan_match(match_id: int) -> None:
    """A match ended: early resignations and flows to one opponent; abandonments; two
    accounts of one person playing each other."""
    dumping.scan_match(match_id)
    stalling.scan_match(match_id)
    shared_accounts.scan_match(match_id)


@shared_task(name=SCAN_ANALYSIS, ignore_result=True)
def scan_analysis(analysis_id: int) -> None:
    """A played match was analysed: engine agreement and PR; clear takes dropped."""
    engine_use.scan_analysis(analysis_id)
    dumping.scan_analysis(analysis_id)


@shared_task(name=SCAN_SIGHTINGS, ignore_result=True)
def scan_sightings(user_id: int, sighting_ids: list[int]) -> None:
    """An account signed up or logged in: others sharing its device or address."""
    shared_accounts.scan_sightings(user_id, sighting_ids)


@shared_task(name="fairplay.prune_sightings", ignore_result=True)
def prune_sightings() -> int:
    return sightings_prune()


@shared_task(name="fairplay.settle_appeals", ignore_result=True)
def settle_appeals() -> int:
    """Apply any decided appeal its case has not taken yet (a crash between the two)."""
    return appeals.appeals_settle_due()
