"""Pages for matches: the lobby, a match's live board, and the dice check."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts.models import User
from config.api import request_user, request_viewer
from config.errors import DomainError
from matches import services
from matches.adjudication import rerun
from matches.chat import chat_recent
from matches.forms import ChallengeForm, PassAndPlayForm
from matches.models import Match
from matches.practice import STRENGTH_NAMES, practice_create
from matches.selectors import (
    live_matches,
    match_snapshot,
    open_challenges,
    recent_results,
    visible_matches,
)
from matches.verification import verify_match_dice


def lobby(request: HttpRequest) -> HttpResponse:
    user = request_viewer(request)
    form = ChallengeForm(user=user) if user else None
    return render(
        request,
        "matches/lobby.html",
        {
            "form": form,
            "pass_and_play_form": PassAndPlayForm() if user else None,
            "strengths": [(level.value, name) for level, name in STRENGTH_NAMES.items()],
            "challenges": open_challenges(user=user) if user else [],
            "live": live_matches(),
            "results": recent_results(),
        },
    )


@login_required
@require_POST
def challenge(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    form = ChallengeForm(request.POST, user=user)
    if not form.is_valid():
        return render(
            request,
            "matches/lobby.html",
            {
                "form": form,
                "pass_and_play_form": PassAndPlayForm(),
                "challenges": open_challenges(user=user),
                "live": live_matches(),
                "results": recent_results(),
            },
            status=400,
        )
    data = form.cleaned_data
    try:
        match = services.match_challenge(
            challenger=user,
            opponent=data["opponent"],
            length=data["length"] if data["kind"] == "match" else None,
            money=data["kind"] == "money",
            stake_cents=data["stake_cents"],
            currency=data["currency"],
            rated=data["rated"],
            private=data["private"],
        )
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    messages.success(request, f"Challenge sent to {match.player_1.profile.display_name}.")
    return redirect("lobby")


@login_required
@require_POST
def respond(request: HttpRequest, match_id: int, answer: str) -> HttpResponse:
    try:
        if answer == "accept":
            match = services.match_accept(match_id=match_id, user=request_user(request))
            return redirect("match", match_id=match.pk)
        services.match_decline(match_id=match_id, user=request_user(request))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("lobby")


@login_required
@require_POST
def pass_and_play(request: HttpRequest) -> HttpResponse:
    form = PassAndPlayForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a match length from 1 to 25 points.")
        return redirect("lobby")
    match = services.pass_and_play_create(
        user=request_user(request), length=form.cleaned_data["length"]
    )
    return redirect("match", match_id=match.pk)


@login_required
@require_POST
def practice(request: HttpRequest) -> HttpResponse:
    try:
        length = int(request.POST.get("length", "3"))
        match = practice_create(
            user=request_user(request), length=length, strength=request.POST.get("strength", "")
        )
    except (DomainError, ValueError) as error:
        messages.error(
            request, str(error) if isinstance(error, DomainError) else "Choose a match length."
        )
        return redirect("lobby")
    return redirect("match", match_id=match.pk)


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
    match = _visible(user, match_id)
    profile = user.profile if user else None
    return render(
        request,
        "matches/match.html",
        {
            "match": match,
            "snapshot": match_snapshot(match, viewer=user),
            "ws_path": f"/ws/matches/{match.pk}/",
            "api_base": f"/api/matches/{match.pk}/",
            "preferences": {
                "checker_colour": profile.checker_colour if profile else "white",
                "highlight_legal_moves": profile.highlight_legal_moves if profile else True,
            },
            "is_player": user is not None and match.seat_of(user) is not None,
            "chat": chat_recent(match=match, viewer=user),
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
