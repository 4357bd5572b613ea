"""Template helpers for dispute pages, and the disputes block of the match page."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.money import money_text
from accounts.viewers import request_viewer
from disputes.models import (
    AuditAction,
    AuditEntry,
    Decision,
    Dispute,
    DisputeCategory,
    DisputeState,
)
from disputes.outcome import summary_lines
from disputes.selectors import can_file, disputes_about
from matches.models import Match

register = template.Library()

DECISION_HELP = {
    Decision.DISMISS: _("Nothing was wrong; the result stands."),
    Decision.UPHOLD: _("The player is right; the result stands (a warning, a note)."),
    Decision.OVERTURN: _("The match goes to the other player; pot and bracket follow."),
    Decision.VOID: _("The match is cancelled, stakes refunded, a replay ordered."),
    Decision.READJUDICATE: _(
        "GNU Backgammon evaluates again, deeper; a changed result is applied."
    ),
    Decision.ADJUST: _("Money moves between wallets with ledger entries."),
}


APPEAL_HELP = {
    Decision.DISMISS: _("The decision was right; the sanctions stand."),
    Decision.UPHOLD: _("The player is right; the mute, suspension or closure is lifted."),
}


# Each decision as the staff's choice names it, a verb: "Dismiss", "Overturn".
DECISION_VERB = {
    Decision.DISMISS: _("Dismiss"),
    Decision.UPHOLD: _("Uphold"),
    Decision.OVERTURN: _("Overturn"),
    Decision.VOID: _("Void"),
    Decision.READJUDICATE: _("Readjudicate"),
    Decision.ADJUST: _("Adjust"),
}


@register.simple_tag
def decision_verb(value: str) -> str:
    return str(DECISION_VERB[Decision(value)])


@register.simple_tag
def decision_help(value: str, appeal: bool = False) -> str:
    return str((APPEAL_HELP if appeal else DECISION_HELP).get(Decision(value), ""))


@register.filter
def decision_lines(dispute: Dispute) -> list[str]:
    """What the decision changed, in the page's language (``disputes.outcome``)."""
    return summary_lines(dispute.outcome)


@register.filter
def audit_what(entry: AuditEntry) -> str:
    """What the audit entry records, in the page's language, from the entry's own data: the
    English ``what`` is kept for searching, and shown for an action it cannot say anew."""
    after, dispute = entry.after or {}, entry.dispute
    if entry.action == AuditAction.FILED and after.get("category") == DisputeCategory.APPEAL:
        return _("Filed (appeal of fair-play case #%(case)s)") % {"case": dispute.fairplay_case_id}
    if entry.action == AuditAction.FILED and after.get("category") in DisputeCategory.values:
        label = DisputeCategory(after["category"]).label
        return _("Filed (%(category)s)") % {"category": label}
    if entry.action == AuditAction.ASSIGNED and after.get("assignee"):
        return _("Taken by %(name)s") % {"name": after["assignee"]}
    if entry.action == AuditAction.DECIDED and dispute.decision in Decision.values:
        return str(Decision(dispute.decision).label)
    return entry.what


@register.filter
def percent(chance: float | None) -> str:
    return "—" if chance is None else f"{number_format(chance * 100, 1)}%"


@register.filter
def clock(milliseconds: int | None) -> str:
    if milliseconds is None:
        return "—"
    seconds = milliseconds // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


@register.filter
def audit_state(state: dict[str, Any]) -> str:
    """A snapshot of an audit entry in one line: the match, then each balance."""
    parts = []
    match = state.get("match")
    if match:
        parts.append(
            gettext("match %(status)s, winner %(winner)s")
            % {"status": match["status"], "winner": match["winner"] or gettext("none")}
        )
    names = {
        "state": gettext("state"),
        "assignee": gettext("assignee"),
        "category": gettext("category"),
    }
    for key, name in names.items():
        if key in state:
            parts.append(f"{name} {state[key] or gettext('none')}")
    for name, balances in state.get("balances", {}).items():
        shown = ", ".join(f"{money_text(cents)} {currency}" for currency, cents in balances.items())
        parts.append(f"{name}: {shown}")
    return " · ".join(parts) or "—"


@register.inclusion_tag("disputes/partials/match_disputes.html", takes_context=True)
def match_disputes(context: template.Context, match: Match) -> dict[str, Any]:
    """The match page's disputes: the viewer's, each with its decision, and a link to file."""
    request = context.get("request")
    viewer = request_viewer(request) if request is not None else None
    disputes = disputes_about(match=match, viewer=viewer)
    allowed = viewer is not None and match.started_at is not None and can_file(viewer, match)
    return {
        "match": match,
        "disputes": disputes,
        "can_file": allowed,
        "has_open": any(
            d.filed_by_id == getattr(viewer, "pk", None) and d.state != DisputeState.DECIDED
            for d in disputes
        ),
    }
