"""Bracket corrections: a staff decision changed a match's result, so its slot changes too.

The scheduler fills a slot once. A decision that gives a match to the other player, or
voids it, must undo what the old result did: the player it put into the slot fed by this
pairing (found through the rows' sources, as the format laid them out) and the match made
for them there. That is done only while that next match has not started (neither player
came to the board): a match being played is not taken away from the players in it.

Every function runs inside the caller's transaction, which holds the match's lock; it takes
the tournament's, then the pairing rows', then the next match's, in the lock order of
``matches.state``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils import timezone

from config.errors import Conflict
from matches.lifecycle import match_cancel
from matches.models import Match
from matches.state import lock_match
from tournaments import draw_rows, events, scheduler
from tournaments.formats.base import Flight, PairingKey
from tournaments.models import Pairing, Tournament, TournamentState


@dataclass
class Correction:
    """What a correction changed, for the decision's summary and audit."""

    pairing: str
    next_pairing: str | None = None
    cancelled_match: int | None = None
    new_matches: list[int] = field(default_factory=list)
    replay_match: int | None = None

    def as_dict(self) -> dict[str, object]:
        return {
            "pairing": self.pairing,
            "next_pairing": self.next_pairing,
            "cancelled_match": self.cancelled_match,
            "new_matches": self.new_matches,
            "replay_match": self.replay_match,
        }


def overturn(*, match: Match, new_winner_id: int, cause: dict[str, object]) -> Correction:
    """Give ``match``'s pairing to ``new_winner_id`` and move them on in their place."""
    tournament, row = _locked_pairing(match)
    correction = Correction(_slot_name(row))
    old_winner = row.winner_id
    if old_winner is None or old_winner == new_winner_id:
        # Nothing recorded yet (the scheduler will read the corrected winner), or no change.
        return correction
    fed = _fed_by(row, "winner")
    for successor, side in fed:
        _take_back(successor, side, old_winner, cause, correction)
    Pairing.objects.filter(pk=row.pk).update(winner_id=new_winner_id, decided_at=timezone.now())
    for successor, side in fed:
        Pairing.objects.filter(pk=successor.pk).update(**{f"{side}_id": new_winner_id})
        correction.next_pairing = _slot_name(successor)
    correction.new_matches = _start_ready(tournament)
    events.publish_tournament(tournament.pk)
    return correction


def void(*, match: Match, cause: dict[str, object]) -> Correction:
    """Clear ``match``'s pairing (and what its result did) and start its replay."""
    tournament, row = _locked_pairing(match)
    correction = Correction(_slot_name(row))
    if row.winner_id is not None:
        for successor, side in _fed_by(row, "winner"):
            _take_back(successor, side, row.winner_id, cause, correction)
    Pairing.objects.filter(pk=row.pk).update(
        winner_id=None, decided_at=None, match_id=None, deadline=None, late=False
    )
    _start_ready(tournament)
    correction.replay_match = Pairing.objects.values_list("match_id", flat=True).get(pk=row.pk)
    events.publish_tournament(tournament.pk)
    return correction


def _locked_pairing(match: Match) -> tuple[Tournament, Pairing]:
    assert match.tournament_id is not None
    tournament = scheduler.locked_tournament(match.tournament_id)
    if tournament.state == TournamentState.FINISHED:
        raise Conflict("The tournament has finished and its prizes are paid; adjust money instead.")
    if tournament.state != TournamentState.RUNNING:
        raise Conflict(f"The tournament is {tournament.get_state_display().lower()}.")
    row = (
        Pairing.objects.select_for_update().filter(tournament=tournament, match_id=match.pk).first()
    )
    if row is None:
        raise Conflict("This match has no place in the tournament's bracket.")
    return tournament, row


def _fed_by(row: Pairing, which: str) -> list[tuple[Pairing, str]]:
    """The pairings (and their side) that take the ``which`` ("winner"/"loser") of ``row``."""
    key = PairingKey(Flight(row.flight), row.round, row.position)
    source = f"{which}:{draw_rows.key_text(key)}"
    fed = Pairing.objects.select_for_update().filter(
        Q(top_source=source) | Q(bottom_source=source), tournament_id=row.tournament_id
    )
    return [(pairing, "top" if pairing.top_source == source else "bottom") for pairing in fed]


def _take_back(
    successor: Pairing, side: str, old_winner: int, cause: dict[str, object], correction: Correction
) -> None:
    """Empty the side ``old_winner`` took in ``successor``; cancel its match if unstarted."""
    if getattr(successor, f"{side}_id") != old_winner:
        return
    if successor.winner_id is not None:
        raise Conflict(
            f"The next match ({_slot_name(successor)}) has been played already; "
            "the bracket cannot be corrected by this decision."
        )
    if successor.match_id is not None:
        match_cancel(lock_match(successor.match_id), cause=cause)
        correction.cancelled_match = successor.match_id
    Pairing.objects.filter(pk=successor.pk).update(
        **{f"{side}_id": None}, match_id=None, deadline=None, late=False
    )


def _start_ready(tournament: Tournament) -> list[int]:
    """Start the matches of pairings the correction made ready; their ids."""
    fmt = scheduler.tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    draw, rows = draw_rows.stored_draw(tournament)
    before = {row.pk for row in rows.values() if row.match_id is not None}
    scheduler.start_ready_matches(tournament, fmt, draw, rows)
    return sorted(
        row.match_id for row in rows.values() if row.match_id is not None and row.pk not in before
    )


def _slot_name(row: Pairing) -> str:
    flight = "" if row.flight == Flight.MAIN else f"{row.flight} "
    return f"{flight}round {row.round + 1}, match {row.position + 1}"
