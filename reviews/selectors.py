"""Reads of the match analysis: one analysis as the API gives it, libraries, PR tables."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet

from accounts.models import User
from accounts.selectors import pr_of
from matches.selectors import visible_matches
from reviews.match_formats import format_named
from reviews.models import Analysis, AnalysisSource, AnalysisStatus

ENGINE = "GNU Backgammon"


def analysis_data(analysis: Analysis) -> dict[str, Any]:
    """The shape of ``GET /api/analyses/<id>/`` and ``GET /api/matches/<id>/analysis/``."""
    result = analysis.result or {}
    return {
        "id": analysis.pk,
        "status": analysis.status,
        "origin": analysis.source,
        "match": analysis.match_id,
        "filename": analysis.filename,
        "format": analysis.file_format or None,
        "format_name": format_name(analysis.file_format),
        "names": list(analysis.players),
        "length": analysis.match_length,
        "settings": {
            "engine": ENGINE,
            "plies": analysis.plies,
            "cubeful": True,
            "checker_play": f"{analysis.plies}-ply",
            "cube_decisions": f"{analysis.plies}-ply",
        },
        "progress": {"done": analysis.done, "total": analysis.total},
        "error": analysis.error or None,
        "created_at": analysis.created_at.isoformat(),
        "finished_at": analysis.finished_at.isoformat() if analysis.finished_at else None,
        "players": result.get("players", []),
        "games": result.get("games", []),
        # Analyses stored before cube decisions kept their equities have no "cube".
        "decisions": [{"cube": None, **decision} for decision in result.get("decisions", [])],
        "course": result.get("course", []),
    }


def format_name(key: str) -> str | None:
    """How a player knows an uploaded file's format ("GamesGrid .sgg"); None for a match
    played here."""
    if not key:
        return None
    known = format_named(key)
    return known.name if known is not None else key


def analysis_summary(analysis: Analysis) -> dict[str, Any]:
    """A library row: no decisions."""
    data = analysis_data(analysis)
    for heavy in ("games", "decisions", "course"):
        del data[heavy]
    return data


def visible_analyses(*, user: User | None) -> QuerySet[Analysis]:
    """Analyses ``user`` may read: of every match they may watch, and their own uploads;
    staff read every one (disputes and fair-play cases)."""
    played = Q(source=AnalysisSource.PLAYED, match__in=visible_matches(user=user))
    if user is None:
        return Analysis.objects.filter(played)
    if user.is_staff:
        return Analysis.objects.all()
    return Analysis.objects.filter(played | Q(source=AnalysisSource.UPLOADED, owner=user))


def library(*, user: User, limit: int = 100) -> list[Analysis]:
    """The player's uploads, newest first."""
    return list(
        Analysis.objects.filter(owner=user, source=AnalysisSource.UPLOADED)
        .defer("result", "mat")
        .order_by("-created_at", "-pk")[:limit]
    )


def analysis_of_match(match_id: int) -> Analysis | None:
    return Analysis.objects.filter(match_id=match_id).first()


def pr_table(match_ids: Iterable[int]) -> list[dict[str, Any]]:
    """Each player's PR over the analysed matches among ``match_ids`` (a tournament's),
    errors and decisions summed over the matches; lowest PR first."""
    totals: dict[str, dict[str, Any]] = {}
    analyses = Analysis.objects.filter(
        match_id__in=list(match_ids), status=AnalysisStatus.DONE
    ).only("result", "match_id")
    for analysis in analyses:
        for figures in (analysis.result or {}).get("players", []):
            row = totals.setdefault(
                figures["username"],
                {"username": figures["username"], "error": 0.0, "decisions": 0, "matches": 0},
            )
            row["error"] += figures["error"]
            row["decisions"] += figures["decisions"]
            row["matches"] += 1
    table = [{**row, "pr": pr_of(row["error"], row["decisions"])} for row in totals.values()]
    table.sort(key=lambda row: (row["pr"] is None, row["pr"] or 0.0, row["username"]))
    return table
