"""Pages for disputes: filing one, the staff queue, a dispute with its evidence and replay,
the player's own disputes, and the audit log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import Currency, User
from accounts.money import NotAnAmount, cents_from_text
from accounts.viewers import request_user
from core.errors import DomainError
from disputes import services
from disputes.api import adjustments_from
from disputes.models import MATCH_CATEGORIES, Decision, Dispute, DisputeCategory, DisputeState
from disputes.selectors import (
    CONNECTION_KINDS,
    HANDLE_DISPUTES,
    audit_log,
    can_file,
    can_see_evidence,
    dispute_queue,
    disputes_of,
    evidence,
    is_staff,
    replay_steps,
    visible_disputes,
)
from matches.models import Match
from reviews.selectors import analysis_of_match
from tournaments.models import Tournament

APPEAL_DECISIONS = [
    (Decision.DISMISS.value, gettext_lazy("Dismiss")),
    (Decision.UPHOLD.value, gettext_lazy("Uphold")),
]
AGE_LABELS = {
    "hour": gettext_lazy("Older than an hour"),
    "day": gettext_lazy("Older than a day"),
    "week": gettext_lazy("Older than a week"),
}


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    viewer = request_user(request)
    staff = is_staff(viewer)
    organized = Tournament.objects.filter(organizer=viewer)
    if not staff and not organized.exists():
        return redirect("disputes-mine")
    tournament = request.GET.get("tournament", "")
    filters = {
        "state": request.GET.get("state", "undecided"),
        "category": request.GET.get("category", ""),
        "tournament": tournament,
        "age": request.GET.get("age", ""),
    }
    disputes = dispute_queue(
        viewer=viewer,
        state=filters["state"],
        category=filters["category"],
        tournament=int(tournament) if tournament.isdigit() else None,
        age=filters["age"],
    )[:200]
    tournaments = Tournament.objects.filter(
        pk__in=visible_disputes(viewer=viewer).values("tournament_id")
    ).order_by("-pk")
    return render(
        request,
        "disputes/queue.html",
        {
            "disputes": disputes,
            "filters": filters,
            "states": [
                ("undecided", pgettext_lazy("dispute state", "Not decided")),
                *DisputeState.choices,
                ("all", pgettext_lazy("dispute state", "All")),
            ],
            "categories": DisputeCategory.choices,
            "ages": AGE_LABELS.items(),
            "tournaments": tournaments,
            "is_staff": staff,
        },
    )


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "disputes/mine.html",
        {"disputes": disputes_of(user=request_user(request))},
    )


@login_required
@permission_required(HANDLE_DISPUTES, raise_exception=True)
def audit(request: HttpRequest) -> HttpResponse:
    return render(request, "disputes/audit.html", {"entries": audit_log()})


@login_required
def file(request: HttpRequest, match_id: int) -> HttpResponse:
    user = request_user(request)
    match = (
        Match.objects.select_related("player_0__profile", "player_1__profile")
        .filter(pk=match_id)
        .first()
    )
    if match is None or not can_file(user, match):
        raise Http404(_("No such match of yours."))
    values = {"category": "", "description": ""}
    if request.method == "POST":
        values = {
            "category": request.POST.get("category", ""),
            "description": request.POST.get("description", ""),
        }
        try:
            dispute = services.dispute_file(user=user, match_id=match.pk, **values)
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Your dispute is filed; staff will look at it."))
            return redirect("dispute", dispute_id=dispute.pk)
    return render(
        request,
        "disputes/file.html",
        {"match": match, "categories": MATCH_CATEGORIES, "values": values},
        status=400 if request.method == "POST" else 200,
    )


@login_required
def detail(request: HttpRequest, dispute_id: int) -> HttpResponse:
    viewer = request_user(request)
    dispute = _visible(viewer, dispute_id)
    staff = is_staff(viewer)
    match = dispute.match
    context: dict[str, object] = {
        "dispute": dispute,
        "is_staff": staff,
        "evidence": None,
        "decisions": APPEAL_DECISIONS if match is None else Decision.choices,
        "currencies": Currency.values,
        "players": [match.player_0, match.player_1] if match is not None else [],
    }
    if can_see_evidence(viewer, dispute):
        context["evidence"] = evidence(dispute)
        context["audit"] = audit_log(dispute_id=dispute.pk)
        if match is not None:
            context["replay"] = [step.to_dict() for step in replay_steps(match)]
            context["analysis"] = analysis_of_match(match.pk)
            context["connection_kinds"] = [kind.value for kind in CONNECTION_KINDS]
    return render(request, "disputes/detail.html", context)


@login_required
@require_POST
def assign(request: HttpRequest, dispute_id: int) -> HttpResponse:
    viewer = request_user(request)
    _visible(viewer, dispute_id)
    try:
        services.dispute_assign(dispute_id=dispute_id, staff=viewer)
        messages.success(request, _("The dispute is yours."))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("dispute", dispute_id=dispute_id)


@login_required
@require_POST
def decide(request: HttpRequest, dispute_id: int) -> HttpResponse:
    viewer = request_user(request)
    _visible(viewer, dispute_id)
    if not is_staff(viewer):
        raise PermissionDenied(_("Only staff decide disputes."))
    decision = request.POST.get("decision", "")
    try:
        rows = _adjustment_rows(request) if decision == Decision.ADJUST else []
        plies = request.POST.get("plies", "")
        services.dispute_decide(
            dispute_id=dispute_id,
            staff=viewer,
            decision=decision,
            reason=request.POST.get("reason", ""),
            plies=int(plies) if plies.isdigit() else None,
            adjustments=adjustments_from(rows, staff=viewer),
        )
        messages.success(request, _("Decided. The players have been told."))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("dispute", dispute_id=dispute_id)


def _adjustment_rows(request: HttpRequest) -> list[dict[str, object]]:
    rows = []
    for user, currency, amount in zip(
        request.POST.getlist("adjust_user"),
        request.POST.getlist("adjust_currency"),
        request.POST.getlist("adjust_amount"),
        strict=False,
    ):
        if not user or not amount.strip():
            continue
        try:
            cents = cents_from_text(amount)
        except NotAnAmount as error:
            raise DomainError(str(error)) from None
        rows.append({"user": user, "currency": currency, "amount_cents": cents})
    return rows


def _visible(viewer: User, dispute_id: int) -> Dispute:
    dispute = visible_disputes(viewer=viewer).filter(pk=dispute_id).first()
    if dispute is None:
        raise Http404("No such dispute.")
    return dispute
