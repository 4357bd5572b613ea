"""Pages: the home page; the play lobby where matches start (open seeks and "Play now",
challenges, pass and play, practice against the computer); the player's notices."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from accounts.viewers import request_user, request_viewer
from core.errors import DomainError
from core.throttles import retry_after, throttle_player
from lobby import seeks
from lobby.forms import ChallengeForm, PassAndPlayForm, SeekForm
from lobby.notifications import notices_read
from lobby.selectors import (
    home_page,
    live_matches,
    notices_of,
    open_challenges,
    recent_results,
    seek_list,
)
from matches import creation
from matches.clock import CLOCK_PRESETS
from matches.engine import engine_status
from matches.models import Match, MatchStatus
from matches.practice import STRENGTH_NAMES, practice_create


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "lobby/home.html", {"page": home_page(viewer=request_viewer(request))})


def play(request: HttpRequest) -> HttpResponse:
    user = request_viewer(request)
    return _play_page(request, user, ChallengeForm(user=user) if user else None)


def _play_page(
    request: HttpRequest,
    user: User | None,
    form: ChallengeForm | None,
    status: int = 200,
    seek_form: SeekForm | None = None,
) -> HttpResponse:
    context: dict[str, Any] = {
        "form": form,
        "seek_form": seek_form or (SeekForm(user=user) if user else None),
        "seeks": seek_list(viewer=user),
        "pass_and_play_form": PassAndPlayForm() if user else None,
        # The names are kept in English (a computer player's own name); the list says them
        # in the page's language.
        "strengths": [(level.value, str(name)) for level, name in STRENGTH_NAMES.items()],
        "practice_unavailable": "" if (found := engine_status()).available else found.reason,
        "challenges": open_challenges(user=user) if user else [],
        "live": live_matches(),
        "results": recent_results(),
    }
    return render(request, "lobby/play.html", context, status=status)


def _too_many(request: HttpRequest, user: User) -> HttpResponse | None:
    """Challenges, seeks and "Play now" share one budget per player (scope ``challenge``)."""
    wait = throttle_player("challenge", user.pk)
    if wait is None:
        return None
    messages.error(
        request,
        _("Too many challenges at once: try again in %(seconds)s s.")
        % {"seconds": retry_after(wait)},
    )
    response = redirect("lobby")
    response["Retry-After"] = str(retry_after(wait))
    return response


@login_required
@require_POST
def challenge(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    refused = _too_many(request, user)
    if refused is not None:
        return refused
    form = ChallengeForm(request.POST, user=user)
    if not form.is_valid():
        return _play_page(request, user, form, status=400)
    data = form.cleaned_data
    try:
        match = creation.challenge_from_input(
            challenger=user, opponent=data["opponent"], values=data
        )
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    if match.status == MatchStatus.PLAYING:  # a demo player the computer plays accepted
        return redirect("match", match_id=match.pk)
    messages.success(
        request,
        _("Challenge sent to %(name)s.") % {"name": match.player_1.profile.display_name},
    )
    return redirect("lobby")


@login_required
@require_POST
def pass_and_play(request: HttpRequest) -> HttpResponse:
    form = PassAndPlayForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("Choose a match length from 1 to %(most)s.") % {"most": creation.MAX_MATCH_LENGTH},
        )
        return redirect("lobby")
    match = creation.pass_and_play_create(
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
            request, str(error) if isinstance(error, DomainError) else _("Choose a match length.")
        )
        return redirect("lobby")
    return redirect("match", match_id=match.pk)


# ---------------------------------------------------------------- seeks


@require_GET
def seeks_fragment(request: HttpRequest) -> HttpResponse:
    """The open seeks' list alone, fetched again by the page when it may have missed a change
    (its socket came back) or lacks a seek (one gone from a full list)."""
    return render(
        request, "lobby/partials/seeks.html", {"seeks": seek_list(viewer=request_viewer(request))}
    )


@login_required
@require_POST
def seek_post(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    refused = _too_many(request, user)
    if refused is not None:
        return refused
    form = SeekForm(request.POST, user=user)
    if not form.is_valid():
        return _play_page(request, user, ChallengeForm(user=user), status=400, seek_form=form)
    data = form.cleaned_data
    money_play = data["kind"] == "money"
    try:
        seeks.seek_post(
            user=user,
            terms=seeks.SeekTerms(
                kind=data["kind"],
                length=0 if money_play else data["length"],
                stake_cents=data["stake_cents"],
                currency=data["currency"],
                clock=CLOCK_PRESETS[data["clock"]][1],
                rated=data["rated"],
                min_rating=data["min_rating"],
                max_rating=data["max_rating"],
            ),
        )
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    messages.success(request, _("Your seek is posted: you will be told when someone takes it."))
    return redirect("lobby")


@login_required
@require_POST
def seek_take(request: HttpRequest, seek_id: int) -> HttpResponse:
    try:
        match = seeks.seek_accept(seek_id=seek_id, user=request_user(request))
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    return redirect("match", match_id=match.pk)


@login_required
@require_POST
def seek_cancel(request: HttpRequest, seek_id: int) -> HttpResponse:
    try:
        seeks.seek_cancel(seek_id=seek_id, user=request_user(request))
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Your seek is cancelled."))
    return redirect("lobby")


@login_required
@require_POST
def play_now(request: HttpRequest) -> HttpResponse:
    user = request_user(request)
    refused = _too_many(request, user)
    if refused is not None:
        return refused
    try:
        found = seeks.play_now(user=user)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("lobby")
    if isinstance(found, Match):
        return redirect("match", match_id=found.pk)
    messages.success(
        request,
        _(
            "Nobody you can play is waiting: your seek is posted, and you will be told "
            "the moment someone takes it."
        ),
    )
    return redirect("lobby")


# ---------------------------------------------------------------- notices

NOTICES_PER_PAGE = 50


@login_required
@require_GET
def notifications(request: HttpRequest) -> HttpResponse:
    before_text = request.GET.get("before", "")
    before = int(before_text) if before_text.isdigit() and len(before_text) <= 18 else None
    notices = notices_of(
        user_id=request_user(request).pk, before=before, limit=NOTICES_PER_PAGE + 1
    )
    return render(
        request,
        "lobby/notifications.html",
        {
            "notices": notices[:NOTICES_PER_PAGE],
            "older": notices[NOTICES_PER_PAGE - 1].pk if len(notices) > NOTICES_PER_PAGE else None,
        },
    )


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    notices_read(user_id=request_user(request).pk)
    return redirect("notifications")
