"""The analysis pages: a match's analysis, and the player's library of uploaded matches."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from accounts.models import User
from accounts.viewers import request_user, request_viewer
from core.errors import DomainError
from matches.engine import analysis_status
from matches.models import Match, MatchStatus
from matches.selectors import board_model, visible_matches
from reviews.match_formats import match_formats
from reviews.models import Analysis, AnalysisStatus
from reviews.selectors import analysis_data, format_name, library, visible_analyses
from reviews.services import MAX_UPLOAD_BYTES, analysis_for_match, analysis_upload


def match_analysis_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """A POST (a player of a finished match with no analysis, or staff) asks for one."""
    user = request_viewer(request)
    match = visible_matches(user=user).filter(pk=match_id).first()
    if match is None:
        raise Http404(_("No such match, or it is private"))
    if request.method == "POST" and _may_request(match, user):
        found = analysis_status()
        if not found.available:
            messages.error(
                request, _("Analysis is unavailable here: %(reason)s.") % {"reason": found.reason}
            )
        elif analysis_for_match(match.pk) is None:
            messages.error(
                request, _("No game of this match was played: there is nothing to analyse.")
            )
        return redirect("match-analysis", match.pk)
    analysis = visible_analyses(user=user).filter(match_id=match_id).first()
    return _page(request, analysis, match)


def _may_request(match: Match, user: User | None) -> bool:
    if user is None or match.status != MatchStatus.FINISHED:
        return False
    return match.seat_of(user) is not None or user.is_staff


def analysis_page(request: HttpRequest, analysis_id: int) -> HttpResponse:
    analysis = visible_analyses(user=request_viewer(request)).filter(pk=analysis_id).first()
    if analysis is None:
        raise Http404(_("No such analysis, or it is not yours"))
    return _page(request, analysis, analysis.match)


@login_required
def library_page(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    error = None
    found = analysis_status()
    if request.method == "POST":
        upload = request.FILES.get("file")
        if not found.available:
            error = _("Analysis is unavailable here: %(reason)s.") % {"reason": found.reason}
        elif upload is None:
            error = _("Choose a match file to upload.")
        else:
            try:
                analysis = analysis_upload(
                    owner=user, filename=upload.name or "", content=upload.read()
                )
            except DomainError as refused:
                error = str(refused)
            else:
                messages.success(request, _("Your match is queued for analysis."))
                return redirect("analysis", analysis.pk)
    return render(
        request,
        "reviews/library.html",
        {
            "analyses": [(a, format_name(a.file_format)) for a in library(user=user)],
            "accept": ",".join(
                sorted({suffix for known in match_formats() for suffix in known.extensions})
            ),
            "error": error,
            "max_kb": MAX_UPLOAD_BYTES // 1024,
            "unavailable": "" if found.available else found.reason,
        },
        status=(503 if not found.available else 400) if error else 200,
    )


def _page(request: HttpRequest, analysis: Analysis | None, match: Match | None) -> HttpResponse:
    user = request_viewer(request)
    data = _in_words(analysis_data(analysis)) if analysis is not None else None
    my_seat = match.seat_of(user) if match is not None else None
    if data is not None and match is not None:
        # The file names the players by username, as GNU Backgammon reads them; the page by
        # the names the site shows everywhere else.
        data["names"] = [match.player(seat).profile.display_name for seat in (0, 1)]
    may_request = analysis is None and match is not None and _may_request(match, user)
    found = analysis_status() if may_request else None
    return render(
        request,
        "reviews/analysis.html",
        {
            "analysis": analysis,
            "data": data,
            "match": match,
            "done": analysis is not None and analysis.status == AnalysisStatus.DONE,
            "page_data": _page_data(data, my_seat) if data is not None else None,
            "may_request": may_request,
            "analysis_unavailable": found.reason if found is not None else "",
        },
    )


# GNU Backgammon's words for a player's error rate and luck (``analysis.match_analysis``), as
# the page says them in the reader's language; the API gives the engine's own words.
_RATINGS = {
    "Awful!": pgettext_lazy("error rating", "Awful!"),
    "Beginner": pgettext_lazy("error rating", "Beginner"),
    "Casual player": pgettext_lazy("error rating", "Casual player"),
    "Intermediate": pgettext_lazy("error rating", "Intermediate"),
    "Advanced": pgettext_lazy("error rating", "Advanced"),
    "Expert": pgettext_lazy("error rating", "Expert"),
    "World class": pgettext_lazy("error rating", "World class"),
    "Supernatural": pgettext_lazy("error rating", "Supernatural"),
    "Go to bed": pgettext_lazy("luck rating", "Go to bed"),
    "Bad dice, man!": pgettext_lazy("luck rating", "Bad dice, man!"),
    "None": pgettext_lazy("luck rating", "None"),
    "Good dice, man!": pgettext_lazy("luck rating", "Good dice, man!"),
    "Go to Las Vegas": pgettext_lazy("luck rating", "Go to Las Vegas"),
}
_RATING_FIELDS = ("rating", "checker_rating", "cube_rating", "luck_rating")


def _in_words(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the players' ratings in the reader's language."""
    data["players"] = [
        {
            **figures,
            **{
                field: str(_RATINGS.get(figures[field], figures[field]))
                for field in _RATING_FIELDS
                if figures.get(field)
            },
        }
        for figures in data["players"]
    ]
    return data


def _page_data(data: dict[str, Any], my_seat: int | None) -> dict[str, Any]:
    """What static/js/analysis/analysis.js draws: each decision with its board (seat 0 below)."""
    return {
        "id": data["id"],
        "status": data["status"],
        "names": data["names"],
        "money": data["length"] == 0,
        "my_seat": my_seat,
        "decisions": [
            {**decision, "board": board_model(f"{decision['position_id']}:{decision['match_id']}")}
            for decision in data["decisions"]
        ],
        "course": data["course"],
    }
