"""A player's performance rating (PR) over their analysed matches.

The match analysis (the ``reviews`` app) records each player's figures for each analysed
match here, through :func:`performance_record`; the profile shows the rolling PR over the
last ``accounts.selectors.ROLLING`` matches with its chart, and ``/ratings/pr/`` ranks
players by it.

PR is ``500 * error / decisions`` (see ``analysis.match_analysis``): over several matches
the errors and the decisions are summed first, so a long match counts for more than a
short one, as each decision counts once.
"""

from __future__ import annotations

from datetime import datetime

from accounts.models import PerformanceRecord, User
from accounts.selectors import pr_of


def performance_record(
    *,
    user: User,
    match_id: int,
    opponent_name: str,
    decisions: int,
    error: float,
    luck: float,
    played_at: datetime,
) -> PerformanceRecord:
    """Record (or, analysed again, replace) one player's figures for one match."""
    record, _ = PerformanceRecord.objects.update_or_create(
        user=user,
        match_id=match_id,
        defaults={
            "opponent_name": opponent_name,
            "decisions": decisions,
            "error": error,
            "pr": pr_of(error, decisions),
            "luck": luck,
            "played_at": played_at,
        },
    )
    return record
