"""What the match analysis tells the apps above it (through ``core.bus``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AnalysisChanged:
    """An analysis was queued, moved on (``done`` of ``total`` actions), finished or failed.

    ``user_ids``: who follows it live (both players of a played match, the uploader).
    """

    analysis_id: int
    match_id: int | None
    user_ids: tuple[int, ...]
    status: str
    done: int
    total: int
