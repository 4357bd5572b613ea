"""A triple elimination set up through the organizer's API and played to the end through the
match API: three flights and the finals made as results come in, everyone but the champion
out on a third loss, match lengths per flight, prizes paid by place, money conserved; and a
staff decision that overturns a first losers' match or the playoff corrects the flights its
result fed; the organizer's form and API take its settings and refuse what it does not play."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q
from django.test import Client

from accounts import ledger
from accounts.models import User
from matches.models import Match, MatchStatus
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import live_matches, organizer, players
from tests.integration.tournaments.test_corrections_in_flights import (
    decide,
    loser_of,
    match_of,
    play_all_once,
    players_of,
    sides,
    slot,
    start,
    win,
    winner_of,
)
from tests.integration.tournaments.test_formats_from_the_api import (
    assert_money_conserved,
    concede_match,
)
from tournaments.models import Pairing, Tournament, TournamentFormat, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)

NORDIC_OPEN = {
    "name": "Nordic Open, division B",
    "format": "triple_elimination",
    "max_entrants": 16,
    "buy_in_cents": 1000,
    "fee_cents": 65,
    "round_lengths": {"main": [1], "losers": [2], "second_losers": [3], "final": [3]},
    "clock": {"kind": "move", "move_seconds": 30, "reserve_seconds": 120},
    "flight_clocks": {"second_losers": {"kind": "move", "move_seconds": 20, "reserve_seconds": 60}},
    "grand_final_reset": True,
    "prize_table": {"main": [5000, 3000, 2000]},
}


def created_and_started(settings: dict[str, Any], field: list[User]) -> Tournament:
    owner = organizer()
    api = api_for(owner)
    created = api.post("/api/tournaments/", settings, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    assert api.post(f"/api/tournaments/{tournament_id}/open/").status_code == 200
    for player in field:
        entered = api_for(player).post(f"/api/tournaments/{tournament_id}/register/")
        assert entered.status_code == 200, entered.json()
    started = api.post(f"/api/tournaments/{tournament_id}/start/")
    assert started.status_code == 200, started.json()
    return Tournament.objects.get(pk=tournament_id)


def test_a_triple_elimination_of_eleven_plays_to_a_champion_with_everyone_else_out_thrice() -> None:
    field = players(11)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    tournament = created_and_started(NORDIC_OPEN, field)

    # The top player wins every match but the finals', where the bottom one does, so the
    # playoff and the grand final are each played again.
    while matches := live_matches(tournament):
        for match in matches:
            in_finals = Pairing.objects.get(match_id=match.pk).flight == "final"
            loser = match.player_0_id if in_finals else match.player_1_id
            concede_match(match, User.objects.get(pk=loser))
    tournament.refresh_from_db()

    assert tournament.state == TournamentState.FINISHED
    rows = list(Pairing.objects.filter(tournament=tournament))
    assert {row.flight for row in rows} == {"main", "losers", "second_losers", "final"}
    assert all(row.winner_id is not None for row in rows)
    played = [row for row in rows if row.match_id is not None]
    losses: dict[int, int] = {}
    for row in played:
        losses[loser_of(row)] = losses.get(loser_of(row), 0) + 1
    assert losses.get(tournament.champion_id or 0) == 1
    assert sorted(losses.values()) == [1] + [3] * 10
    finals = sorted((row for row in rows if row.flight == "final"), key=lambda row: row.round)
    assert [row.match_id is not None for row in finals] == [True] * 4 + [False] * 2
    lengths = {(row.flight, Match.objects.get(pk=row.match_id).length) for row in played}
    assert lengths == {("main", 1), ("losers", 2), ("second_losers", 3), ("final", 3)}
    clocks = {row.flight: Match.objects.get(pk=row.match_id).move_seconds for row in played}
    assert clocks == {"main": 30, "losers": 30, "second_losers": 20, "final": 30}
    # The bracket API names the flights' rounds and the finals.
    shown = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/bracket/").json()["rounds"]
    assert [r["flight"] for r in shown] == sorted(
        (r["flight"] for r in shown), key=["main", "losers", "second_losers", "final"].index
    )
    names = [r["name"] for r in shown]
    assert names[0] == "Winners' round of 16"
    assert {"First losers' final", "Second losers' round 1", "Second losers' final"} <= set(names)
    assert names[-6:] == [
        "Losers' playoff",
        "Playoff reset",
        "Grand final",
        "Grand final reset 1",
        "Grand final reset 2",
        "Grand final reset 3",
    ]
    # Standings and prizes by place: 50/30/20 of 11,000 cents.
    places = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    ranked = places["rows"]
    assert [row["rank"] for row in ranked][:3] == [1, 2, 3]
    assert ranked[0]["username"] == User.objects.get(pk=tournament.champion_id).username
    assert ranked[0]["losses"] == 1
    paid = {
        entry.user.username: entry.prize_cents
        for entry in tournament.entries.select_related("user")
        if entry.prize_cents
    }
    assert paid == {
        ranked[0]["username"]: 5500,
        ranked[1]["username"]: 3300,
        ranked[2]["username"]: 2200,
    }
    assert_money_conserved(tournament, field, before)


def test_overturning_a_first_losers_match_moves_its_old_winner_into_the_second_losers() -> None:
    # given a triple elimination of eight whose winners' first round and first losers'
    # round 0 are played: the old winner waits in first losers' round 1, the old loser in
    # the second losers' opening
    field = players(8)
    tournament = start(TournamentFormat.TRIPLE_ELIMINATION, field, grand_final_reset=True)
    play_all_once(tournament)
    play_all_once(tournament)
    first = slot(tournament, "losers", 0, 0)
    old_winner, old_loser = winner_of(first), loser_of(first)
    survivors = Pairing.objects.get(tournament=tournament, top_source="winner:losers:0:0")
    opening = Pairing.objects.get(
        Q(top_source="loser:losers:0:0") | Q(bottom_source="loser:losers:0:0"),
        tournament=tournament,
    )
    assert opening.flight == "second_losers"
    assert old_loser in sides(opening)
    old_match = match_of(survivors).pk

    # when staff give that match to the player who lost it
    dispute = decide(match_of(first), "overturn")

    # then the new winner plays on in the first losers' flight, the old winner goes down
    survivors = Pairing.objects.get(pk=survivors.pk)
    assert survivors.top_id == old_loser
    assert players_of(match_of(survivors)) == sides(survivors)
    assert Match.objects.get(pk=old_match).status == MatchStatus.CANCELLED
    assert old_winner in sides(Pairing.objects.get(pk=opening.pk))
    assert old_loser not in sides(Pairing.objects.get(pk=opening.pk))
    moved = dispute.outcome["bracket"]["moved_pairings"]
    assert "First losers' round 2, match 1" in moved


def test_overturning_the_playoff_won_by_the_one_loss_champion_makes_its_reset() -> None:
    # given the first losers' champion won the playoff, so its reset was called off
    field = players(4)
    tournament = start(TournamentFormat.TRIPLE_ELIMINATION, field, grand_final_reset=True)
    while not slot(tournament, "final", 0, 0).winner_id:
        play_all_once(tournament)
    playoff = slot(tournament, "final", 0, 0)
    one_loss, two_losses = sides(playoff)
    assert playoff.winner_id == one_loss
    assert slot(tournament, "final", 1, 0).bottom_bye

    # when staff give the playoff to the second losers' champion
    decide(match_of(playoff), "overturn")

    # then both have lost twice and meet again, the playoff's winner on top, while the
    # grand final waits for them
    reset = slot(tournament, "final", 1, 0)
    assert sides(reset) == (two_losses, one_loss)
    assert not reset.bottom_bye
    assert players_of(match_of(reset)) == (two_losses, one_loss)
    grand_final = slot(tournament, "final", 2, 0)
    assert grand_final.bottom_id is None
    assert grand_final.match_id is None
    win(reset, one_loss)
    assert slot(tournament, "final", 2, 0).bottom_id == one_loss
    assert Tournament.objects.get(pk=tournament.pk).state == TournamentState.RUNNING


def test_the_organizers_form_creates_a_triple_elimination_with_lengths_per_flight() -> None:
    owner = organizer()
    client = Client()
    client.force_login(owner)
    form = {
        "name": "Nordic Open, division A",
        "format": "triple_elimination",
        "buy_in": "10.00",
        "fee": "0.65",
        "currency": "FUN",
        "seeding": "rating",
        "round_lengths": "5, 7",
        "losers_lengths": "3",
        "second_losers_lengths": "1, 3",
        "final_lengths": "7",
        "grand_final_reset": "on",
        "prizes": "60, 40",
        # left in hidden fields of other formats: not taken by a triple elimination
        "consolation": "on",
        "consolation_lengths": "3",
        "rounds": "7",
        "clock_kind": "move",
        "move_seconds": "15",
        "reserve_seconds": "90",
        "abandon_policy": "engine",
        "show_up_seconds": "300",
    }

    response = client.post("/tournaments/new/", form)

    assert response.status_code == 302, response.context["form"].errors
    tournament = Tournament.objects.get()
    assert tournament.format == "triple_elimination"
    assert tournament.round_lengths == [5, 7]
    assert tournament.flight_lengths == {"losers": [3], "second_losers": [1, 3], "final": [7]}
    assert tournament.grand_final_reset
    assert tournament.consolation_through_round is None
    assert tournament.prize_table == {"main": [6000, 4000]}
    page = client.get(f"/tournaments/{tournament.pk}/")
    assert "each final played again until a player has lost three times" in page.content.decode()
    edit = client.get(f"/tournaments/{tournament.pk}/edit/")
    assert edit.context["form"].initial["second_losers_lengths"] == [(1, ""), (3, "")]


def test_the_api_refuses_to_pay_a_consolation_a_triple_elimination_does_not_play() -> None:
    answer = api_for(organizer()).post(
        "/api/tournaments/",
        {**NORDIC_OPEN, "prize_table": {"main": [8000], "consolation": [2000]}},
        format="json",
    )

    assert answer.status_code == 400
    assert "This tournament has no consolation to pay." in str(answer.json())
