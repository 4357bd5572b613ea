"""Fair play listens to what happened below it and queues its detectors by task name; a
decided appeal (a dispute about a case) is applied to the case at once."""

from __future__ import annotations

from accounts.events import AccountSighted
from core import bus
from core.tasks import enqueue
from disputes.events import DisputeDecided
from fairplay import appeals
from matches.events import MatchFinished
from reviews.events import AnalysisChanged

SCAN_MATCH = "fairplay.scan_match"
SCAN_ANALYSIS = "fairplay.scan_analysis"
SCAN_SIGHTINGS = "fairplay.scan_sightings"


def on_match_finished(event: MatchFinished) -> None:
    enqueue(SCAN_MATCH, event.match_id)


def on_analysis_changed(event: AnalysisChanged) -> None:
    if event.status == "done" and event.match_id is not None:
        enqueue(SCAN_ANALYSIS, event.analysis_id)


def on_account_sighted(event: AccountSighted) -> None:
    enqueue(SCAN_SIGHTINGS, event.user_id, list(event.sighting_ids))


def connect() -> None:
    bus.subscribe(MatchFinished, on_match_finished)
    bus.subscribe(AnalysisChanged, on_analysis_changed)
    bus.subscribe(AccountSighted, on_account_sighted)
    bus.subscribe(DisputeDecided, appeals.on_dispute_decided)
