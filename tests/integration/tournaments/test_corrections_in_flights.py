"""A staff decision that overturns or voids a match corrects every flight its result fed: the
winner's and the loser's next pairings, a consolation, the grand final's reset, a Swiss's next
round, a round robin's standings and knockout stage.

Each tournament is opened as a knockout and given its format's fields on the row before it
starts; decisions go through the staff's dispute service, as they would in use.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q

from accounts import ledger
from accounts.models import User
from core.errors import Conflict
from disputes import services as dispute_services
from disputes.models import Dispute
from matches.models import Match, MatchStatus
from tests.integration.disputes.helpers import file, staff
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import (
    concede,
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services
from tournaments.models import Pairing, Tournament, TournamentFormat, TournamentState

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


# ---------------------------------------------------------------- helpers


def start(format_: str, field: list[User], **fields: Any) -> Tournament:
    owner = organizer()
    tournament = open_tournament(owner, round_lengths=(1,))
    Tournament.objects.filter(pk=tournament.pk).update(format=format_, **fields)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    return tournament


def slot(tournament: Tournament, flight: str, round_: int, position: int) -> Pairing:
    return Pairing.objects.get(
        tournament=tournament, flight=flight, round=round_, position=position
    )


def sides(pairing: Pairing) -> tuple[int | None, int | None]:
    return pairing.top_id, pairing.bottom_id


def winner_of(pairing: Pairing) -> int:
    assert pairing.winner_id is not None
    return pairing.winner_id


def loser_of(pairing: Pairing) -> int:
    loser = pairing.bottom_id if pairing.winner_id == pairing.top_id else pairing.top_id
    assert loser is not None
    return loser


def match_of(pairing: Pairing) -> Match:
    assert pairing.match_id is not None
    return Match.objects.get(pk=pairing.match_id)


def players_of(match: Match) -> tuple[int, int]:
    return match.player_0_id, match.player_1_id


def win(pairing: Pairing, winner: int) -> None:
    """The other player of ``pairing``'s live match resigns to ``winner``."""
    match = match_of(pairing)
    loser = match.player_1 if match.player_0_id == winner else match.player_0
    concede(match, loser)


def play_all(tournament: Tournament, *, except_flight: str | None = None) -> None:
    """The bottom player of every live match resigns, round after round, leaving the matches
    of ``except_flight`` unplayed."""
    while True:
        waiting = [
            match
            for match in live_matches(tournament)
            if Pairing.objects.get(match_id=match.pk).flight != except_flight
        ]
        if not waiting:
            return
        for match in waiting:
            concede(match, match.player_1)


def play_all_once(tournament: Tournament) -> None:
    """The bottom player of every match live now resigns."""
    for match in live_matches(tournament):
        concede(match, match.player_1)


def decide(match: Match, decision: str) -> Dispute:
    """A player of ``match`` disputes it and staff decide ``decision``."""
    filed = file(match.player_0 if match.winner_seat == 1 else match.player_1, match)
    assert filed.status_code == 201, filed.json()
    judge = User.objects.filter(username="sam").first() or staff()
    return dispute_services.dispute_decide(
        dispute_id=filed.json()["id"], staff=judge, decision=decision, reason="Checked the log."
    )


def standings(tournament: Tournament, viewer: User) -> dict[str, dict[str, Any]]:
    answer = api_for(viewer).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    return {row["username"]: row for row in answer["rows"]}


# ---------------------------------------------------------------- double elimination


def test_overturning_a_winners_round_moves_both_players_in_both_flights() -> None:
    # given a double elimination of four whose first round is over: the winners' final and
    # the losers' first round are made, and nobody has come to them
    field = players(4)
    tournament = start(TournamentFormat.DOUBLE_ELIMINATION, field, grand_final_reset=True)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    old_winner, old_loser = winner_of(first), loser_of(first)
    winners_final = slot(tournament, "main", 1, 0)
    losers_first = slot(tournament, "losers", 0, 0)
    old_matches = [match_of(winners_final).pk, match_of(losers_first).pk]

    # when staff give the first match to the player who lost it
    dispute = decide(match_of(first), "overturn")

    # then the new winner takes the old winner's place in the winners' final, and the old
    # winner, now beaten once, takes the old loser's place in the losers' flight
    assert slot(tournament, "main", 0, 0).winner_id == old_loser
    corrected_final = slot(tournament, "main", 1, 0)
    corrected_losers = slot(tournament, "losers", 0, 0)
    assert sides(corrected_final) == tuple(
        old_loser if side == old_winner else side for side in sides(winners_final)
    )
    assert sides(corrected_losers) == tuple(
        old_winner if side == old_loser else side for side in sides(losers_first)
    )
    for old in old_matches:
        assert Match.objects.get(pk=old).status == MatchStatus.CANCELLED
    for corrected in (corrected_final, corrected_losers):
        match = match_of(corrected)
        assert match.status == MatchStatus.PLAYING
        assert players_of(match) == sides(corrected)
    bracket = dispute.outcome["bracket"]
    assert sorted(bracket["cancelled_matches"]) == sorted(old_matches)
    assert sorted(bracket["new_matches"]) == sorted(
        [match_of(corrected_final).pk, match_of(corrected_losers).pk]
    )
    assert bracket["moved_pairings"] == ["Winners' final", "Losers' round 1"]


def test_voiding_a_winners_round_match_empties_both_next_pairings_until_the_replay_ends() -> None:
    field = players(4)
    tournament = start(TournamentFormat.DOUBLE_ELIMINATION, field, grand_final_reset=True)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    winner, loser = winner_of(first), loser_of(first)
    old_matches = [
        match_of(slot(tournament, "main", 1, 0)).pk,
        match_of(slot(tournament, "losers", 0, 0)).pk,
    ]

    dispute = decide(match_of(first), "void")

    replayed = slot(tournament, "main", 0, 0)
    assert replayed.winner_id is None
    replay = match_of(replayed)
    assert replay.pk == dispute.outcome["replay_match"]
    assert players_of(replay) == sides(first)
    winners_final = slot(tournament, "main", 1, 0)
    losers_first = slot(tournament, "losers", 0, 0)
    assert winner not in sides(winners_final)
    assert loser not in sides(losers_first)
    assert winners_final.match_id is None
    assert losers_first.match_id is None
    assert Match.objects.filter(pk__in=old_matches, status=MatchStatus.CANCELLED).count() == 2

    # when the replay ends, this time the other way, both flights fill again
    win(replayed, loser)

    assert loser in sides(slot(tournament, "main", 1, 0))
    assert winner in sides(slot(tournament, "losers", 0, 0))
    assert match_of(slot(tournament, "main", 1, 0)).status == MatchStatus.PLAYING
    assert match_of(slot(tournament, "losers", 0, 0)).status == MatchStatus.PLAYING


def test_overturning_the_grand_final_won_by_the_losers_champion_calls_the_reset_off() -> None:
    # given the losers' flight champion won the grand final, so a reset final was made
    field = players(4)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    tournament = start(TournamentFormat.DOUBLE_ELIMINATION, field, grand_final_reset=True)
    play_all(tournament, except_flight="final")
    grand_final = slot(tournament, "final", 0, 0)
    unbeaten = grand_final.top_id
    assert unbeaten is not None
    assert grand_final.bottom_id is not None
    win(grand_final, grand_final.bottom_id)
    reset = slot(tournament, "final", 1, 0)
    reset_match = match_of(reset)

    # when staff give the grand final to the unbeaten finalist
    decide(match_of(slot(tournament, "final", 0, 0)), "overturn")

    # then the reset is not played: the unbeaten finalist is champion and the prizes are paid
    reset = slot(tournament, "final", 1, 0)
    assert reset.bottom_bye
    assert reset.winner_id == unbeaten
    assert reset.match_id is None
    assert Match.objects.get(pk=reset_match.pk).status == MatchStatus.CANCELLED
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    assert tournament.champion_id == unbeaten
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    after = sum(ledger.balance(user=user, currency="FUN") for user in field)
    assert after == before - len(field) * 65
    assert ledger.currency_total("FUN") == 0


def test_overturning_the_grand_final_won_by_the_unbeaten_finalist_makes_the_reset() -> None:
    # given the unbeaten finalist won the grand final (the reset was called off) while the
    # consolation beside the double elimination is still being played
    field = players(8)
    tournament = start(
        TournamentFormat.DOUBLE_ELIMINATION,
        field,
        grand_final_reset=True,
        consolation_through_round=0,
    )
    play_all(tournament, except_flight="consolation")
    grand_final = slot(tournament, "final", 0, 0)
    unbeaten, challenger = sides(grand_final)
    assert grand_final.winner_id == unbeaten
    assert slot(tournament, "final", 1, 0).bottom_bye
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.RUNNING

    # when staff give the grand final to the losers' flight champion
    dispute = decide(match_of(grand_final), "overturn")

    # then the reset is played between them, the grand final's winner on top
    reset = slot(tournament, "final", 1, 0)
    assert sides(reset) == (challenger, unbeaten)
    assert not reset.bottom_bye
    assert reset.winner_id is None
    match = match_of(reset)
    assert players_of(match) == (challenger, unbeaten)
    assert match.status == MatchStatus.PLAYING
    assert dispute.outcome["bracket"]["new_matches"] == [match.pk]
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.RUNNING


# ---------------------------------------------------------------- consolation


def test_overturning_a_first_round_match_swaps_the_players_in_the_main_and_consolation() -> None:
    field = players(8)
    tournament = start(TournamentFormat.KNOCKOUT, field, consolation_through_round=0)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    old_winner, old_loser = winner_of(first), loser_of(first)
    next_main = slot(tournament, "main", 1, 0)
    consolation = slot(tournament, "consolation", 0, 0)
    assert old_winner in sides(next_main)
    assert old_loser in sides(consolation)

    decide(match_of(first), "overturn")

    corrected_main = slot(tournament, "main", 1, 0)
    corrected_consolation = slot(tournament, "consolation", 0, 0)
    assert sides(corrected_main) == tuple(
        old_loser if side == old_winner else side for side in sides(next_main)
    )
    assert sides(corrected_consolation) == tuple(
        old_winner if side == old_loser else side for side in sides(consolation)
    )
    assert players_of(match_of(corrected_main)) == sides(corrected_main)
    assert players_of(match_of(corrected_consolation)) == sides(corrected_consolation)
    for old in (next_main, consolation):
        assert match_of(old).status == MatchStatus.CANCELLED


def test_overturning_a_losers_flight_match_swaps_its_players_there_and_in_the_consolation() -> None:
    # given a double elimination of eight with a consolation for those out in the losers'
    # first round: its survivors and its losers have their next matches, unstarted
    field = players(8)
    tournament = start(
        TournamentFormat.DOUBLE_ELIMINATION,
        field,
        grand_final_reset=True,
        consolation_through_round=0,
    )
    play_all_once(tournament)
    play_all_once(tournament)
    first = slot(tournament, "losers", 0, 0)
    old_winner, old_loser = winner_of(first), loser_of(first)
    survivors = Pairing.objects.get(tournament=tournament, top_source="winner:losers:0:0")
    consolation = Pairing.objects.get(
        Q(top_source="loser:losers:0:0") | Q(bottom_source="loser:losers:0:0"),
        tournament=tournament,
    )
    assert consolation.flight == "consolation"
    old_matches = [match_of(survivors).pk, match_of(consolation).pk]

    decide(match_of(first), "overturn")

    corrected_survivors = Pairing.objects.get(pk=survivors.pk)
    corrected_consolation = Pairing.objects.get(pk=consolation.pk)
    assert corrected_survivors.top_id == old_loser
    assert corrected_survivors.bottom_id == survivors.bottom_id
    assert sides(corrected_consolation) == tuple(
        old_winner if side == old_loser else side for side in sides(consolation)
    )
    assert players_of(match_of(corrected_survivors)) == sides(corrected_survivors)
    assert players_of(match_of(corrected_consolation)) == sides(corrected_consolation)
    assert set(Match.objects.filter(pk__in=old_matches).values_list("status", flat=True)) == {
        MatchStatus.CANCELLED
    }


def test_a_started_consolation_match_is_not_taken_away_from_its_players() -> None:
    field = players(8)
    tournament = start(TournamentFormat.KNOCKOUT, field, consolation_through_round=0)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    consolation = slot(tournament, "consolation", 0, 0)
    Match.objects.filter(pk=match_of(consolation).pk).update(seen_1=True)

    with pytest.raises(Conflict, match=r"Consolation round 1, match 1 \(#\d+\) has started"):
        decide(match_of(first), "overturn")

    assert slot(tournament, "main", 0, 0).winner_id == first.winner_id
    assert match_of(slot(tournament, "main", 1, 0)).status == MatchStatus.PLAYING
    assert match_of(consolation).status == MatchStatus.PLAYING


# ---------------------------------------------------------------- Swiss


def pairs(tournament: Tournament, round_: int) -> set[frozenset[int | None]]:
    return {
        frozenset(sides(pairing))
        for pairing in Pairing.objects.filter(tournament=tournament, flight="main", round=round_)
    }


def test_overturning_a_swiss_result_pairs_the_unstarted_next_round_again() -> None:
    # given a Swiss of four whose second round was paired as the first ended; nobody has
    # come to its boards yet
    field = players(4)
    tournament = start(TournamentFormat.SWISS, field, rounds=2)
    play_all_once(tournament)
    first, other = slot(tournament, "main", 0, 0), slot(tournament, "main", 0, 1)
    assert other.winner_id is not None
    old_winner, old_loser = winner_of(first), loser_of(first)
    assert pairs(tournament, 1) == {
        frozenset((old_winner, other.winner_id)),
        frozenset((old_loser, loser_of(other))),
    }
    old_round = [pairing.match_id for pairing in Pairing.objects.filter(round=1)]

    # when staff give the first match to the player who lost it
    decide(match_of(first), "overturn")

    # then the second round is paired again from the corrected scores: the two players on
    # one point meet, and so do the two on none
    assert pairs(tournament, 1) == {
        frozenset((old_loser, other.winner_id)),
        frozenset((old_winner, loser_of(other))),
    }
    assert set(Match.objects.filter(pk__in=old_round).values_list("status", flat=True)) == {
        MatchStatus.CANCELLED
    }
    for pairing in Pairing.objects.filter(tournament=tournament, round=1):
        assert players_of(match_of(pairing)) == sides(pairing)
        assert match_of(pairing).status == MatchStatus.PLAYING
    scores = standings(tournament, field[0])
    by_id = {user.pk: user.username for user in field}
    assert scores[by_id[old_loser]]["points"] == 1
    assert scores[by_id[old_winner]]["points"] == 0


def test_a_swiss_result_is_not_changed_once_the_next_round_has_started() -> None:
    field = players(4)
    tournament = start(TournamentFormat.SWISS, field, rounds=2)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    next_round = list(Pairing.objects.filter(tournament=tournament, round=1).order_by("position"))
    Match.objects.filter(pk=match_of(next_round[1]).pk).update(seen_0=True)

    with pytest.raises(Conflict, match="Round 2 was paired from this result and has started"):
        decide(match_of(first), "overturn")

    assert slot(tournament, "main", 0, 0).winner_id == first.winner_id
    assert match_of(first).winner_seat == 0
    for pairing in next_round:
        assert slot(tournament, "main", 1, pairing.position).match_id == pairing.match_id
        assert match_of(pairing).status == MatchStatus.PLAYING
    assert Dispute.objects.get().state == "open"


def test_voiding_a_swiss_result_pairs_the_next_round_once_the_replay_ends() -> None:
    field = players(4)
    tournament = start(TournamentFormat.SWISS, field, rounds=2)
    play_all_once(tournament)
    first, other = slot(tournament, "main", 0, 0), slot(tournament, "main", 0, 1)
    winner, loser = winner_of(first), loser_of(first)
    old_round = [pairing.match_id for pairing in Pairing.objects.filter(round=1)]

    decide(match_of(first), "void")

    # the next round is withdrawn and the replay is the only match to play
    assert not Pairing.objects.filter(tournament=tournament, round=1).exists()
    assert set(Match.objects.filter(pk__in=old_round).values_list("status", flat=True)) == {
        MatchStatus.CANCELLED
    }
    replay = slot(tournament, "main", 0, 0)
    assert replay.winner_id is None
    assert live_matches(tournament) == [match_of(replay)]

    # when the replay ends, the other way this time, the next round is paired from it
    win(replay, loser)

    assert pairs(tournament, 1) == {
        frozenset((loser, other.winner_id)),
        frozenset((winner, loser_of(other))),
    }
    assert len(live_matches(tournament)) == 2


def test_an_older_swiss_round_is_corrected_in_the_standings_and_its_later_pairings_stand() -> None:
    # given a Swiss of six in its third round: the second was played to the end since the
    # first, and the third is paired
    field = players(6)
    tournament = start(TournamentFormat.SWISS, field, rounds=3)
    play_all_once(tournament)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    old_winner, old_loser = winner_of(first), loser_of(first)
    third_round = {p.pk: (sides(p), p.match_id) for p in Pairing.objects.filter(round=2)}
    by_id = {user.pk: user.username for user in field}
    points = {name: row["points"] for name, row in standings(tournament, field[0]).items()}

    # when staff give a first-round match to the player who lost it
    decide(match_of(first), "overturn")

    # then the standings count it, and the rounds paired since stand as they were
    assert slot(tournament, "main", 0, 0).winner_id == old_loser
    corrected = {name: row["points"] for name, row in standings(tournament, field[0]).items()}
    assert corrected[by_id[old_loser]] == points[by_id[old_loser]] + 1
    assert corrected[by_id[old_winner]] == points[by_id[old_winner]] - 1
    assert {p.pk: (sides(p), p.match_id) for p in Pairing.objects.filter(round=2)} == third_round
    assert len(live_matches(tournament)) == 3

    # and such a match cannot be replayed after its players have played a round since
    with pytest.raises(Conflict, match="Round 3 has been paired since this match"):
        decide(match_of(slot(tournament, "main", 0, 1)), "void")


def test_overturning_a_last_round_swiss_result_draws_the_unstarted_top_cut_again() -> None:
    # given a Swiss of four with a top cut of two, drawn as the last round ended
    field = players(4)
    tournament = start(TournamentFormat.SWISS, field, rounds=2, top_cut=2)
    play_all_once(tournament)
    play_all_once(tournament)
    cut = slot(tournament, "final", 0, 0)
    by_name = {user.username: user.pk for user in field}
    table = sorted(standings(tournament, field[0]).values(), key=lambda row: row["rank"])
    assert set(sides(cut)) == {by_name[row["username"]] for row in table[:2]}
    leaders = next(
        pairing
        for pairing in Pairing.objects.filter(tournament=tournament, flight="main", round=1)
        if set(sides(pairing)) == set(sides(cut))
    )

    # when staff give the leaders' last match to the player who lost it
    decide(match_of(leaders), "overturn")

    # then the cut is drawn again from the corrected standings, the new leader seeded first
    table = sorted(standings(tournament, field[0]).values(), key=lambda row: row["rank"])
    redrawn = slot(tournament, "final", 0, 0)
    assert set(sides(redrawn)) == {by_name[row["username"]] for row in table[:2]}
    assert redrawn.top_id == loser_of(leaders) == by_name[table[0]["username"]]  # seed 1
    assert sides(redrawn) != sides(cut)
    assert match_of(cut).status == MatchStatus.CANCELLED
    assert players_of(match_of(redrawn)) == sides(redrawn)


# ---------------------------------------------------------------- round robin


def test_overturning_a_round_robin_result_changes_the_standings_only() -> None:
    field = players(4)
    tournament = start(TournamentFormat.ROUND_ROBIN, field)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    old_winner, old_loser = winner_of(first), loser_of(first)
    by_id = {user.pk: user.username for user in field}
    second_round = {p.pk: p.match_id for p in Pairing.objects.filter(round=1)}

    decide(match_of(first), "overturn")

    table = standings(tournament, field[0])
    assert (table[by_id[old_loser]]["wins"], table[by_id[old_loser]]["losses"]) == (1, 0)
    assert (table[by_id[old_winner]]["wins"], table[by_id[old_winner]]["losses"]) == (0, 1)
    assert {p.pk: p.match_id for p in Pairing.objects.filter(round=1)} == second_round
    assert all(match.status == MatchStatus.PLAYING for match in live_matches(tournament))
    assert len(live_matches(tournament)) == 2


def test_overturning_a_group_result_draws_the_unstarted_knockout_stage_again() -> None:
    # given a round robin of four whose first two go through to a final, drawn as the last
    # group match ended; nobody has come to it yet
    field = players(4)
    tournament = start(TournamentFormat.ROUND_ROBIN, field, advance_per_group=2)
    play_all(tournament, except_flight="final")
    final = slot(tournament, "final", 0, 0)
    by_name = {user.username: user.pk for user in field}
    table = sorted(standings(tournament, field[0]).values(), key=lambda row: row["rank"])
    assert set(sides(final)) == {by_name[row["username"]] for row in table[:2]}
    # the runner-up won a last-round match against a player one point behind
    last = slot(tournament, "main", 2, 0)
    assert last.winner_id == by_name[table[1]["username"]]

    # when staff give that match to its loser
    decide(match_of(last), "overturn")

    # then the final is drawn again between the corrected table's first two
    table = sorted(standings(tournament, field[0]).values(), key=lambda row: row["rank"])
    redrawn = slot(tournament, "final", 0, 0)
    assert set(sides(redrawn)) == {by_name[row["username"]] for row in table[:2]}
    assert loser_of(last) in sides(redrawn)
    assert last.winner_id not in sides(redrawn)
    assert match_of(final).status == MatchStatus.CANCELLED
    assert players_of(match_of(redrawn)) == sides(redrawn)
    assert match_of(redrawn).status == MatchStatus.PLAYING


def test_a_voided_round_robin_match_is_replayed_before_its_players_later_matches() -> None:
    field = players(4)
    tournament = start(TournamentFormat.ROUND_ROBIN, field)
    play_all_once(tournament)
    first = slot(tournament, "main", 0, 0)
    involved = set(sides(first))
    later = [
        pairing
        for pairing in Pairing.objects.filter(tournament=tournament, round=1)
        if involved & set(sides(pairing))
    ]
    assert later

    dispute = decide(match_of(first), "void")

    assert live_matches(tournament) == [match_of(slot(tournament, "main", 0, 0))]
    assert sorted(dispute.outcome["bracket"]["cancelled_matches"]) == sorted(
        match_of(pairing).pk for pairing in later
    )
    assert all(Pairing.objects.get(pk=pairing.pk).match_id is None for pairing in later)

    # when the replay ends, the later matches are made again
    win(slot(tournament, "main", 0, 0), winner_of(first))

    for pairing in later:
        match = match_of(Pairing.objects.get(pk=pairing.pk))
        assert match.status == MatchStatus.PLAYING
        assert players_of(match) == sides(pairing)
