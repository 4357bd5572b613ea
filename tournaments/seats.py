"""A seat in a tournament taken and given up, with the money that goes with it.

``enter`` seats a player, paying the buy-in and fee into the tournament's escrow (or
using a ticket won in a satellite: its value is paid to the holder as a prize, then buys
them in with no fee); ``leave`` gives a seat up by compare-and-set and refunds the
buy-in once (and the fee when the organizer took the seat away). Money moves only
through ``accounts.ledger``, under keys made of the tournament and entry ids, so a
repeated request moves nothing twice. The callers (``tournaments.services``) hold the
tournament's lock (``scheduler.locked_tournament``) and check who may do what.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import ledger
from accounts.models import User
from core import locks, rows
from core.errors import Conflict
from core.locks import Lock
from tournaments import events
from tournaments.models import Entry, EntryStatus, Ticket, Tournament
from tournaments.selectors import EntryChecks, entry_checks


def enter(
    tournament: Tournament,
    user: User,
    *,
    seed: int | None,
    ticket: Ticket | None = None,
    checks: EntryChecks | None = None,
) -> Entry:
    """Seat ``user``, paying with ``ticket`` or, failing that, an unused one they hold.

    ``checks``: read by the caller since the tournament was locked, if it has them."""
    if checks is None:
        checks = entry_checks(tournament, user)
    if checks.entered:
        raise Conflict(
            _("%(player)s is already entered in %(name)s.")
            % {"player": user.profile.display_name, "name": tournament.name}
        )
    capacity = tournament.capacity
    if capacity is not None and (checks.seated or 0) >= capacity:
        raise ledger.TournamentFull(
            _("%(name)s is full: all %(seats)s seats are taken.")
            % {"name": tournament.name, "seats": capacity}
        )
    if ticket is None and checks.ticket_id is not None:
        ticket = (
            locks.select(Lock.TICKET, Ticket.objects.all(), checks.ticket_id, of=("self",))
            .select_related("satellite")
            .filter(pk=checks.ticket_id, entry__isnull=True)
            .first()
        )
    entry = rows.insert(
        Entry(
            tournament=tournament,
            user=user,
            seed=seed,
            paid_cents=tournament.buy_in_cents,
            fee_cents=0 if ticket else tournament.fee_cents,
        )
    )
    if ticket is not None:
        ledger.prize_payout(
            escrow_ref=ticket.satellite.escrow_ref,
            currency=ticket.currency,
            payouts={user.pk: ticket.value_cents},
            key=f"ticket:{ticket.pk}:cash",
        )
        written = Ticket.objects.filter(pk=ticket.pk, entry__isnull=True).update(
            entry=entry, used_at=timezone.now()
        )
        if written != 1:
            raise Conflict(_("This ticket has been used already."))
    if entry.paid_cents + entry.fee_cents:
        ledger.tournament_buy_in(
            user=user,
            currency=tournament.currency,
            buy_in_cents=entry.paid_cents,
            fee_cents=entry.fee_cents,
            escrow_ref=tournament.escrow_ref,
            key=f"{tournament.escrow_ref}:entry:{entry.pk}",
            max_entries=capacity,
        )
    events.publish_tournament(tournament.pk, state=tournament.state)
    return entry


def leave(tournament: Tournament, entry: Entry, *, fee_back: bool = False) -> Entry:
    """Give up a seat by compare-and-set; the buy-in is refunded once, and the fee too when
    the organizer took the seat away (``fee_back``): the player did nothing wrong."""
    left = Entry.objects.filter(pk=entry.pk, status=EntryStatus.REGISTERED).update(
        status=EntryStatus.WITHDRAWN, withdrawn_at=timezone.now()
    )
    if left != 1:
        raise Conflict(_("This seat has been given up already."))
    fee = entry.fee_cents if fee_back else 0
    if entry.paid_cents or fee:
        ledger.refund(
            escrow_ref=tournament.escrow_ref,
            currency=tournament.currency,
            payouts={entry.user_id: entry.paid_cents},
            fees={entry.user_id: fee} if fee else None,
            key=f"{tournament.escrow_ref}:entry:{entry.pk}:refund",
        )
    entry.refresh_from_db()
    events.publish_tournament(tournament.pk, state=tournament.state)
    return entry


def seat_of(tournament: Tournament, player: User) -> Entry:
    entry = Entry.objects.filter(
        tournament=tournament, user=player, status=EntryStatus.REGISTERED
    ).first()
    if entry is None:
        raise Conflict(
            _("%(player)s is not entered in %(name)s.")
            % {"player": player.profile.display_name, "name": tournament.name}
        )
    return entry
