"""Decisions about a tournament match correct the bracket and the next match if unstarted."""

from __future__ import annotations

import pytest

from accounts import ledger
from core.errors import Conflict
from disputes import services
from disputes.models import Dispute
from matches.models import Match, MatchStatus
from tests.integration.disputes.helpers import file, staff
from tests.integration.tournaments.helpers import (
    bracket_rows,
    concede,
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def _first_round_played() -> tuple[Tournament, list, Match]:
    """A knockout of four; both first-round matches conceded by the bottom player."""
    owner = organizer()
    field = players(4)
    tournament = open_tournament(owner, round_lengths=(1, 1))
    register_all(tournament, field)
    tournament_services.tournament_start(tournament_id=tournament.pk, user=owner)
    first, second = live_matches(tournament)
    concede(first, first.player_1)
    concede(second, second.player_1)
    return tournament, field, Match.objects.get(pk=first.pk)


def test_overturning_a_first_round_result_puts_the_other_player_in_the_unstarted_final() -> None:
    # given the final was created for the first match's winner, and nobody has come to it
    tournament, _, first = _first_round_played()
    rows = bracket_rows(tournament)
    final = rows[-1]
    old_final = Match.objects.get(pk=final.match_id)
    loser = first.player_1
    response = file(loser, first)
    dispute = Dispute.objects.get(pk=response.json()["id"])

    # when
    services.dispute_decide(
        dispute_id=dispute.pk, staff=staff(), decision="overturn", reason="Opponent used a bot."
    )

    # then
    first.refresh_from_db()
    assert first.winner_seat == 1
    rows = bracket_rows(tournament)
    pairing = next(row for row in rows if row.match_id == first.pk)
    assert pairing.winner_id == loser.pk
    final = rows[-1]
    assert loser.pk in (final.top_id, final.bottom_id)
    assert first.player_0_id not in (final.top_id, final.bottom_id)
    old_final.refresh_from_db()
    assert old_final.status == MatchStatus.CANCELLED
    new_final = Match.objects.get(pk=final.match_id)
    assert new_final.pk != old_final.pk
    assert new_final.status == MatchStatus.PLAYING
    assert loser.pk in (new_final.player_0_id, new_final.player_1_id)
    dispute.refresh_from_db()
    assert dispute.outcome["bracket"]["cancelled_match"] == old_final.pk
    assert dispute.outcome["bracket"]["new_matches"] == [new_final.pk]
    assert ledger.currency_total("FUN") == 0


def test_a_started_next_match_is_not_taken_away_from_its_players() -> None:
    tournament, _, first = _first_round_played()
    final = bracket_rows(tournament)[-1]
    Match.objects.filter(pk=final.match_id).update(seen_0=True)
    dispute = Dispute.objects.get(pk=file(first.player_1, first).json()["id"])

    with pytest.raises(Conflict, match="has started"):
        services.dispute_decide(
            dispute_id=dispute.pk, staff=staff(), decision="overturn", reason="x"
        )

    first.refresh_from_db()
    assert first.winner_seat == 0
    assert Dispute.objects.get(pk=dispute.pk).state == "open"


def test_voiding_a_tournament_match_replays_it_in_the_same_slot() -> None:
    tournament, _, first = _first_round_played()
    old_final_id = bracket_rows(tournament)[-1].match_id
    dispute = Dispute.objects.get(pk=file(first.player_1, first).json()["id"])

    services.dispute_decide(
        dispute_id=dispute.pk, staff=staff(), decision="void", reason="Server restarted."
    )

    rows = bracket_rows(tournament)
    slot = rows[0] if rows[0].top_id == first.player_0_id else rows[1]
    assert slot.winner_id is None
    replay = Match.objects.get(pk=slot.match_id)
    assert {replay.player_0_id, replay.player_1_id} == {first.player_0_id, first.player_1_id}
    assert replay.status == MatchStatus.PLAYING
    assert Match.objects.get(pk=old_final_id).status == MatchStatus.CANCELLED
    final = rows[-1]
    assert final.match_id is None
    assert first.player_0_id not in (final.top_id, final.bottom_id)
    assert Match.objects.get(pk=first.pk).status == MatchStatus.CANCELLED


def test_an_entrant_of_the_tournament_may_dispute_a_match_they_did_not_play() -> None:
    _, field, first = _first_round_played()
    onlooker = next(p for p in field if p.pk not in (first.player_0_id, first.player_1_id))

    assert file(onlooker, first).status_code == 201
