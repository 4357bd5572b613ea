"""The end of a tournament, whatever its format: places written, prizes paid, the state.

The scheduler (bracket formats) and ``tournaments.swing`` each work out the placings and the
prizes their own way; this module writes them on the entries, pays the cash through the
ledger under one key (so a second call pays nothing twice), sets the champion and the
finished state by compare-and-set, and publishes ``TournamentFinished``. Expects the
tournament row locked.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from accounts import ledger
from core.errors import InternalError
from core.rows import update_many
from tournaments import events
from tournaments.formats.base import Placing
from tournaments.formats.prizes import Prize
from tournaments.models import Entry, EntryStatus, Tournament, TournamentState


def finish_tournament(
    tournament: Tournament, placings: Sequence[Placing], prizes: Sequence[Prize]
) -> None:
    """Write ``placings`` and ``prizes``, pay the cash and mark the tournament finished."""
    by_entrant = {prize.entrant: prize for prize in prizes}
    entries = {
        entry.user_id: entry
        for entry in Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
    }
    for placing in placings:
        entry = entries[placing.entrant]
        prize = by_entrant.get(placing.entrant, Prize(placing.entrant, 0))
        entry.place, entry.shared_to = placing.place, placing.shared_to
        entry.prize_cents, entry.won_ticket = prize.cash_cents, prize.ticket
    update_many(list(entries.values()), ["place", "shared_to", "prize_cents", "won_ticket"])
    payouts = {
        entrant: prize.cash_cents for entrant, prize in by_entrant.items() if prize.cash_cents
    }
    if payouts:
        ledger.prize_payout(
            escrow_ref=tournament.escrow_ref,
            currency=tournament.currency,
            payouts=payouts,
            key=f"{tournament.escrow_ref}:prizes",
        )
    champion = placings[0].entrant if placings and placings[0].shared_to == 1 else None
    finished = Tournament.objects.filter(pk=tournament.pk, state=TournamentState.RUNNING).update(
        state=TournamentState.FINISHED, finished_at=timezone.now(), champion_id=champion
    )
    if finished != 1:
        raise InternalError(f"{tournament} finished twice")
    tournament.state = TournamentState.FINISHED
    tournament.champion_id = champion
    finishes = tuple(
        events.Finish(
            entry.user_id,
            entry.place or 0,
            entry.shared_to or entry.place or 0,
            entry.prize_cents,
            entry.won_ticket,
        )
        for entry in entries.values()
        if entry.place is not None
    )
    events.publish(
        events.TournamentFinished(tournament.pk, champion, tournament.currency, finishes)
    )
