"""Pages for fair play: the staff queue beside disputes, a case with its evidence and the
decision form, and a player's own cases with the appeal."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.viewers import request_user
from core.errors import DomainError
from fairplay import appeals, evidence, sanctions
from fairplay.models import Case, CaseKind, CaseState, SanctionKind
from fairplay.selectors import case_data, case_queue, cases_of, is_fairplay_staff

AGE_LABELS = {
    "hour": _("Older than an hour"),
    "day": _("Older than a day"),
    "week": _("Older than a week"),
}
ORDER_CHOICES = [
    (SanctionKind.WARN, _("Warn")),
    (SanctionKind.MUTE, _("Mute")),
    (SanctionKind.SUSPEND, _("Suspend")),
    (SanctionKind.CLOSE, _("Close the account")),
    (SanctionKind.REVERSE, _("Move the dumped money back")),
    (SanctionKind.VOID_RATINGS, _("Void the matches' rating changes")),
    (SanctionKind.LINK, _("Record the accounts as one person's")),
]
# A case log's actions (``CaseEvent.action``) as staff read them.
LOG_ACTIONS = {
    "opened": pgettext_lazy("case log", "opened"),
    "evidence": pgettext_lazy("case log", "evidence added"),
    "assigned": pgettext_lazy("case log", "taken"),
    "decided": pgettext_lazy("case log", "decided"),
    "appealed": pgettext_lazy("case log", "appealed"),
    "appeal_decided": pgettext_lazy("case log", "appeal decided"),
}
DATED = (SanctionKind.MUTE, SanctionKind.SUSPEND)


def _require_staff(viewer: User) -> None:
    if not is_fairplay_staff(viewer):
        raise PermissionDenied(gettext("Only staff handle fair-play cases."))


@login_required
def queue(request: HttpRequest) -> HttpResponse:
    viewer = request_user(request)
    _require_staff(viewer)
    filters = {
        "state": request.GET.get("state", "undecided"),
        "kind": request.GET.get("kind", ""),
        "subject": request.GET.get("subject", "")[:150],
        "age": request.GET.get("age", ""),
    }
    state = "" if filters["state"] == "all" else filters["state"]
    cases = case_queue(
        state=state, kind=filters["kind"], subject=filters["subject"], age=filters["age"]
    ).prefetch_related("others")[:200]
    return render(
        request,
        "fairplay/queue.html",
        {
            "cases": cases,
            "filters": filters,
            "states": [
                ("undecided", gettext("Not decided")),
                *CaseState.choices,
                ("all", pgettext("case states", "All")),
            ],
            "kinds": CaseKind.choices,
            "ages": AGE_LABELS.items(),
        },
    )


@login_required
def detail(request: HttpRequest, case_id: int) -> HttpResponse:
    viewer = request_user(request)
    case = Case.objects.select_related("subject__profile").filter(pk=case_id).first()
    if case is None:
        raise Http404(gettext("No such case."))
    staff = is_fairplay_staff(viewer)
    if not staff and not (case.subject_id == viewer.pk and not case.is_undecided):
        raise Http404(gettext("No such case."))
    data = case_data(case, with_evidence=staff)
    for sanction in data["sanctions"]:
        sanction["label"] = SanctionKind(sanction["kind"]).label
    for line in data.get("log", []):
        line["label"] = LOG_ACTIONS.get(line["action"], line["action"])
    return render(
        request,
        "fairplay/detail.html",
        {
            "case": case,
            "data": data,
            "is_staff": staff,
            "sections": evidence.sections(data.get("evidence") or {}),
            "order_choices": ORDER_CHOICES,
            "dated": [kind.value for kind in DATED],
            "people": [case.subject, *case.others.order_by("username")],
            "default_until": (timezone.localdate() + timedelta(days=7)).isoformat(),
        },
    )


@login_required
@require_POST
def assign(request: HttpRequest, case_id: int) -> HttpResponse:
    viewer = request_user(request)
    _require_staff(viewer)
    try:
        sanctions.case_assign(case_id=case_id, staff=viewer)
        messages.success(request, gettext("The case is yours."))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("fairplay-case", case_id=case_id)


@login_required
@require_POST
def decide(request: HttpRequest, case_id: int) -> HttpResponse:
    viewer = request_user(request)
    _require_staff(viewer)
    try:
        decided = sanctions.case_decide(
            case_id=case_id,
            staff=viewer,
            decision=request.POST.get("decision", ""),
            reason=request.POST.get("reason", ""),
            orders=_orders(request),
        )
        messages.success(request, _decided_words(decided))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("fairplay-case", case_id=case_id)


def _decided_words(case: Case) -> str:
    """What staff read once they decided: who was told, or that nobody was."""
    told = sorted({sanction.user.username for sanction in case.sanctions.select_related("user")})
    if not told:
        return gettext("%(decision)s. Nothing was sent to the players.") % {
            "decision": case.decision_label
        }
    return gettext("%(decision)s. Told of the decision: %(players)s.") % {
        "decision": case.decision_label,
        "players": ", ".join(told),
    }


def _orders(request: HttpRequest) -> list[sanctions.Order]:
    orders = []
    for kind in request.POST.getlist("sanction"):
        username = request.POST.get(f"user_{kind}", "")
        user = User.objects.filter(username=username).first() if username else None
        until = None
        if kind in DATED:
            try:
                day = parse_date(request.POST.get(f"until_{kind}", ""))
            except ValueError:  # well formed but no such day, as 2026-02-31
                day = None
            if day is None:
                if kind == SanctionKind.MUTE:
                    raise DomainError(gettext("Give the date the mute ends, as 2026-12-31."))
                raise DomainError(gettext("Give the date the suspension ends, as 2026-12-31."))
            until = timezone.make_aware(datetime.combine(day, time(23, 59)))
        orders.append(sanctions.Order(kind=kind, user=user, until=until))
    return orders


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    viewer = request_user(request)
    return render(request, "fairplay/mine.html", {"cases": cases_of(user=viewer)})


@login_required
@require_POST
def appeal(request: HttpRequest, case_id: int) -> HttpResponse:
    viewer = request_user(request)
    try:
        case = appeals.case_appeal(case_id=case_id, user=viewer, text=request.POST.get("text", ""))
        messages.success(
            request,
            gettext("Your appeal is filed as dispute #%(number)s. You will be told the answer.")
            % {"number": case.appeal_dispute_id},
        )
    except DomainError as error:
        messages.error(request, str(error))
    return redirect("fairplay-my-case", case_id=case_id)
