"""The formats clubs run, set up by organizers through the REST API and the form, played
to the end through the match API: match lengths and clocks per flight, prizes by the
organizer's table flight by flight, ties split, every cent accounted for."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts import ledger
from accounts.models import User
from matches.models import Match, MatchStatus
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import live_matches, organizer, players
from tournaments.models import Entry, Pairing, Tournament, TournamentState

pytestmark = pytest.mark.django_db(transaction=True)

CLUB_NIGHT = {
    "name": "Club night 5/3/3",
    "format": "double_elimination",
    "max_entrants": 16,
    "buy_in_cents": 1000,
    "fee_cents": 65,
    "round_lengths": {"main": [5], "losers": [3], "consolation": [3], "final": [3]},
    "clock": {"kind": "move", "move_seconds": 30, "reserve_seconds": 120},
    "flight_clocks": {"consolation": {"kind": "move", "move_seconds": 12, "reserve_seconds": 60}},
    "consolation": "progressive",
    "consolation_through_round": 2,
    "grand_final_reset": False,
    "prize_table": {"main": [5000, 2500, 1000], "consolation": [1000, 500]},
}


def run_from_the_api(settings: dict[str, Any], field: list[User]) -> Tournament:
    """Create, open, fill and start through the API; then every live match is conceded by
    its bottom player, game after game, until the tournament is over."""
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
    tournament = Tournament.objects.get(pk=tournament_id)
    while matches := live_matches(tournament):
        for match in matches:
            concede_match(match, User.objects.get(pk=match.player_1_id))
    tournament.refresh_from_db()
    return tournament


def concede_match(match: Match, loser: User) -> None:
    """``loser`` resigns a backgammon, game after game, until the match is over."""
    other = match.player_1_id if loser.pk == match.player_0_id else match.player_0_id
    winner = User.objects.get(pk=other)
    while Match.objects.get(pk=match.pk).status == MatchStatus.PLAYING:
        for user, body in (
            (loser, {"type": "resign", "resign": "backgammon"}),
            (winner, {"type": "accept_resign"}),
        ):
            client = api_for(user)
            state = client.get(f"/api/matches/{match.pk}/").json()
            seq = (state["your_last_seq"] or 0) + 1
            answer = client.post(
                f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
            )
            assert answer.status_code == 200, answer.json()


def assert_money_conserved(tournament: Tournament, field: list[User], before: int) -> None:
    entries = list(Entry.objects.filter(tournament=tournament))
    assert sum(entry.prize_cents for entry in entries) == len(field) * 1000
    assert ledger.escrow_balance(escrow_ref=tournament.escrow_ref, currency="FUN") == 0
    after = sum(ledger.balance(user=user, currency="FUN") for user in field)
    assert after == before - len(field) * 65
    assert ledger.currency_total("FUN") == 0


def test_a_club_nights_5_3_3_double_elimination_with_consolation_runs_from_the_api() -> None:
    field = players(10)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)

    tournament = run_from_the_api(CLUB_NIGHT, field)

    assert tournament.state == TournamentState.FINISHED
    rows = list(Pairing.objects.filter(tournament=tournament))
    assert {row.flight for row in rows} == {"main", "losers", "consolation", "final"}
    lengths = {
        (row.flight, match.length)
        for row in rows
        if row.match_id is not None
        for match in [Match.objects.get(pk=row.match_id)]
    }
    assert lengths == {("main", 5), ("losers", 3), ("consolation", 3), ("final", 3)}
    clocks = {
        row.flight: Match.objects.get(pk=row.match_id).move_seconds
        for row in rows
        if row.match_id is not None
    }
    assert clocks == {"main": 30, "losers": 30, "consolation": 12, "final": 30}
    # No reset final was asked for: one final between the flights' winners.
    assert len([row for row in rows if row.flight == "final"]) == 1
    detail = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["champion"] == User.objects.get(pk=tournament.champion_id).username
    consolation_champion = detail["flight_champions"]["consolation"]
    entries = {entry.user.username: entry for entry in Entry.objects.filter(tournament=tournament)}
    # 10,000 cents: the consolation's winner and runner-up take 10% and 5%, the main flight's
    # first three 50/25/10.
    assert entries[detail["champion"]].prize_cents == 5000
    assert entries[consolation_champion].prize_cents == 1000
    paid = sorted(
        (entry.prize_cents for entry in entries.values() if entry.prize_cents), reverse=True
    )
    assert paid == [5000, 2500, 1000, 1000, 500]
    assert detail["round_lengths"] == [5]
    assert detail["flight_lengths"] == {"losers": [3], "consolation": [3], "final": [3]}
    assert detail["consolation"] == "progressive"
    assert detail["consolation_through_round"] == 2
    assert_money_conserved(tournament, field, before)


def test_a_seven_round_swiss_pays_by_its_standings_with_ties_split() -> None:
    field = players(9)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    settings = {
        "name": "League Swiss",
        "format": "swiss",
        "rounds": 7,
        "buy_in_cents": 1000,
        "fee_cents": 65,
        "round_lengths": [1],
        "clock": {"kind": "none"},
        "prize_table": [4000, 3000, 2000, 1000],
    }

    tournament = run_from_the_api(settings, field)

    assert tournament.state == TournamentState.FINISHED
    rows = list(Pairing.objects.filter(tournament=tournament))
    assert {row.round for row in rows} == set(range(7))
    met = [frozenset((r.top_id, r.bottom_id)) for r in rows if r.top_id and r.bottom_id]
    assert len(met) == len(set(met)) == 7 * 4
    standings = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    ranks = [row["rank"] for row in standings["rows"]]
    entries = {entry.user.username: entry for entry in Entry.objects.filter(tournament=tournament)}
    for row in standings["rows"]:
        assert entries[row["username"]].place == row["rank"]
    # Players level on points and every tiebreak share their places' prizes to a cent.
    by_rank: dict[int, list[int]] = {}
    for row in standings["rows"]:
        by_rank.setdefault(row["rank"], []).append(entries[row["username"]].prize_cents)
    assert all(max(prizes) - min(prizes) <= 1 for prizes in by_rank.values())
    assert ranks == sorted(ranks)
    assert_money_conserved(tournament, field, before)


def test_a_round_robin_league_in_groups_ends_with_a_knockout_of_the_best() -> None:
    field = players(8)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    settings = {
        "name": "Winter League",
        "format": "round_robin",
        "group_size": 4,
        "advance_per_group": 2,
        "buy_in_cents": 1000,
        "fee_cents": 65,
        "round_lengths": {"main": [1], "final": [3]},
        "clock": {"kind": "none"},
    }

    tournament = run_from_the_api(settings, field)

    assert tournament.state == TournamentState.FINISHED
    rows = list(Pairing.objects.filter(tournament=tournament))
    group_games = [row for row in rows if row.flight == "main"]
    assert len(group_games) == 2 * 6  # two groups of four: six matches each
    knockout = [row for row in rows if row.flight == "final"]
    assert len(knockout) == 3  # semi-finals and the final
    assert {Match.objects.get(pk=row.match_id).length for row in knockout} == {3}
    standings = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/standings/").json()
    assert {row["group"] for row in standings["rows"]} == {1, 2}
    assert_money_conserved(tournament, field, before)


def test_the_organizers_form_creates_a_double_elimination_with_a_consolation() -> None:
    owner = organizer()
    client = Client()
    client.force_login(owner)
    form = {
        "name": "Club night",
        "format": "double_elimination",
        "buy_in": "10.00",
        "fee": "0.65",
        "currency": "FUN",
        "seeding": "rating",
        "round_lengths": "5",
        "losers_lengths": "3",
        "consolation_lengths": "3",
        "final_lengths": "3",
        "grand_final_reset": "on",
        "consolation": "on",
        "consolation_through_round": "2",
        "prizes": "50, 25, 10",
        "consolation_prizes": "10, 5",
        # left in hidden fields of other formats: not taken by a double elimination
        "rounds": "7",
        "group_size": "4",
        "last_chance": "on",
        "clock_kind": "move",
        "move_seconds": "15",
        "reserve_seconds": "90",
        "abandon_policy": "engine",
        "show_up_seconds": "300",
    }

    response = client.post("/tournaments/new/", form)

    assert response.status_code == 302, response.context["form"].errors
    tournament = Tournament.objects.get()
    assert tournament.format == "double_elimination"
    assert tournament.round_lengths == [5]
    assert tournament.flight_lengths == {"losers": [3], "consolation": [3], "final": [3]}
    assert tournament.consolation_through_round == 1  # the form counts rounds from 1
    assert tournament.prize_table == {"main": [5000, 2500, 1000], "consolation": [1000, 500]}
    assert (tournament.rounds, tournament.group_size) == (None, None)
    assert tournament.last_chance_reenters_at is None
    edit = client.get(f"/tournaments/{tournament.pk}/edit/")
    assert edit.context["form"].initial["consolation_prizes"] == "10, 5"
    assert edit.context["form"].initial["consolation_through_round"] == 2


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("60, 30", "The shares add up to 90% of the pool, not 100%."),
        ("50, 30, twenty", "Write percentages separated by commas, e.g. 50, 30, 20."),
        ("33.333, 66.667", "Give each share to at most two decimals, not 33.333."),
        ("1e999999999", "Each share is above 0% and at most 100%, not 1E+999999999."),
        ("110, -10", "Each share is above 0% and at most 100%, not 110."),
    ],
)
def test_the_form_shows_a_prize_table_it_cannot_pay_beside_its_field(
    typed: str, message: str
) -> None:
    client = Client()
    client.force_login(organizer())

    response = client.post(
        "/tournaments/new/",
        {
            "name": "Swiss night",
            "format": "swiss",
            "rounds": "5",
            "buy_in": "10.00",
            "fee": "0.65",
            "currency": "FUN",
            "seeding": "rating",
            "round_lengths": "3",
            "prizes": typed,
            "clock_kind": "move",
            "move_seconds": "15",
            "reserve_seconds": "90",
            "abandon_policy": "engine",
            "show_up_seconds": "300",
        },
    )

    assert response.status_code == 400
    assert response.context["form"].errors["prizes"] == [message]
    assert not Tournament.objects.exists()
