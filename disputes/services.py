"""Writes for disputes: filing, taking a dispute, and deciding it with its effects.

Every staff action writes an ``AuditEntry`` with the state before and after, in the same
transaction as the action. A decision locks the dispute row, then the match row
(``matches.state.lock_match``), then, for a tournament match, the tournament row and the
next match (``tournaments.corrections``): the lock order of ``core.locks``. A decision
changes a match only through its services (``matches.lifecycle``: void, award, cancel,
replay), its money only through ``matches.money`` (a changed result reverses the standing
settlement and settles again, under keys derived from the dispute, so nothing is paid
twice) and a bracket only through ``tournaments.corrections``: those effects are
``disputes.remedies``'. Players are told after the commit (``disputes.events``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from accounts import ledger
from accounts.models import User
from core import locks
from core.errors import Conflict, DomainError, Forbidden, NotFound
from core.locks import Lock
from disputes import events
from disputes.models import (
    MATCH_CATEGORIES,
    AuditAction,
    AuditEntry,
    Decision,
    Dispute,
    DisputeCategory,
    DisputeState,
    english_label,
)
from disputes.outcome import in_english, line
from disputes.remedies import Adjustment, Remedy
from disputes.selectors import can_file, is_staff
from matches import adjudication
from matches.models import Adjudication, Match
from matches.state import lock_match

DESCRIPTION_LIMIT = 2000
DEFAULT_RERUN_PLIES = 3


# ---------------------------------------------------------------- filing and taking


@transaction.atomic
def dispute_file(*, user: User, match_id: int, category: str, description: str) -> Dispute:
    """A player of the match (or an entrant of its tournament) disputes it.

    A private match is refused to anyone else as a missing one is, word for word: the
    answer must not tell that it exists.
    """
    match = Match.objects.filter(pk=match_id).first()
    may_file = match is not None and can_file(user, match)
    if match is None or (match.private and not may_file):
        raise NotFound(_("There is no such match."))
    if not may_file:
        raise Forbidden(_("Only the players of a match, or of its tournament, can dispute it."))
    if match.started_at is None:
        raise Conflict(_("This match has not started; there is nothing to dispute yet."))
    if category == DisputeCategory.APPEAL:
        raise DomainError(_("A fair-play decision is appealed from its page, not about a match."))
    if category not in DisputeCategory.values:
        raise DomainError(
            _("Choose a category: %(categories)s.")
            % {"categories": ", ".join(code for code, label in MATCH_CATEGORIES)}
        )
    description = described(
        description, missing=_("Describe what went wrong: staff read it first.")
    )
    open_one = Dispute.objects.filter(match=match, filed_by=user).exclude(
        state=DisputeState.DECIDED
    )
    if open_one.exists():
        raise Conflict(_("You already have an open dispute about this match."))
    return filed(
        user=user,
        conflict=_("You already have an open dispute about this match."),
        what=f"Filed ({english_label(DisputeCategory(category).label)})",
        match=match,
        tournament_id=match.tournament_id,
        category=category,
        description=description,
    )


def described(text: str, *, missing: str) -> str:
    """The complaint's text, trimmed; ``missing`` is the refusal of an empty one."""
    text = text.strip()
    if not text:
        raise DomainError(missing)
    if len(text) > DESCRIPTION_LIMIT:
        raise DomainError(
            _("Keep the description within %(limit)s characters.") % {"limit": DESCRIPTION_LIMIT}
        )
    return text


def filed(*, user: User, conflict: str, what: str, **fields: Any) -> Dispute:
    """Create the dispute ``user`` files and its first audit entry; ``conflict`` is the
    refusal when one like it is open already (the constraints of ``Dispute``)."""
    try:
        with transaction.atomic():
            dispute = Dispute.objects.create(filed_by=user, **fields)
    except IntegrityError:
        raise Conflict(conflict) from None
    AuditEntry.objects.create(
        dispute=dispute,
        actor=user,
        action=AuditAction.FILED,
        what=what,
        after={"state": dispute.state, "category": dispute.category},
    )
    return dispute


@transaction.atomic
def dispute_assign(*, dispute_id: int, staff: User) -> Dispute:
    """``staff`` take the dispute (from whoever had it); it is then in review."""
    _require_staff(staff)
    dispute = _locked(dispute_id)
    if dispute.is_decided:
        raise Conflict(_("This dispute has been decided."))
    before = {"state": dispute.state, "assignee": _username(dispute.assignee)}
    dispute.assignee = staff
    dispute.state = DisputeState.IN_REVIEW
    dispute.save(update_fields=["assignee", "state"])
    AuditEntry.objects.create(
        dispute=dispute,
        actor=staff,
        action=AuditAction.ASSIGNED,
        what=f"Taken by {staff.username}",
        before=before,
        after={"state": dispute.state, "assignee": staff.username},
    )
    return dispute


# ---------------------------------------------------------------- deciding


def dispute_decide(
    *,
    dispute_id: int,
    staff: User,
    decision: str,
    reason: str,
    plies: int | None = None,
    adjustments: Sequence[Adjustment] = (),
) -> Dispute:
    """Decide the dispute with a reason and apply the decision's effects, all or nothing.

    Re-adjudication runs the engine first, outside the transaction, so no row is locked
    while it thinks; the deeper evaluation is kept beside the original either way.
    """
    _require_staff(staff)
    if decision not in Decision.values:
        raise DomainError(
            _("Decide one of: %(decisions)s.") % {"decisions": ", ".join(Decision.values)}
        )
    reason = reason.strip()
    if not reason:
        raise DomainError(_("Give a reason: the players read it and it is kept in the audit log."))
    if decision == Decision.ADJUST and not adjustments:
        raise DomainError(_("Say whose wallet changes, in which currency and by how much."))
    deeper: Adjudication | None = None
    if decision == Decision.READJUDICATE:
        dispute = _locked_or_missing(dispute_id, lock=False)
        if dispute.is_decided:
            raise Conflict(_("This dispute has been decided."))
        if dispute.match_id is None:
            raise DomainError(str(APPEAL_DECISIONS))
        deeper = adjudication.rerun(
            match_id=dispute.match_id, plies=plies or DEFAULT_RERUN_PLIES, staff=staff
        )
    return _decide(
        dispute_id=dispute_id,
        staff=staff,
        decision=Decision(decision),
        reason=reason,
        deeper=deeper,
        adjustments=adjustments,
    )


@transaction.atomic
def _decide(
    *,
    dispute_id: int,
    staff: User,
    decision: Decision,
    reason: str,
    deeper: Adjudication | None,
    adjustments: Sequence[Adjustment],
) -> Dispute:
    dispute = _locked(dispute_id)
    if dispute.is_decided:
        raise Conflict(_("This dispute has been decided."))
    if dispute.match_id is None:
        return _decide_appeal(dispute, staff, decision, reason)
    match = lock_match(dispute.match_id)
    people = [match.player_0, match.player_1, *(a.user for a in adjustments)]
    before = _snapshot(match, people)
    remedy = Remedy(dispute=dispute, match=match, staff=staff, reason=reason)
    if decision == Decision.OVERTURN:
        remedy.overturn()
    elif decision == Decision.VOID:
        remedy.void()
    elif decision == Decision.READJUDICATE:
        assert deeper is not None
        remedy.readjudicate(deeper)
    elif decision == Decision.ADJUST:
        remedy.adjust(adjustments)
    elif decision == Decision.UPHOLD:
        remedy.say(gettext_noop("The complaint is upheld; the result stands."))
    else:
        remedy.say(gettext_noop("The complaint is dismissed; the result stands."))
    after = _snapshot(Match.objects.get(pk=match.pk), people)
    return _record(dispute, staff, decision, reason, remedy.summary, remedy.changes, before, after)


APPEAL_DECISIONS = gettext_lazy(
    "An appeal is decided dismiss (the sanctions stand) or uphold (they are lifted)."
)


def _decide_appeal(dispute: Dispute, staff: User, decision: Decision, reason: str) -> Dispute:
    """An appeal changes no match here: fair play lifts the sanctions of an upheld one
    once this commits (``fairplay.appeals``)."""
    if decision not in (Decision.DISMISS, Decision.UPHOLD):
        raise DomainError(str(APPEAL_DECISIONS))
    if decision == Decision.UPHOLD:
        summary = line(
            gettext_noop("The appeal is upheld: the mute, suspension or closure is lifted.")
        )
    else:
        summary = line(gettext_noop("The appeal is dismissed: the sanctions stand."))
    before = {"state": dispute.state, "case": dispute.fairplay_case_id}
    after = {"state": DisputeState.DECIDED, "case": dispute.fairplay_case_id}
    return _record(dispute, staff, decision, reason, [summary], {}, before, after)


def _record(
    dispute: Dispute,
    staff: User,
    decision: Decision,
    reason: str,
    lines: list[dict[str, Any]],
    changes: dict[str, Any],
    before: dict[str, Any],
    after: dict[str, Any],
) -> Dispute:
    dispute.state = DisputeState.DECIDED
    dispute.decision = decision
    dispute.decision_reason = reason
    dispute.decided_by = staff
    dispute.decided_at = timezone.now()
    dispute.assignee = dispute.assignee or staff
    dispute.outcome = {"summary": in_english(lines), "said": lines, **changes}
    dispute.save()
    AuditEntry.objects.create(
        dispute=dispute,
        actor=staff,
        action=AuditAction.DECIDED,
        what=english_label(decision.label),
        reason=reason,
        before=before,
        after={**after, "changes": changes},
    )
    events.publish_decided(dispute)
    return dispute


# ---------------------------------------------------------------- helpers


def _snapshot(match: Match, people: Sequence[User]) -> dict[str, Any]:
    """What a decision may change: the match's state and the people's balances."""
    return {
        "match": {
            "status": match.status,
            "winner": match.player(match.winner_seat).username
            if match.winner_seat is not None
            else None,
        },
        "balances": {person.username: ledger.balances(user=person) for person in people},
    }


def _locked(dispute_id: int) -> Dispute:
    """The dispute row, locked: the first lock of a decision (see ``matches.state``)."""
    return _locked_or_missing(dispute_id, lock=True)


def _locked_or_missing(dispute_id: int, *, lock: bool) -> Dispute:
    disputes = (
        locks.select(Lock.DISPUTE, Dispute.objects.all(), dispute_id, of=("self",))
        if lock
        else Dispute.objects.all()
    )
    try:
        return disputes.get(pk=dispute_id)
    except Dispute.DoesNotExist:
        raise NotFound(_("There is no dispute %(dispute)s.") % {"dispute": dispute_id}) from None


def _require_staff(user: User) -> None:
    if not is_staff(user):
        raise Forbidden(_("Only staff can handle disputes."))


def _username(user: User | None) -> str | None:
    return user.username if user is not None else None
