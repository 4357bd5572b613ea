"""Opening fair-play cases and adding evidence to them: what every detector calls.

A detector names what it found by a ``key`` ("dumping:3:7": player 3 losing to player
7). While a case with that key is undecided, more evidence updates it, so one suspicion
is one case in the staff queue. Once decided, new evidence opens a new case, which
links to the earlier ones in its evidence.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction

from accounts.models import User
from core import locks
from core.locks import Lock
from fairplay.models import Case, CaseEvent, CaseKind, CaseState


def case_report(
    *,
    kind: CaseKind,
    subject: User,
    key: str,
    summary: str,
    evidence: dict[str, Any],
    others: Iterable[User] = (),
) -> Case:
    """Open a case, or give the undecided one with ``key`` the new evidence."""
    others = [other for other in others if other.pk != subject.pk]
    for _attempt in range(2):
        try:
            with transaction.atomic():
                return _report(kind, subject, key, summary, evidence, others)
        except IntegrityError:
            continue  # another worker opened it between our read and our write
    return _report(kind, subject, key, summary, evidence, others)


def _report(
    kind: CaseKind,
    subject: User,
    key: str,
    summary: str,
    evidence: dict[str, Any],
    others: list[User],
) -> Case:
    case = (
        locks.select(Lock.CASE, Case.objects.all())
        .filter(key=key, state__in=[CaseState.OPEN, CaseState.IN_REVIEW])
        .first()
    )
    earlier = list(
        Case.objects.filter(key=key)
        .exclude(state__in=[CaseState.OPEN, CaseState.IN_REVIEW])
        .values_list("pk", flat=True)
    )
    evidence = {**evidence, "earlier_cases": earlier} if earlier else evidence
    if case is None:
        case = Case.objects.create(
            kind=kind, subject=subject, key=key, summary=summary[:300], evidence=evidence
        )
        CaseEvent.objects.create(case=case, action="opened", detail={"summary": case.summary})
    elif case.evidence != evidence or case.summary != summary[:300]:
        case.evidence = evidence
        case.summary = summary[:300]
        case.save(update_fields=["evidence", "summary", "updated_at"])
        CaseEvent.objects.create(case=case, action="evidence", detail={"summary": case.summary})
    if others:
        case.others.add(*others)
    return case
