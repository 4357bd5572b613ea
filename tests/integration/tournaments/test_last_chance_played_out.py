"""A weekend event's flights set up through the REST API and played to the end through the
match API: the main flight (knockout or double elimination) with a last chance, a consolation
or both, each flight's prizes paid by the organizer's table and every cent accounted for."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import ledger
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import organizer, players
from tests.integration.tournaments.test_formats_from_the_api import (
    assert_money_conserved,
    run_from_the_api,
)
from tournaments.models import Entry, Pairing, TournamentState

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

WEEKEND = {
    "name": "Weekend open",
    "max_entrants": 16,
    "buy_in_cents": 1000,
    "fee_cents": 65,
    "round_lengths": {"main": [1], "last_chance": [1], "consolation": [1]},
    "clock": {"kind": "none"},
}


def flights_played(tournament_id: int) -> dict[str, set[int]]:
    """Each flight's players, from the rows the draw wrote."""
    played: dict[str, set[int]] = {}
    for row in Pairing.objects.filter(tournament_id=tournament_id):
        sides = {side for side in (row.top_id, row.bottom_id) if side is not None}
        played.setdefault(row.flight, set()).update(sides)
    return played


def champion(tournament_id: int, flight: str) -> int:
    final = (
        Pairing.objects.filter(tournament_id=tournament_id, flight=flight)
        .order_by("-round")
        .first()
    )
    assert final is not None
    assert final.winner_id is not None
    return final.winner_id


@pytest.mark.parametrize(
    ("format_", "count", "side_flights", "flights"),
    [
        pytest.param(
            "knockout",
            12,
            {
                "consolation": "progressive",
                "consolation_through_round": 2,
                "last_chance": True,
                "last_chance_reenters_at": 4,
                "last_chance_entry": "fresh",
            },
            {"main", "last_chance", "consolation"},
            id="knockout, fresh last chance and consolation",
        ),
        pytest.param(
            "double_elimination",
            12,
            {
                "consolation": "progressive",
                "consolation_through_round": 2,
                "last_chance": True,
                "last_chance_reenters_at": 4,
                "last_chance_entry": "fresh",
                "grand_final_reset": True,
            },
            {"main", "losers", "final", "last_chance", "consolation"},
            id="double elimination, fresh last chance and consolation",
        ),
        pytest.param(
            "knockout",
            9,
            {"last_chance": True, "last_chance_reenters_at": 2, "last_chance_entry": "fresh"},
            {"main", "last_chance"},
            id="knockout and fresh last chance",
        ),
        pytest.param(
            "knockout",
            9,
            {"last_chance": True, "last_chance_reenters_at": 4},
            {"main", "last_chance"},
            id="knockout and progressive last chance",
        ),
        pytest.param(
            "double_elimination",
            11,
            {"last_chance": True, "last_chance_reenters_at": 2, "last_chance_entry": "fresh"},
            {"main", "losers", "final", "last_chance"},
            id="double elimination and fresh last chance",
        ),
        pytest.param(
            "double_elimination",
            16,
            {"last_chance": True, "last_chance_reenters_at": 2, "consolation": "progressive"},
            {"main", "losers", "final", "last_chance", "consolation"},
            id="double elimination, progressive last chance and consolation",
        ),
    ],
)
def test_each_layout_plays_every_flight_to_the_end_and_pays_each_flights_prizes(
    format_: str, count: int, side_flights: dict[str, Any], flights: set[str]
) -> None:
    field = players(count)
    before = sum(ledger.balance(user=user, currency="FUN") for user in field)
    table: dict[str, list[int]] = {"main": [6000, 2000], "last_chance": [1000]}
    if "consolation" in flights:
        table["consolation"] = [1000]
    else:
        table["main"] = [6000, 3000]
    settings = {**WEEKEND, "format": format_, **side_flights, "prize_table": table}

    tournament = run_from_the_api(settings, field)

    assert tournament.state == TournamentState.FINISHED
    played = flights_played(tournament.pk)
    assert set(played) == flights
    assert all(row.winner_id is not None for row in Pairing.objects.filter(tournament=tournament))
    lc_winner = champion(tournament.pk, "last_chance")
    # The last chance's winner came back and played on in the main event.
    came_back = Pairing.objects.filter(
        tournament=tournament, bottom_source__startswith="winner:last_chance"
    ).exclude(flight="last_chance")
    assert [row.bottom_id for row in came_back] == [lc_winner]
    if "consolation" in flights:
        assert played["consolation"] <= played["last_chance"] - {lc_winner}
    entries = {entry.user_id: entry for entry in Entry.objects.filter(tournament=tournament)}
    assert all(entry.place is not None for entry in entries.values())
    paid = {user: entry.prize_cents for user, entry in entries.items() if entry.prize_cents}
    pool = count * 1000
    flight_winners = [
        champion(tournament.pk, flight) for flight in flights - {"main", "losers", "final"}
    ]
    assert sum(paid.values()) == pool
    for flight_winner in flight_winners:
        assert flight_winner in paid
    shown = api_for(field[0]).get(f"/api/tournaments/{tournament.pk}/").json()
    assert shown["last_chance_entry"] == side_flights.get("last_chance_entry", "progressive")
    assert set(shown["flight_champions"]) == flights & {"consolation", "last_chance"}
    assert_money_conserved(tournament, field, before)


def test_the_bracket_page_shows_every_flight() -> None:
    field = players(12)
    settings = {
        **WEEKEND,
        "format": "double_elimination",
        "consolation": "progressive",
        "last_chance": True,
        "last_chance_reenters_at": 4,
        "last_chance_entry": "fresh",
    }
    tournament = run_from_the_api(settings, field)

    page = api_for(field[0]).get(f"/tournaments/{tournament.pk}/bracket/")

    assert page.status_code == 200
    text = page.content.decode()
    for heading in ("Winners&#x27;", "Losers&#x27; flight", "Last chance", "Consolation"):
        assert heading in text


def test_the_bracket_page_says_where_a_last_chance_not_drawn_yet_comes_back() -> None:
    owner_field = players(9)
    settings = {
        **WEEKEND,
        "format": "knockout",
        "last_chance": True,
        "last_chance_reenters_at": 2,
        "last_chance_entry": "fresh",
    }
    owner = organizer()
    api = api_for(owner)
    created = api.post("/api/tournaments/", settings, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    api.post(f"/api/tournaments/{tournament_id}/open/")
    for player in owner_field:
        api_for(player).post(f"/api/tournaments/{tournament_id}/register/")
    assert api.post(f"/api/tournaments/{tournament_id}/start/").status_code == 200

    page = api_for(owner_field[0]).get(f"/tournaments/{tournament_id}/bracket/")
    shown = api_for(owner_field[0]).get(f"/api/tournaments/{tournament_id}/bracket/").json()

    assert page.status_code == 200
    assert "winner:last_chance:" in page.content.decode()
    assert {r["flight"] for r in shown["rounds"]} == {"main"}
    assert not Pairing.objects.filter(tournament_id=tournament_id, flight="last_chance").exists()
