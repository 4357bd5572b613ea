"""Writes for disputes: filing, taking a dispute, and deciding it with its effects.

Every staff action writes an ``AuditEntry`` with the state before and after, in the same
transaction as the action. A decision locks the dispute row, then the match row
(``matches.services.locked_match``), then, for a tournament match, the tournament row
(``disputes.bracket``), always in that order. Money moves only through
``accounts.ledger``: a result that changes is corrected by compensating the standing
settlement and settling again, each under a key derived from the dispute, so nothing is
paid twice. Players are told after the commit (``disputes.events``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts import ledger
from accounts.commission import commission_cents, money
from accounts.models import Currency, LedgerTransaction, TransactionKind, User
from analysis.splits import AbsencePolicy, money_settlement, pot_split, tournament_award
from config.errors import Conflict, DomainError, Forbidden
from disputes import bracket, events
from disputes.models import (
    AuditAction,
    AuditEntry,
    Decision,
    Dispute,
    DisputeCategory,
    DisputeState,
)
from disputes.selectors import can_file, is_staff
from matches import events as match_events
from matches.adjudication import rerun
from matches.models import ActionKind, Adjudication, Match, MatchKind, MatchStatus
from matches.services import (
    ClockSettings,
    append_action,
    escrow_ref,
    locked_match,
    match_accept,
    match_challenge,
)

DESCRIPTION_LIMIT = 2000
DEFAULT_RERUN_PLIES = 3


@dataclass(frozen=True)
class Adjustment:
    """Money staff move for a decision: positive into the wallet, negative out of it."""

    user: User
    currency: str
    amount_cents: int


# ---------------------------------------------------------------- filing and taking


@transaction.atomic
def dispute_file(*, user: User, match_id: int, category: str, description: str) -> Dispute:
    """A player of the match (or an entrant of its tournament) disputes it."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise DomainError(f"There is no match {match_id}.")
    if not can_file(user, match):
        raise Forbidden("Only the players of a match, or of its tournament, can dispute it.")
    if match.started_at is None:
        raise Conflict("This match has not started; there is nothing to dispute yet.")
    if category not in DisputeCategory.values:
        raise DomainError(f"Choose a category: {', '.join(DisputeCategory.values)}.")
    description = description.strip()
    if not description:
        raise DomainError("Describe what went wrong: staff read it first.")
    if len(description) > DESCRIPTION_LIMIT:
        raise DomainError(f"Keep the description within {DESCRIPTION_LIMIT} characters.")
    open_one = Dispute.objects.filter(match=match, filed_by=user).exclude(
        state=DisputeState.DECIDED
    )
    if open_one.exists():
        raise Conflict("You already have an open dispute about this match.")
    try:
        with transaction.atomic():
            dispute = Dispute.objects.create(
                match=match,
                tournament_id=match.tournament_id,
                filed_by=user,
                category=category,
                description=description,
            )
    except IntegrityError:
        raise Conflict("You already have an open dispute about this match.") from None
    AuditEntry.objects.create(
        dispute=dispute,
        actor=user,
        action=AuditAction.FILED,
        what=f"Filed ({dispute.get_category_display()})",
        after={"state": dispute.state, "category": category},
    )
    return dispute


@transaction.atomic
def dispute_assign(*, dispute_id: int, staff: User) -> Dispute:
    """``staff`` take the dispute (from whoever had it); it is then in review."""
    _require_staff(staff)
    dispute = _locked(dispute_id)
    if dispute.is_decided:
        raise Conflict("This dispute has been decided.")
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
        raise DomainError(f"Decide one of: {', '.join(Decision.values)}.")
    reason = reason.strip()
    if not reason:
        raise DomainError("Give a reason: the players read it and it is kept in the audit log.")
    if decision == Decision.ADJUST and not adjustments:
        raise DomainError("Say whose wallet changes, in which currency and by how much.")
    deeper: Adjudication | None = None
    if decision == Decision.READJUDICATE:
        dispute = Dispute.objects.get(pk=dispute_id)
        if dispute.is_decided:
            raise Conflict("This dispute has been decided.")
        deeper = rerun(match_id=dispute.match_id, plies=plies or DEFAULT_RERUN_PLIES, staff=staff)
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
        raise Conflict("This dispute has been decided.")
    match = locked_match(dispute.match_id)
    people = [match.player_0, match.player_1, *(a.user for a in adjustments)]
    before = _snapshot(match, people)
    remedy = _Remedy(dispute=dispute, match=match, staff=staff, reason=reason)
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
        remedy.summary.append("The complaint is upheld; the result stands.")
    else:
        remedy.summary.append("The complaint is dismissed; the result stands.")
    after = _snapshot(Match.objects.get(pk=match.pk), people)
    dispute.state = DisputeState.DECIDED
    dispute.decision = decision
    dispute.decision_reason = reason
    dispute.decided_by = staff
    dispute.decided_at = timezone.now()
    dispute.assignee = dispute.assignee or staff
    dispute.outcome = {"summary": remedy.summary, **remedy.changes}
    dispute.save()
    AuditEntry.objects.create(
        dispute=dispute,
        actor=staff,
        action=AuditAction.DECIDED,
        what=decision.label,
        reason=reason,
        before=before,
        after={**after, "changes": remedy.changes},
    )
    events.publish_decided(dispute)
    return dispute


class _Remedy:
    """The effects of one decision on the locked match, its bracket and the ledger."""

    def __init__(self, *, dispute: Dispute, match: Match, staff: User, reason: str) -> None:
        self.dispute = dispute
        self.match = match
        self.staff = staff
        self.reason = reason
        self.summary: list[str] = []
        self.changes: dict[str, Any] = {}

    # The decisions ------------------------------------------------------------------

    def overturn(self) -> None:
        match = self.match
        if match.kind != MatchKind.MATCH:
            raise Conflict("A money session has no match winner; adjust money instead.")
        if match.status != MatchStatus.FINISHED or match.winner_seat is None:
            raise Conflict("Only a finished match with a winner can be overturned.")
        seat = 1 - match.winner_seat
        self._give_match_to(seat, "overturned")
        if match.stake_cents:
            commission = 2 * commission_cents(match.stake_cents)
            winner = match.player(seat)
            self._resettle({winner.pk: 2 * match.stake_cents - commission}, commission)
        self._publish()

    def void(self) -> None:
        match = self.match
        if match.is_money:
            raise Conflict("A money session is settled game by game; adjust money instead.")
        if match.status not in (MatchStatus.FINISHED, MatchStatus.PLAYING, MatchStatus.SUSPENDED):
            state = match.get_status_display().lower()
            raise Conflict(f"This match is {state}; it cannot be voided.")
        if match.stake_cents:
            standing = self._standing_settlement()
            if standing is not None:
                self._compensate(standing)
            stakers = (match.player_0_id, match.player_1_id)
            ledger.refund(
                escrow_ref=escrow_ref(match),
                currency=match.currency,
                payouts=dict.fromkeys(stakers, match.stake_cents),
                key=f"dispute:{self.dispute.pk}:refund",
            )
            stake = f"{money(match.stake_cents)} {match.currency}"
            self.summary.append(f"Both stakes ({stake} each) are refunded.")
        was_finished = match.status == MatchStatus.FINISHED
        match.status = MatchStatus.CANCELLED
        match.winner_seat = None
        match.deadline = None
        match.turn_started_at = None
        match.finished_at = match.finished_at or timezone.now()
        self._log("voided", winner=None)
        match.save()
        self.summary.append(
            "The result is void." if was_finished else "The match is stopped and void."
        )
        if match.tournament_id is not None:
            changes = bracket.void(match=match, dispute_id=self.dispute.pk)
            self.changes["bracket"] = changes
            self._note_bracket(changes)
            replay = changes.get("replay_match")
        else:
            replay = self._replay().pk
        self.changes["replay_match"] = replay
        if replay:
            self.summary.append(f"A replay has been ordered: match #{replay}.")
        self._publish()

    def readjudicate(self, deeper: Adjudication) -> None:
        match = self.match
        original = deeper.supersedes
        assert original is not None
        kind = original.decision.get("kind")
        ours = deeper.evaluation["players"][0]
        self.changes["adjudication"] = {
            "original": {"id": original.pk, "plies": original.plies},
            "deeper": {"id": deeper.pk, "plies": deeper.plies},
        }
        self.summary.append(
            f"GNU Backgammon evaluated the position again at {deeper.plies} ply "
            f"(it was {original.plies} ply)."
        )
        if match.status != MatchStatus.FINISHED:
            raise Conflict("The adjudicated match is no longer finished; decide otherwise.")
        if kind == "award":
            award = tournament_award(
                ours["mwc"], policy=AbsencePolicy.ADJUDICATE, absent_index=original.absent_seat
            )
            if award.winner_index != match.winner_seat:
                self._give_match_to(award.winner_index, "readjudicated")
            else:
                self.summary.append("The deeper evaluation gives the same winner.")
        elif kind == "pot":
            split = pot_split(
                ours["mwc"], pot_cents=2 * match.stake_cents, commission=commission_cents
            )
            payouts = {match.player(seat).pk: split.payout_cents[seat] for seat in (0, 1)}
            self._resettle(payouts, split.house_cents)
            winner = 0 if split.shares_cents[0] >= split.shares_cents[1] else 1
            if winner != match.winner_seat:
                self._give_match_to(winner, "readjudicated")
        elif kind == "money":
            cube_value = original.evaluation["cube_value"]
            settlement = money_settlement(
                ours["cubeful_equity"],
                cube_value=cube_value,
                stake_cents=match.stake_cents,
                commission=commission_cents,
            )
            exposure = 3 * match.max_cube * match.stake_cents
            payouts = {
                match.player(seat).pk: exposure + settlement.net_cents[seat] for seat in (0, 1)
            }
            self._resettle(
                payouts,
                settlement.house_cents,
                standing=LedgerTransaction.objects.filter(
                    key=f"match:{match.pk}:game:{original.game_number}:adjudicated"
                ).first(),
            )
        self._publish()

    def adjust(self, adjustments: Sequence[Adjustment]) -> None:
        for adjustment in adjustments:
            if adjustment.currency not in Currency.values:
                raise DomainError(f"Unknown currency {adjustment.currency!r}.")
            if adjustment.amount_cents == 0:
                raise DomainError("An adjustment of 0.00 moves nothing; leave it out.")
        moved = []
        for index, adjustment in enumerate(adjustments):
            move = ledger.deposit if adjustment.amount_cents > 0 else ledger.withdraw
            posted = move(
                user=adjustment.user,
                currency=adjustment.currency,
                amount_cents=abs(adjustment.amount_cents),
                reason=f"Dispute #{self.dispute.pk}: {self.reason}",
                staff=self.staff,
                key=f"dispute:{self.dispute.pk}:adjust:{index}",
            )
            moved.append(posted.pk)
            sign = "+" if adjustment.amount_cents > 0 else "−"
            self.summary.append(
                f"{adjustment.user.profile.display_name}: {sign}"
                f"{money(abs(adjustment.amount_cents))} {adjustment.currency}."
            )
        self.changes["ledger"] = moved

    # The pieces ---------------------------------------------------------------------

    def _give_match_to(self, seat: int, why: str) -> None:
        match = self.match
        old = match.winner_seat
        new_winner = match.player(seat)
        if match.tournament_id is not None:
            changes = bracket.overturn(
                match=match, new_winner_id=new_winner.pk, dispute_id=self.dispute.pk
            )
            self.changes["bracket"] = changes
            self._note_bracket(changes)
        match.winner_seat = seat
        self._log(why, winner=seat)
        match.save(update_fields=["winner_seat", "last_seq"])
        self.changes["winner"] = {
            "before": match.player(old).username if old is not None else None,
            "after": new_winner.username,
        }
        self.summary.insert(0, f"The match is awarded to {new_winner.profile.display_name}.")

    def _note_bracket(self, changes: dict[str, Any]) -> None:
        if changes.get("cancelled_match"):
            self.summary.append(
                f"The next match (#{changes['cancelled_match']}) had not started; it is cancelled."
            )
        if changes.get("new_matches"):
            names = ", ".join(f"#{pk}" for pk in changes["new_matches"])
            self.summary.append(f"The bracket is corrected; the next match is {names}.")
        elif changes.get("next_pairing"):
            self.summary.append(f"The bracket is corrected ({changes['next_pairing']}).")

    def _standing_settlement(self) -> LedgerTransaction | None:
        """The settlement of the match's pot that stands now (none corrected it)."""
        return (
            LedgerTransaction.objects.filter(
                escrow_ref=escrow_ref(self.match),
                kind=TransactionKind.SETTLEMENT,
                reversed_by__isnull=True,
            )
            .order_by("-pk")
            .first()
        )

    def _compensate(self, original: LedgerTransaction) -> LedgerTransaction:
        return ledger.compensate(
            transaction=original,
            reason=f"Dispute #{self.dispute.pk}: {self.reason}",
            staff=self.staff,
            key=f"dispute:{self.dispute.pk}:correct:{original.pk}",
        )

    def _resettle(
        self,
        payouts: dict[int, int],
        house_cents: int,
        *,
        standing: LedgerTransaction | None = None,
    ) -> None:
        """Correct the standing settlement and pay ``payouts`` instead, if they differ."""
        match = self.match
        standing = standing or self._standing_settlement()
        if standing is None:
            raise Conflict("This match's money has not been settled; adjust money instead.")
        if _player_amounts(standing) == {pk: cents for pk, cents in payouts.items() if cents}:
            self.summary.append("The money stays as it was settled.")
            return
        correction = self._compensate(standing)
        settled = ledger.settle_match(
            escrow_ref=escrow_ref(match),
            currency=match.currency,
            payouts=payouts,
            commission_cents=house_cents,
            key=f"dispute:{self.dispute.pk}:settle",
        )
        self.changes["ledger"] = [correction.pk, settled.pk]
        names = {match.player_0_id: match.player_0, match.player_1_id: match.player_1}
        paid = "; ".join(
            f"{names[pk].profile.display_name} {money(cents)} {match.currency}"
            for pk, cents in sorted(payouts.items())
        )
        self.summary.append(f"Settlement #{standing.pk} corrected and paid again: {paid}.")

    def _replay(self) -> Match:
        old = self.match
        replay = match_challenge(
            challenger=old.player_0,
            opponent=old.player_1,
            length=old.length,
            stake_cents=old.stake_cents,
            currency=old.currency,
            rated=old.rated,
            private=old.private,
            clock=ClockSettings(
                kind=old.clock,
                move_seconds=old.move_seconds,
                reserve_seconds=old.reserve_seconds,
                delay_seconds=old.delay_seconds,
                timeout_loses=old.timeout_loses,
            ),
        )
        return match_accept(match_id=replay.pk, user=old.player_1)

    def _log(self, why: str, *, winner: int | None) -> None:
        append_action(
            self.match,
            None,
            ActionKind.MATCH_OVER,
            winner,
            self.staff,
            None,
            None,
            None,
            detail={"winner": winner, "reason": why, "dispute": self.dispute.pk},
        )

    def _publish(self) -> None:
        match_events.publish_match(self.match)


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


def _player_amounts(posted: LedgerTransaction) -> dict[int, int]:
    return {
        entry.account.user_id: entry.amount
        for entry in posted.entries.select_related("account")
        if entry.account.user_id is not None
    }


def _locked(dispute_id: int) -> Dispute:
    try:
        return Dispute.objects.select_for_update(of=("self",)).get(pk=dispute_id)
    except Dispute.DoesNotExist:
        raise DomainError(f"There is no dispute {dispute_id}.") from None


def _require_staff(user: User) -> None:
    if not is_staff(user):
        raise Forbidden("Only staff can handle disputes.")


def _username(user: User | None) -> str | None:
    return user.username if user is not None else None
