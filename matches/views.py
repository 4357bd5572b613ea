"""Pages for matches: a match's live board, answering a challenge, the dice check and the
staff's adjudication page. Matches start from the lobby (``lobby.views``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.viewers import request_user, request_viewer
from core import rows
from core.errors import DomainError
from matches import creation
from matches.adjudication import rerun
from matches.chat import chat_recent
from matches.models import Match
from matches.selectors import match_snapshot, visible_matches
from matches.verification import verify_match_dice


@login_required
@require_POST
def respond(request: HttpRequest, match_id: int, answer: str) -> HttpResponse:
    try:
        if answer == "accept":
            match = creation.match_accept(match_id=match_id, user=request_user(request))
            return redirect("match", match_id=match.pk)
        creation.match_decline(match_id=match_id, user=request_user(request))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("lobby")


@permission_required("accounts.handle_disputes", raise_exception=True)
def adjudication_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """Staff: the stored adjudication beside any deeper re-runs, and a form for another."""
    match = _visible(request_user(request), match_id)
    if request.method == "POST":
        try:
            rerun(
                match_id=match.pk,
                plies=int(request.POST.get("plies", "3")),
                staff=request_user(request),
            )
            messages.success(request, "Evaluated again; the new numbers are beside the original.")
        except (DomainError, ValueError) as error:
            messages.error(request, str(error))
        return redirect("match-adjudication", match_id=match.pk)
    return render(
        request,
        "matches/adjudication.html",
        {
            "match": match,
            "adjudications": match.adjudications.select_related("requested_by").order_by(
                "created_at"
            ),
        },
    )


def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    user = request_viewer(request)
    with rows.one_snapshot():
        match = _visible(user, match_id)
        snapshot = match_snapshot(match, viewer=user)
    profile = user.profile if user else None
    return render(
        request,
        "matches/match.html",
        {
            "match": match,
            "snapshot": snapshot,
            "ws_path": f"/ws/matches/{match.pk}/",
            "api_base": f"/api/matches/{match.pk}/",
            "preferences": {
                "checker_colour": profile.checker_colour if profile else "white",
                "highlight_legal_moves": profile.highlight_legal_moves if profile else True,
            },
            "is_player": user is not None and match.seat_of(user) is not None,
            "chat": chat_recent(
                match_id=match.pk,
                players_room=user is not None and match.seat_of(user) is not None,
                viewer_id=user.pk if user is not None else None,
            ),
        },
    )


def dice_check(request: HttpRequest, match_id: int) -> HttpResponse:
    user = request_viewer(request)
    match = _visible(user, match_id)
    return render(
        request, "matches/dice_check.html", {"match": match, "report": verify_match_dice(match)}
    )


def _visible(user: User | None, match_id: int) -> Match:
    match = visible_matches(user=user).filter(pk=match_id).first()
    if match is None:
        raise Http404("No such match, or it is private")
    return match
