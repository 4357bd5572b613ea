"""Double elimination, Swiss and round robin run by the scheduler to the end: matches made
for every ready pairing, the next round paired as the last match of one ends, placings and
prizes paid through the ledger, money conserved.

Each tournament is opened as a knockout and given its format on the row before it starts
(organizers could not choose these formats when these tests were written).
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts import ledger
from accounts.models import User
from matches.models import Match
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import (
    assert_money_conserved,
    bracket_rows,
    concede_round,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services
from tournaments.models import Entry, Tournament, TournamentFormat, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)


def run(format_: str, field: list[User], **fields: Any) -> tuple[Tournament, list[int]]:
    """Open, fill and start a tournament of ``format_``, then concede every live match (the
    bottom player resigns) until none is left; returns it and the matches per batch."""
    owner = organizer()
    tournament = open_tournament(owner, round_lengths=(1,))
    Tournament.objects.filter(pk=tournament.pk).update(format=format_, **fields)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    batches = []
    while (ended := concede_round(tournament)) > 0:
        batches.append(ended)
    tournament.refresh_from_db()
    return tournament, batches


def assert_paid_and_conserved(tournament: Tournament, field: list[User], before: int) -> None:
    entries = {entry.user_id: entry for entry in Entry.objects.filter(tournament=tournament)}
    assert all(entry.place is not None for entry in entries.values())
    assert sum(entry.prize_cents for entry in entries.values()) == len(field) * 1000
    assert_money_conserved(tournament, field, before)


def test_a_double_elimination_of_six_ends_with_a_champion_who_lost_at_most_once() -> None:
    field = players(6)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)

    tournament, batches = run(TournamentFormat.DOUBLE_ELIMINATION, field, grand_final_reset=True)

    assert tournament.state == TournamentState.FINISHED
    rows = bracket_rows(tournament)
    flights = {row.flight for row in rows}
    assert flights == {"main", "losers", "final"}
    assert all(row.winner_id is not None for row in rows)
    played = [row for row in rows if row.match_id is not None]
    losses: dict[int, int] = {}
    for row in played:
        loser = row.bottom_id if row.winner_id == row.top_id else row.top_id
        assert loser is not None
        losses[loser] = losses.get(loser, 0) + 1
    assert losses.get(tournament.champion_id or 0, 0) <= 1
    assert sorted(losses.values()).count(2) == 5  # everyone else went out on a second loss
    assert sum(batches) == len(played) == Match.objects.filter(tournament_id=tournament.pk).count()
    # The losers' flight took its players from the winners' flight as laid out.
    assert any(row.top_source.startswith("loser:main:") for row in rows if row.flight == "losers")
    # The bracket API shows the flights in order, named, and where each pending side came from.
    shown = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/bracket/").json()["rounds"]
    assert [r["flight"] for r in shown] == sorted(
        (r["flight"] for r in shown), key=["main", "losers", "final"].index
    )
    names = [r["name"] for r in shown]
    assert names[0] == "Winners' quarter-finals"
    assert "Winners' final" in names
    assert "Losers' final" in names
    assert names[-2:] == ["Grand final", "Reset final"]
    grand_final = shown[-2]["slots"][0]
    assert grand_final["top_from"] == {"winner_of": {"flight": "main", "round": 2, "position": 0}}
    assert grand_final["bottom_from"]["winner_of"]["flight"] == "losers"
    drops = [
        slot["top_from"] or slot["bottom_from"]
        for r in shown
        if r["flight"] == "losers"
        for slot in r["slots"]
    ]
    assert any("loser_of" in (source or {}) for source in drops)
    places = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert [row["rank"] for row in places["rows"]][:3] == [1, 2, 3]
    assert places["rows"][0]["username"] == User.objects.get(pk=tournament.champion_id).username
    assert places["rows"][0]["tiebreaks"] == {}
    assert_paid_and_conserved(tournament, field, before)


def test_a_swiss_of_seven_pairs_each_round_as_the_last_one_ends_without_a_rematch() -> None:
    field = players(7)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)

    tournament, batches = run(TournamentFormat.SWISS, field, rounds=3)

    assert tournament.state == TournamentState.FINISHED
    assert batches == [3, 3, 3]  # seven players: three matches and a bye each round
    rows = bracket_rows(tournament)
    assert {row.round for row in rows} == {0, 1, 2}
    met = [
        frozenset((row.top_id, row.bottom_id))
        for row in rows
        if row.top_id is not None and row.bottom_id is not None
    ]
    assert len(met) == len(set(met)) == 9
    byes = [row.top_id or row.bottom_id for row in rows if row.top_bye or row.bottom_bye]
    assert len(byes) == len(set(byes)) == 3  # nobody has two byes
    table = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert table["format"] == "swiss"
    standing = table["rows"]
    assert len(standing) == 7
    assert sum(row["points"] for row in standing) == 9 + 3  # nine matches won, three byes
    assert sum(row["byes"] for row in standing) == 3
    assert [row["rank"] for row in standing] == sorted(row["rank"] for row in standing)
    assert list(standing[0]["tiebreaks"]) == [
        "buchholz",
        "median_buchholz",
        "sonneborn_berger",
        "points_margin",
    ]
    leader = standing[0]
    assert leader["points"] == leader["wins"] + leader["byes"]
    assert leader["tiebreaks"]["points_margin"] > 0  # 1-point matches won 1-0
    assert_paid_and_conserved(tournament, field, before)


def test_a_round_robin_of_five_plays_everyone_against_everyone_once() -> None:
    field = players(5)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)

    tournament, _ = run(TournamentFormat.ROUND_ROBIN, field)

    assert tournament.state == TournamentState.FINISHED
    met = [
        frozenset((row.top_id, row.bottom_id))
        for row in bracket_rows(tournament)
        if row.top_id is not None and row.bottom_id is not None
    ]
    assert len(met) == len(set(met)) == 10
    assert Match.objects.filter(tournament_id=tournament.pk).count() == 10
    table = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    standing = table["rows"]
    assert [row["group"] for row in standing] == [1] * 5
    assert sum(row["wins"] for row in standing) == sum(row["losses"] for row in standing) == 10
    assert all(row["wins"] + row["losses"] == 4 for row in standing)
    assert list(standing[0]["tiebreaks"]) == ["sonneborn_berger", "points_margin"]
    entries = {entry.user.username: entry for entry in Entry.objects.filter(tournament=tournament)}
    assert entries[standing[0]["username"]].place == 1
    assert_paid_and_conserved(tournament, field, before)


def test_a_knockout_with_a_consolation_plays_both_flights_to_the_end() -> None:
    field = players(8)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)

    tournament, batches = run(TournamentFormat.KNOCKOUT, field, consolation_through_round=0)

    assert tournament.state == TournamentState.FINISHED
    rows = bracket_rows(tournament)
    consolation = [row for row in rows if row.flight == "consolation"]
    assert {row.flight for row in rows} == {"main", "consolation"}
    assert len(consolation) == 3  # the four first-round losers play to a champion
    assert all(row.winner_id is not None for row in rows)
    first_round_losers = {
        row.bottom_id if row.winner_id == row.top_id else row.top_id
        for row in rows
        if row.flight == "main" and row.round == 0
    }
    entered = {row.top_id for row in consolation if row.round == 0} | {
        row.bottom_id for row in consolation if row.round == 0
    }
    assert entered == first_round_losers
    assert sum(batches) == 7 + 3
    shown = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/bracket/").json()["rounds"]
    assert [r["name"] for r in shown if r["flight"] == "consolation"] == [
        "Consolation round 1",
        "Consolation final",
    ]
    assert_paid_and_conserved(tournament, field, before)
