"""Reads for fair play: the staff queue, one case with its evidence, a player's own cases."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from fairplay.models import Case, CaseState, Sanction, SanctionKind

HANDLE_CASES = "accounts.handle_disputes"
AGES = {"hour": timedelta(hours=1), "day": timedelta(days=1), "week": timedelta(days=7)}


def is_fairplay_staff(user: User | None) -> bool:
    return user is not None and user.is_authenticated and user.has_perm(HANDLE_CASES)


def case_queue(
    *, state: str = "", kind: str = "", subject: str = "", age: str = ""
) -> QuerySet[Case]:
    """Cases for staff, oldest undecided first; filters as on the dispute queue."""
    cases = Case.objects.select_related("subject", "assignee", "decided_by")
    if state == "undecided":
        cases = cases.filter(state__in=[CaseState.OPEN, CaseState.IN_REVIEW, CaseState.APPEALED])
    elif state:
        cases = cases.filter(state=state)
    if kind:
        cases = cases.filter(kind=kind)
    if subject:
        cases = cases.filter(
            Q(subject__username__iexact=subject) | Q(others__username__iexact=subject)
        )
    if age in AGES:
        cases = cases.filter(opened_at__lte=timezone.now() - AGES[age])
    return cases.distinct().order_by("opened_at", "pk")


def cases_of(*, user: User) -> QuerySet[Case]:
    """The decided cases about a player, which they may read and appeal."""
    return Case.objects.filter(
        subject=user, state__in=[CaseState.DECIDED, CaseState.APPEALED]
    ).order_by("-decided_at", "-pk")


def case_match_ids(case: Case) -> list[int]:
    """The matches a case's evidence names."""
    evidence = case.evidence or {}
    ids = {row["match"] for row in evidence.get("matches", []) if isinstance(row, dict)}
    ids |= {row["match"] for row in evidence.get("stalls", []) if isinstance(row, dict)}
    ids |= {int(match_id) for match_id in evidence.get("match_ids", [])}
    return sorted(int(match_id) for match_id in ids if match_id)


def case_data(case: Case, *, with_evidence: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": case.pk,
        "kind": case.kind,
        "kind_label": case.get_kind_display(),
        "subject": case.subject.username,
        "others": [user.username for user in case.others.order_by("username")],
        "summary": case.summary,
        "state": case.state,
        "assignee": case.assignee.username if case.assignee else None,
        "decision": case.decision,
        "decision_reason": case.decision_reason,
        "decided_by": case.decided_by.username if case.decided_by else None,
        "decided_at": case.decided_at,
        "appeal": case.appeal,
        "appealed_at": case.appealed_at,
        "appeal_dispute": case.appeal_dispute_id,
        "opened_at": case.opened_at,
        "updated_at": case.updated_at,
        "sanctions": [
            {
                "kind": sanction.kind,
                "user": sanction.user.username,
                "until": sanction.until,
                "reason": sanction.reason,
                "staff": sanction.staff.username,
                "outcome": sanction.outcome,
                "told": sanction.outcome.get("told", ""),
                "at": sanction.created_at,
            }
            for sanction in case.sanctions.select_related("user", "staff")
        ],
    }
    if with_evidence:
        data["evidence"] = case.evidence
        data["log"] = [
            {
                "action": event.action,
                "actor": event.actor.username if event.actor else None,
                "detail": event.detail,
                "at": event.at,
            }
            for event in case.events.select_related("actor")
        ]
    return data


def sanction_told(sanction: Sanction) -> str:
    """What the sanctioned player is told, in the active language: what was done and the
    staff's reason, as written ("Suspended until 05 Mar 2027 14:00: dumping chips")."""
    blanks: dict[str, Any] = {"reason": sanction.reason, "case": sanction.case_id}
    if sanction.until is not None:
        blanks["until"] = date_format(timezone.localtime(sanction.until), "d M Y H:i")
    kind = sanction.kind
    if kind == SanctionKind.MUTE:
        return _("Muted until %(until)s: %(reason)s") % blanks
    if kind == SanctionKind.SUSPEND:
        return _("Suspended until %(until)s: %(reason)s") % blanks
    if kind == SanctionKind.WARN:
        return _("A warning from staff: %(reason)s") % blanks
    if kind == SanctionKind.CLOSE:
        return _("Your account is closed: %(reason)s") % blanks
    if kind == SanctionKind.REVERSE:
        return _("Money from the matches in case #%(case)s was moved back: %(reason)s") % blanks
    if kind == SanctionKind.VOID_RATINGS:
        voided = len(sanction.outcome.get("rating_changes_voided", []))
        return ngettext(
            "The rating change of %(count)s result was voided: %(reason)s",
            "The rating changes of %(count)s results were voided: %(reason)s",
            voided,
        ) % {**blanks, "count": voided}
    if kind == SanctionKind.LINK:
        return _("Staff recorded your accounts as one person's: %(reason)s") % blanks
    return _("On appeal, your restrictions are lifted: %(reason)s") % blanks
