"""A staff decision on a match that fed a last chance, or was played in one: the flights it
fed are corrected through the dispute service, a fresh last chance drawn from the corrected
result is drawn again while none of its matches has started, and refused once one has."""

from __future__ import annotations

import pytest
from django.db.models import Q

from core.errors import Conflict
from matches.models import Match, MatchStatus
from tests.integration.tournaments.helpers import concede, live_matches, players
from tests.integration.tournaments.test_corrections_in_flights import (
    decide,
    loser_of,
    match_of,
    players_of,
    sides,
    slot,
    start,
    winner_of,
)
from tournaments.models import Pairing, Tournament, TournamentFormat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def weekend() -> Tournament:
    """A knockout of 16 whose fresh last chance takes everyone knocked out before the final
    (15 players: one bye), with a consolation for the last chance's first-round losers."""
    return start(
        TournamentFormat.KNOCKOUT,
        players(16),
        last_chance_reenters_at=2,
        last_chance_entry="fresh",
        consolation_through_round=0,
    )


def play_flight(tournament: Tournament, flight: str, *, through_round: int) -> None:
    """The bottom player resigns every live match of ``flight`` up to ``through_round``,
    until none is left."""
    while waiting := [
        match
        for match in live_matches(tournament)
        if (row := Pairing.objects.get(match_id=match.pk)).flight == flight
        and row.round <= through_round
    ]:
        for match in waiting:
            concede(match, match.player_1)


def drawn(tournament: Tournament) -> set[int]:
    return {
        side
        for row in Pairing.objects.filter(tournament=tournament, flight="last_chance", round=0)
        for side in sides(row)
        if side is not None
    }


def test_overturning_a_last_chance_match_moves_both_players_on_in_both_side_flights() -> None:
    # given the last chance's first round played: its winners wait in its second round and
    # its losers in the consolation, neither match started
    tournament = weekend()
    play_flight(tournament, "main", through_round=3)
    play_flight(tournament, "last_chance", through_round=0)
    first = next(
        row
        for row in Pairing.objects.filter(tournament=tournament, flight="last_chance", round=0)
        if row.match_id is not None
        and fed_by(row, "winner").match_id is not None
        and fed_by(row, "loser").match_id is not None
    )
    old_winner, old_loser = winner_of(first), loser_of(first)
    next_round, consolation = fed_by(first, "winner"), fed_by(first, "loser")
    assert consolation.flight == "consolation"
    stale = [match_of(next_round).pk, match_of(consolation).pk]

    # when staff overturn it after a dispute
    decide(match_of(first), "overturn")

    # then each player takes the other's place, in new matches
    corrected_next = Pairing.objects.get(pk=next_round.pk)
    corrected_consolation = Pairing.objects.get(pk=consolation.pk)
    assert slot(tournament, "last_chance", 0, first.position).winner_id == old_loser
    assert sides(corrected_next) == tuple(
        old_loser if side == old_winner else side for side in sides(next_round)
    )
    assert sides(corrected_consolation) == tuple(
        old_winner if side == old_loser else side for side in sides(consolation)
    )
    assert players_of(match_of(corrected_next)) == sides(corrected_next)
    assert players_of(match_of(corrected_consolation)) == sides(corrected_consolation)
    assert set(Match.objects.filter(pk__in=stale).values_list("status", flat=True)) == {
        MatchStatus.CANCELLED
    }


def fed_by(row: Pairing, which: str) -> Pairing:
    """The pairing the ``which`` ("winner" or "loser") of the last-chance ``row`` goes to."""
    source = f"{which}:last_chance:{row.round}:{row.position}"
    return Pairing.objects.get(
        Q(top_source=source) | Q(bottom_source=source), tournament_id=row.tournament_id
    )


def test_overturning_a_result_the_fresh_last_chance_was_drawn_from_draws_it_again() -> None:
    # given the last chance drawn from the main flight's first four rounds, nothing of it
    # started yet
    tournament = weekend()
    play_flight(tournament, "main", through_round=3)
    section_final = slot(tournament, "main", 3, 0)
    old_winner, old_loser = winner_of(section_final), loser_of(section_final)
    before = drawn(tournament)
    assert old_loser in before

    decide(match_of(section_final), "overturn")

    # then the old winner is drawn in the old loser's stead, who waits in the final
    assert drawn(tournament) == before - {old_loser} | {old_winner}
    assert slot(tournament, "main", 4, 0).top_id == old_loser
    first_round = Pairing.objects.filter(tournament=tournament, flight="last_chance", round=0)
    for row in first_round:
        if None not in sides(row):
            assert match_of(row).status == MatchStatus.PLAYING
            assert players_of(match_of(row)) == sides(row)


def test_a_result_the_last_chance_was_drawn_from_stands_once_the_last_chance_has_started() -> None:
    tournament = weekend()
    play_flight(tournament, "main", through_round=3)
    section_final = slot(tournament, "main", 3, 0)
    first = Pairing.objects.filter(
        tournament=tournament, flight="last_chance", match_id__isnull=False
    ).first()
    assert first is not None
    Match.objects.filter(pk=first.match_id).update(seen_0=True)

    with pytest.raises(Conflict, match="The last chance was drawn from this result and has"):
        decide(match_of(section_final), "overturn")

    assert slot(tournament, "main", 3, 0).winner_id == section_final.winner_id
    assert match_of(first).status == MatchStatus.PLAYING
