"""What the players of a cancelled tournament are told (``TournamentCancelled``).

Every entrant hears that the organizer cancelled it and what came back to their wallet (the
buy-in and the fee, as ``tournaments.services.tournament_cancel`` refunds them); a player
whose match was still being played hears that it ended without a result, and their "your
turn" notice for it is read, as the match waits for nobody any more.
"""

from __future__ import annotations

from functools import partial

from django.urls import reverse
from django.utils.translation import gettext as _

from lobby import selectors
from lobby.models import NoticeKind
from lobby.notifications import Notice, notices_read_by_key, notify_many
from lobby.wording import amount
from tournaments.models import Entry, Tournament


def tell_tournament_cancelled(*, tournament_id: int) -> int:
    """Tell every entrant the tournament was cancelled; returns how many were told this
    time (safe to run twice: each notice has its key)."""
    tournament = selectors.tournament_named(tournament_id=tournament_id)
    if tournament is None:
        return 0
    stopped = selectors.stopped_by_cancellation(tournament=tournament)
    for match_id, players in stopped.items():
        notices_read_by_key(key=f"turn:{match_id}", user_ids=players)
    playing = {user_id for players in stopped.values() for user_id in players}
    page = reverse("tournament", kwargs={"tournament_id": tournament_id})
    return notify_many(
        [
            Notice(
                user_id=entry.user_id,
                kind=NoticeKind.TOURNAMENT_CANCELLED,
                key=f"tournament:{tournament_id}:cancelled",
                text=partial(cancelled_text, tournament, entry, playing=entry.user_id in playing),
                url=page,
                data={"tournament_id": tournament_id},
            )
            for entry in selectors.entrants(tournament_id=tournament_id)
        ]
    )


def cancelled_text(tournament: Tournament, entry: Entry, *, playing: bool) -> str:
    """What the entrant reads, in the active language: "Spring Knockout was cancelled by its
    organizer and your match in it ended without a result: your buy-in and fee, 10.65 FUN,
    are back in your wallet." """
    back = entry.paid_cents + entry.fee_cents
    blanks = {"tournament": tournament.name, "amount": amount(back, tournament.currency)}
    if playing and back:
        text = _(
            "%(tournament)s was cancelled by its organizer and your match in it ended without"
            " a result: your buy-in and fee, %(amount)s, are back in your wallet."
        )
    elif playing:
        text = _(
            "%(tournament)s was cancelled by its organizer and your match in it ended without"
            " a result."
        )
    elif back:
        text = _(
            "%(tournament)s was cancelled by its organizer: your buy-in and fee, %(amount)s,"
            " are back in your wallet."
        )
    else:
        text = _("%(tournament)s was cancelled by its organizer.")
    return text % blanks
