"""A decision's effects on a dispute's match: its result, its bracket and its money.

``disputes.services`` locks the dispute and the match, then asks a ``Remedy`` for the
decision taken (overturn, void, readjudicate, adjust). A remedy changes the match only
through its services (``matches.lifecycle``, ``matches.creation``), its money only through
``matches.money`` and the ledger, under keys derived from the dispute so nothing is paid
twice, and a bracket only through ``tournaments.corrections``. It collects what it did as
the decision's summary (``disputes.outcome``: lines kept as message and blanks) and as
the changes the audit log keeps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts import ledger
from accounts.models import Currency, LedgerTransaction, User
from accounts.services import ratings_void
from core.errors import Conflict, DomainError
from disputes.models import Dispute
from disputes.outcome import amount, line
from matches import adjudication, creation, lifecycle, money
from matches.models import Adjudication, Match, MatchKind, MatchStatus
from tournaments import corrections


@dataclass(frozen=True)
class Adjustment:
    """Money staff move for a decision: positive into the wallet, negative out of it."""

    user: User
    currency: str
    amount_cents: int


class Remedy:
    """The effects of one decision on the locked match, its bracket and its money."""

    def __init__(self, *, dispute: Dispute, match: Match, staff: User, reason: str) -> None:
        self.dispute = dispute
        self.match = match
        self.staff = staff
        self.reason = reason
        self.key_prefix = f"dispute:{dispute.pk}"
        self.cause: dict[str, object] = {"dispute": dispute.pk}
        self.summary: list[dict[str, Any]] = []
        self.changes: dict[str, Any] = {}

    def say(self, message: str, *, first: bool = False, **blanks: Any) -> None:
        """Add a line to the decision's summary (``disputes.outcome``)."""
        self.summary.insert(0 if first else len(self.summary), line(message, **blanks))

    # The decisions ------------------------------------------------------------------

    def overturn(self) -> None:
        match = self.match
        if match.kind != MatchKind.MATCH:
            raise Conflict(_("A money session has no match winner; adjust money instead."))
        if match.status != MatchStatus.FINISHED or match.winner_seat is None:
            raise Conflict(_("Only a finished match with a winner can be overturned."))
        seat = 1 - match.winner_seat
        self._give_match_to(seat, "overturned")
        if match.stake_cents:
            payouts, commission = money.pot_payouts(match, seat)
            self._resettle(money.standing_settlement(match), payouts, commission)

    def void(self) -> None:
        match = self.match
        was_finished = lifecycle.match_void(
            match,
            staff=self.staff,
            key_prefix=self.key_prefix,
            reason=self._ledger_reason,
            cause=self.cause,
        )
        if match.stake_cents:
            self.say(
                gettext_noop("Both stakes (%(stake)s each) are refunded."),
                stake=amount(match.stake_cents, match.currency),
            )
        if was_finished:
            self.say(gettext_noop("The result is void."))
        else:
            self.say(gettext_noop("The match is stopped and void."))
        if match.tournament_id is not None:
            correction = corrections.void(match=match, cause=self.cause)
            self._note_bracket(correction)
            replay = correction.replay_match
        else:
            replay = creation.match_replay(match).pk
        self.changes["replay_match"] = replay
        if replay:
            self.say(gettext_noop("A replay has been ordered: match #%(match)s."), match=replay)
        # Last: the rating rows come after the tournament's and the wallets' in the lock
        # order (``core.locks``). Undone as a fair-play void undoes a series, so the
        # ratings and the rating chart no longer count the result.
        voided = ratings_void(match_ids=[match.pk], user_ids=[match.player_0_id, match.player_1_id])
        if voided:
            self.changes["rating_changes_voided"] = [change.pk for change in voided]
            self.say(gettext_noop("The rating changes of its result are undone."))

    def readjudicate(self, deeper: Adjudication) -> None:
        match = self.match
        original = deeper.supersedes
        assert original is not None
        self.changes["adjudication"] = {
            "original": {"id": original.pk, "plies": original.plies},
            "deeper": {"id": deeper.pk, "plies": deeper.plies},
        }
        self.say(
            gettext_noop(
                "GNU Backgammon evaluated the position again at %(plies)s ply (it was"
                " %(before)s ply)."
            ),
            plies=deeper.plies,
            before=original.plies,
        )
        if match.status != MatchStatus.FINISHED:
            raise Conflict(_("The adjudicated match is no longer finished; decide otherwise."))
        decided = adjudication.verdict_of(match, deeper)
        if decided.split is None:
            if decided.winner_seat is not None and decided.winner_seat != match.winner_seat:
                self._give_match_to(decided.winner_seat, "readjudicated")
            else:
                self.say(gettext_noop("The deeper evaluation gives the same winner."))
        elif decided.kind == "pot":
            split = decided.split
            self._resettle(money.standing_settlement(match), split.payouts, split.house_cents)
            if split.winner_seat is not None and split.winner_seat != match.winner_seat:
                self._give_match_to(split.winner_seat, "readjudicated")
        else:
            standing = money.adjudicated_settlement(match, original.game_number)
            self._resettle(standing, decided.split.payouts, decided.split.house_cents)

    def adjust(self, adjustments: Sequence[Adjustment]) -> None:
        for adjustment in adjustments:
            if adjustment.currency not in Currency.values:
                raise DomainError(
                    _("Unknown currency %(currency)r.") % {"currency": adjustment.currency}
                )
            if adjustment.amount_cents == 0:
                raise DomainError(_("An adjustment of 0.00 moves nothing; leave it out."))
        moved = []
        for index, adjustment in enumerate(adjustments):
            move = ledger.deposit if adjustment.amount_cents > 0 else ledger.withdraw
            posted = move(
                user=adjustment.user,
                currency=adjustment.currency,
                amount_cents=abs(adjustment.amount_cents),
                reason=self._ledger_reason,
                staff=self.staff,
                key=f"{self.key_prefix}:adjust:{index}",
            )
            moved.append(posted.pk)
            self.say(
                gettext_noop("%(name)s: +%(amount)s.")
                if adjustment.amount_cents > 0
                else gettext_noop("%(name)s: −%(amount)s."),
                name=adjustment.user.profile.display_name,
                amount=amount(abs(adjustment.amount_cents), adjustment.currency),
            )
        self.changes["ledger"] = moved

    # The pieces ---------------------------------------------------------------------

    @property
    def _ledger_reason(self) -> str:
        return f"Dispute #{self.dispute.pk}: {self.reason}"

    def _give_match_to(self, seat: int, why: str) -> None:
        match = self.match
        old = match.winner_seat
        new_winner = match.player(seat)
        if match.tournament_id is not None:
            correction = corrections.overturn(
                match=match, new_winner_id=new_winner.pk, cause=self.cause
            )
            self._note_bracket(correction)
        lifecycle.match_award(match, seat, staff=self.staff, why=why, cause=self.cause)
        self.changes["winner"] = {
            "before": match.player(old).username if old is not None else None,
            "after": new_winner.username,
        }
        self.say(
            gettext_noop("The match is awarded to %(name)s."),
            first=True,
            name=new_winner.profile.display_name,
        )

    def _note_bracket(self, correction: corrections.Correction) -> None:
        self.changes["bracket"] = correction.as_dict()
        if correction.cancelled_match:
            self.say(
                gettext_noop("The next match (#%(match)s) had not started; it is cancelled."),
                match=correction.cancelled_match,
            )
        if correction.new_matches:
            names = ", ".join(f"#{pk}" for pk in correction.new_matches)
            self.say(
                gettext_noop("The bracket is corrected; the next match is %(matches)s."),
                matches=names,
            )
        elif correction.next_pairing:
            self.say(
                gettext_noop("The bracket is corrected (%(pairing)s)."),
                pairing=correction.next_pairing,
            )

    def _resettle(
        self, standing: LedgerTransaction | None, payouts: dict[int, int], house_cents: int
    ) -> None:
        """Correct the standing settlement and pay ``payouts`` instead, if they differ."""
        match = self.match
        if standing is None:
            raise Conflict(_("This match's money has not been settled; adjust money instead."))
        done = money.resettle(
            match,
            standing,
            payouts,
            house_cents,
            key_prefix=self.key_prefix,
            reason=self._ledger_reason,
            staff=self.staff,
        )
        if not done.changed:
            self.say(gettext_noop("The money stays as it was settled."))
            return
        assert done.reversed is not None
        assert done.settled is not None
        self.changes["ledger"] = [done.reversed.pk, done.settled.pk]
        names = {match.player_0_id: match.player_0, match.player_1_id: match.player_1}
        paid = [
            {**amount(cents, match.currency), "name": names[pk].profile.display_name}
            for pk, cents in sorted(payouts.items())
        ]
        self.say(
            gettext_noop("Settlement #%(settlement)s corrected and paid again: %(paid)s."),
            settlement=standing.pk,
            paid=paid,
        )
