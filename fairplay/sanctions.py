"""Staff take a fair-play case, decide it with a reason, and the sanctions take effect.

A decision is ``dismiss`` (nothing wrong was done) or ``sanction`` with one or more
sanctions, each applied through the services that own what it changes:

* ``warn``: the player is told, nothing else changes;
* ``mute`` / ``suspend`` until a date: ``accounts.standing`` (a suspended player cannot
  play, register or have winnings paid out until the date);
* ``suspend`` and ``close`` also withdraw the player's invitations (here) and seeks (the
  lobby, told by ``SanctionApplied``), end their sessions and close their sockets
  (``standing_restrict``), and forfeit their matches in running tournaments, now and as
  each later one comes up while the bar lasts (``matches.forfeits``: the opponent
  advances as over a no-show);
* ``close``: the account is closed for good, leaves the tournaments it waits to play in
  with buy-in and fee refunded, and its balances are paid out through the ledger (the
  stated policy: a closed player's money is theirs, unless staff first reverse what was
  dumped to them in the same decision);
* ``reverse``: the money that flowed from the case's subject to the other player over the
  case's matches goes back, as ledger corrections (as much as the receiver still holds);
* ``void_ratings``: the rating changes of the case's matches are undone for both sides;
* ``link``: the accounts are marked as one person's (``fairplay.detectors.shared_accounts``).

A decided case may be appealed once by its subject, as a dispute (``fairplay.appeals``).
Every step is a ``CaseEvent``, and the player is told through ``SanctionApplied``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from accounts import ledger
from accounts.ledger.adjustments import correct_between_players
from accounts.ledger.reads import balances
from accounts.models import Standing, User
from accounts.money import money_text
from accounts.services import ratings_void
from accounts.standing import standing_restrict
from core import bus, locks
from core.errors import Conflict, DomainError, Forbidden, NotFound
from core.locks import Lock
from fairplay.events import SanctionApplied
from fairplay.models import Case, CaseEvent, CaseState, Sanction, SanctionKind
from fairplay.selectors import case_match_ids, is_fairplay_staff, sanction_told
from matches.creation import match_decline
from matches.forfeits import barred_player_forfeits, tournament_matches_in_play
from matches.models import Match, MatchStatus
from matches.state import lock_match
from tournaments.services import entries_withdraw_closed, tournaments_lock_waited_in

REASON_LIMIT = 2000


class Decision:
    DISMISS = "dismiss"
    SANCTION = "sanction"
    ALL = (DISMISS, SANCTION)


@dataclass(frozen=True)
class Order:
    """One sanction staff asked for: its kind, whom (the subject when None), until when."""

    kind: str
    user: User | None = None
    until: datetime | None = None


@transaction.atomic
def case_assign(*, case_id: int, staff: User) -> Case:
    _require_staff(staff)
    case = locked_case(case_id)
    if not case.is_undecided:
        raise Conflict(_("This case has been decided already."))
    case.assignee = staff
    case.state = CaseState.IN_REVIEW
    case.save(update_fields=["assignee", "state", "updated_at"])
    CaseEvent.objects.create(case=case, actor=staff, action="assigned")
    return case


@transaction.atomic
def case_decide(
    *, case_id: int, staff: User, decision: str, reason: str, orders: Sequence[Order] = ()
) -> Case:
    """Decide an undecided case (an appeal is decided as a dispute)."""
    _require_staff(staff)
    reason = " ".join(reason.split())
    if not reason:
        raise DomainError(_("Give the reason for the decision: the player reads it."))
    if len(reason) > REASON_LIMIT:
        raise DomainError(
            _("Keep the reason under %(limit)s characters.") % {"limit": REASON_LIMIT}
        )
    case = locked_case(case_id)
    if case.state == CaseState.APPEALED:
        raise Conflict(
            _("This case is under appeal: decide dispute #%(number)s instead.")
            % {"number": case.appeal_dispute_id}
        )
    if not case.is_undecided:
        raise Conflict(_("This case has been decided already; only an appeal reopens it."))
    if decision == Decision.DISMISS:
        if orders:
            raise DomainError(_("A dismissed case carries no sanction."))
    elif decision == Decision.SANCTION:
        if not orders:
            raise DomainError(_("Choose at least one sanction, or dismiss the case."))
    else:
        raise DomainError(
            _('Decide "dismiss" or "sanction", not "%(decision)s".') % {"decision": decision}
        )
    ordered = _in_order(orders)
    _lock_first(case, ordered)
    outcome = [_apply(case, order, staff, reason) for order in ordered]
    case.state = CaseState.DECIDED
    case.decision = decision
    case.decision_reason = reason
    case.decided_by = staff
    case.decided_at = timezone.now()
    case.save()
    CaseEvent.objects.create(
        case=case,
        actor=staff,
        action="decided",
        detail={"decision": decision, "reason": reason, "sanctions": outcome},
    )
    return case


# Money and ratings move before the account closes, so a reversal reaches dumped money
# before a closure pays it out.
_ORDER = [
    SanctionKind.REVERSE,
    SanctionKind.VOID_RATINGS,
    SanctionKind.LINK,
    SanctionKind.WARN,
    SanctionKind.MUTE,
    SanctionKind.SUSPEND,
    SanctionKind.CLOSE,
]


def _lock_first(case: Case, orders: Sequence[Order]) -> None:
    """Take first the rows the orders write that come before money in the lock order
    (``core.locks``): the restricted players' standings, then the open invitations and the
    tournament matches in play of those suspended or closed, then the tournaments those
    closed wait to play in, each in id order. The orders then apply money first, and take
    these again without waiting."""
    restricted = {
        (order.user or case.subject).pk: order.user or case.subject
        for order in orders
        if order.kind in (SanctionKind.MUTE, SanctionKind.SUSPEND, SanctionKind.CLOSE)
    }
    for pk in sorted(restricted):
        locks.select(Lock.STANDING, Standing.objects.all(), pk).get_or_create(user=restricted[pk])
    leaving = [
        (order.user or case.subject).pk
        for order in orders
        if order.kind in (SanctionKind.SUSPEND, SanctionKind.CLOSE)
    ]
    invited = Match.objects.filter(
        Q(player_0__in=leaving) | Q(player_1__in=leaving), status=MatchStatus.INVITED
    ).values_list("pk", flat=True)
    for pk in sorted({*invited, *tournament_matches_in_play(leaving)}):
        lock_match(pk)
    closing = [
        (order.user or case.subject).pk for order in orders if order.kind == SanctionKind.CLOSE
    ]
    if closing:
        tournaments_lock_waited_in(player_ids=closing)


def _in_order(orders: Sequence[Order]) -> list[Order]:
    for order in orders:
        if order.kind not in _ORDER:
            raise DomainError(_('Unknown sanction "%(kind)s".') % {"kind": order.kind})
    return sorted(orders, key=lambda order: _ORDER.index(SanctionKind(order.kind)))


def _apply(case: Case, order: Order, staff: User, reason: str) -> dict[str, Any]:
    user = order.user or case.subject
    if user.pk != case.subject_id and not case.others.filter(pk=user.pk).exists():
        raise DomainError(_("%(name)s is not in this case.") % {"name": user.username})
    kind = SanctionKind(order.kind)
    outcome: dict[str, Any]
    if kind in (SanctionKind.MUTE, SanctionKind.SUSPEND):
        if order.until is None or order.until <= timezone.now():
            raise DomainError(
                _("A %(kind)s sanction needs a date in the future.") % {"kind": kind.label.lower()}
            )
        field = "muted_until" if kind == SanctionKind.MUTE else "suspended_until"
        standing_restrict(user=user, reason=reason, **{field: order.until})
        outcome = {"until": order.until.isoformat()}
        if kind == SanctionKind.SUSPEND:
            outcome["invitations_withdrawn"] = _withdraw_invitations(user)
            outcome["tournament_matches_forfeited"] = barred_player_forfeits(player_id=user.pk)
    elif kind == SanctionKind.WARN:
        outcome = {}
    elif kind == SanctionKind.CLOSE:
        outcome = _close(case, user, staff, reason)
    elif kind == SanctionKind.REVERSE:
        outcome = _reverse(case, staff, reason)
    elif kind == SanctionKind.VOID_RATINGS:
        people = [case.subject_id, *case.others.values_list("pk", flat=True)]
        voided = ratings_void(match_ids=case_match_ids(case), user_ids=people)
        outcome = {"rating_changes_voided": [change.pk for change in voided]}
    else:  # LINK
        from fairplay.detectors.shared_accounts import link_accounts

        people = [case.subject_id, *case.others.values_list("pk", flat=True)]
        outcome = {"linked": link_accounts(staff=staff, user_ids=people, reason=reason)}
    sanction = Sanction(
        case=case,
        user=user,
        kind=kind,
        until=order.until if kind in (SanctionKind.MUTE, SanctionKind.SUSPEND) else None,
        reason=reason,
        staff=staff,
    )
    # Staff read what the player was told in English; the player reads it in theirs.
    sanction.outcome = {**outcome, "told": told_in_english(sanction)}
    sanction.save()
    tell(sanction)
    return {"id": sanction.pk, "kind": kind.value, "user": user.username, **outcome}


def _close(case: Case, user: User, staff: User, reason: str) -> dict[str, Any]:
    # Closed outright: a suspension would hold the payout below.
    standing_restrict(user=user, closed_at=timezone.now(), suspended_until=None, reason=reason)
    # Invitations and matches before tournaments, in the lock order (core.locks).
    withdrawn = _withdraw_invitations(user)
    forfeited = barred_player_forfeits(player_id=user.pk)
    refunded = entries_withdraw_closed(player=user)
    paid: dict[str, int] = {}
    for currency, cents in balances(user=user).items():
        if cents > 0:
            ledger.withdraw(
                user=user,
                currency=currency,
                amount_cents=cents,
                reason=f"Account closed (fair-play case #{case.pk}): balance paid out",
                staff=staff,
                key=f"fairplay:{case.pk}:close:{user.pk}:{currency}",
            )
            paid[currency] = cents
    return {
        "tournaments_left": [entry.tournament_id for entry in refunded],
        "invitations_withdrawn": withdrawn,
        "tournament_matches_forfeited": forfeited,
        "paid_out": paid,
    }


def _withdraw_invitations(user: User) -> list[int]:
    """The player's invitations, sent or received, that nobody accepted: withdrawn or
    declined as the player would (their open seeks go when the lobby hears the news)."""
    pending = (
        Match.objects.filter(Q(player_0=user) | Q(player_1=user), status=MatchStatus.INVITED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    withdrawn = []
    for match_id in list(pending):
        try:
            match_decline(match_id=match_id, user=user)
        except Conflict:  # accepted or withdrawn meanwhile: nothing left to do
            continue
        withdrawn.append(match_id)
    return withdrawn


def _reverse(case: Case, staff: User, reason: str) -> dict[str, Any]:
    """Move back what the case's subject lost to each other player over the case's matches."""
    from fairplay.detectors.dumping import money_between

    moved: list[dict[str, Any]] = []
    match_ids = case_match_ids(case)
    if not match_ids:
        raise DomainError(_("This case names no matches, so there is no money to move back."))
    for other in case.others.all():
        for currency, cents in money_between(case.subject, other, match_ids).items():
            held = balances(user=other).get(currency, 0)
            amount = min(cents, held)
            if amount <= 0:
                continue
            correct_between_players(
                payer=other,
                payee=case.subject,
                currency=currency,
                amount_cents=amount,
                reason=f"Fair-play case #{case.pk}: {reason}",
                staff=staff,
                key=f"fairplay:{case.pk}:reverse:{other.pk}:{currency}",
            )
            moved.append(
                {
                    "from": other.username,
                    "to": case.subject.username,
                    "currency": currency,
                    "cents": amount,
                    "text": money_text(amount),
                    "short_cents": cents - amount,
                }
            )
    if not moved:
        raise DomainError(_("No money moved between these players in the case's matches."))
    return {"moved": moved}


def told_in_english(sanction: Sanction) -> str:
    with override("en"):
        return sanction_told(sanction)


def tell(sanction: Sanction) -> None:
    """Tell the player of ``sanction`` once this commits; the lobby's notice writes it in
    their language from the row (``fairplay.selectors.sanction_told``)."""
    bus.publish_on_commit(
        SanctionApplied(
            case_id=sanction.case_id,
            user_id=sanction.user_id,
            kind=sanction.kind,
            text=told_in_english(sanction),
            sanction_id=sanction.pk,
        )
    )


def locked_case(case_id: int) -> Case:
    cases = locks.select(Lock.CASE, Case.objects.filter(pk=case_id), case_id)
    case = cases.select_related("subject").first()
    if case is None:
        raise NotFound(_("No such case."))
    return case


def _require_staff(user: User) -> None:
    if not is_fairplay_staff(user):
        raise Forbidden(_("Only staff handle fair-play cases."))
