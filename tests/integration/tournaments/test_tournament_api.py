"""Organizers create tournaments through the API; bad settings come back field by field."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import open_tournament, organizer, players
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

KNOCKOUT = {
    "name": "Autumn Open",
    "format": "knockout",
    "max_entrants": 32,
    "buy_in_cents": 1000,
    "fee_cents": 65,
    "currency": "FUN",
    "seeding": "rating",
    "round_lengths": [5, 7, 9],
    "clock": {"kind": "move", "move_seconds": 15, "reserve_seconds": 90},
    "abandon_policy": "engine",
}


def create(client: APIClient, **changes: Any) -> Any:
    return client.post("/api/tournaments/", {**KNOCKOUT, **changes}, format="json")


def test_an_organizer_creates_a_draft_and_opens_it() -> None:
    client = api_for(organizer())

    created = create(client)

    assert created.status_code == 201, created.json()
    body = created.json()
    assert body["state"] == "draft"
    assert body["buy_in"] == "10.00 + 0.65"
    assert body["clock"]["move_seconds"] == 15
    opened = client.post(f"/api/tournaments/{body['id']}/open/")
    assert opened.json()["state"] == "registration"
    anonymous = APIClient().get(f"/api/tournaments/{body['id']}/")
    assert anonymous.status_code == 200


def test_a_draft_is_hidden_from_everyone_but_its_organizer() -> None:
    draft = create(api_for(organizer())).json()

    assert APIClient().get(f"/api/tournaments/{draft['id']}/").status_code == 404


def test_a_player_may_not_create_a_tournament() -> None:
    response = create(api_for(players(1)[0]))

    assert response.status_code == 403
    assert response.json()["detail"] == "Only organizers can create tournaments."


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"format": "sit_and_go", "seats": 65}, "seats", "less than or equal to 64"),
        ({"round_lengths": [5, 0]}, "round_lengths", "each is 1 to 25, not 0"),
        ({"round_lengths": []}, "round_lengths", "give a list of 1 to 16"),
        ({"round_lengths": {"main": [5], "looser": [3]}}, "round_lengths", "no flight called"),
        ({"round_lengths": {"losers": [3]}}, "round_lengths", "Give the main flight's"),
        ({"format": "swiss"}, "rounds", "Say how many rounds the Swiss has."),
        ({"format": "swiss", "rounds": 3, "top_cut": 6}, "top_cut", "not a valid choice"),
        ({"format": "swiss", "rounds": 3, "max_entrants": 3}, "rounds", "at most 2 rounds"),
        (
            {"format": "round_robin", "group_size": 4, "advance_per_group": 4},
            "advance_per_group",
            "1 to 3 of each group of 4",
        ),
        (
            {
                "format": "double_elimination",
                "last_chance": True,
                "last_chance_reenters_at": 8,
                "max_entrants": 16,
            },
            "last_chance_reenters_at",
            "more than 8 players are left in the losers' flight: that needs at least 17 players",
        ),
        (
            {"format": "knockout", "last_chance": True, "last_chance_entry": "lottery"},
            "last_chance_entry",
            "not a valid choice",
        ),
        ({"prize_table": [6000, 3000]}, "prize_table", "add up to 90%"),
        ({"prize_table": [3000, 7000]}, "prize_table", "cannot pay more than the place above"),
        (
            {"prize_table": {"main": [9000], "consolation": [1000]}},
            "prize_table",
            "has no consolation",
        ),
        (
            {"format": "double_elimination", "flight_clocks": {"losers": {"move_seconds": 0}}},
            "flight_clocks",
            "greater than or equal to 1",
        ),
        ({"name": "  "}, "name", "may not be blank"),
        ({"buy_in_cents": 0, "fee_cents": 50}, "fee_cents", "A free tournament cannot charge"),
        ({"format": "satellite"}, "target", "Choose the tournament whose seats"),
        ({"format": "satellite", "target": 99999}, "target", "There is no such tournament"),
        ({"format": "bingo"}, "format", "is not a valid choice"),
        ({"currency": "EUR"}, "currency", "Use one of FUN, REAL."),
        ({"show_up_seconds": 3_000_000_000}, "show_up_seconds", "less than or equal to 3600"),
        ({"round_minutes": 2**31}, "round_minutes", "less than or equal to 20160"),
        ({"buy_in_cents": 2**63}, "buy_in_cents", "less than or equal to"),
        ({"max_entrants": 2**31}, "max_entrants", "less than or equal to 8192"),
    ],
)
def test_bad_settings_are_refused_with_a_message_for_the_field(
    changes: dict[str, Any], field: str, message: str
) -> None:
    response = create(api_for(organizer()), **changes)

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert field in errors, errors
    assert message in str(errors[field])


def test_settings_change_until_players_have_paid() -> None:
    owner = organizer()
    client = api_for(owner)
    tournament = create(client).json()
    client.post(f"/api/tournaments/{tournament['id']}/open/")

    renamed = client.post(
        f"/api/tournaments/{tournament['id']}/edit/", {"name": "Autumn Open 2"}, format="json"
    )
    assert renamed.status_code == 200, renamed.json()
    assert renamed.json()["name"] == "Autumn Open 2"
    api_for(players(1)[0]).post(f"/api/tournaments/{tournament['id']}/register/")
    repriced = client.post(
        f"/api/tournaments/{tournament['id']}/edit/", {"buy_in_cents": 500}, format="json"
    )

    assert repriced.status_code == 400
    assert repriced.json()["errors"]["buy_in_cents"] == [
        "Players have paid already: this cannot change now."
    ]


def test_a_knockout_needs_two_players_to_start() -> None:
    owner = organizer()
    client = api_for(owner)
    tournament = create(client).json()
    client.post(f"/api/tournaments/{tournament['id']}/open/")

    response = client.post(f"/api/tournaments/{tournament['id']}/start/")

    assert response.status_code == 409
    assert response.json()["detail"] == "Autumn Open needs at least 2 players to start; it has 0."


def test_programs_list_tournaments_by_state_and_their_own() -> None:
    owner = organizer()
    open_one = open_tournament(owner, name="Open Knockout")
    player = players(1)[0]
    services.entry_register(tournament_id=open_one.pk, user=player)

    listed = api_for(player).get("/api/tournaments/?state=open").json()
    mine = api_for(player).get("/api/tournaments/?mine=true").json()
    mine_as_one = api_for(player).get("/api/tournaments/?mine=1").json()
    anonymous_mine = APIClient().get("/api/tournaments/?mine=true")

    assert [(row["name"], row["seated"]) for row in listed] == [("Open Knockout", 1)]
    assert [row["id"] for row in mine] == [open_one.pk]
    assert mine_as_one == mine
    assert anonymous_mine.status_code == 401


def test_the_organizer_form_refuses_numbers_out_of_range_beside_their_fields() -> None:
    owner = organizer()
    client = Client()
    client.force_login(owner)
    form = {
        "name": "Friday Night",
        "format": "knockout",
        "buy_in": "10.00",
        "fee": "0.65",
        "currency": "FUN",
        "seeding": "rating",
        "round_lengths": "5, 7",
        "clock_kind": "move",
        "move_seconds": "15",
        "reserve_seconds": "90",
        "abandon_policy": "engine",
        "show_up_seconds": "3000000000",
        "round_minutes": "99999999999",
        "max_entrants": "2147483648",
    }

    response = client.post("/tournaments/new/", form)

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert set(errors) == {"show_up_seconds", "round_minutes", "max_entrants"}
    assert not Tournament.objects.exists()


def test_settings_another_format_takes_are_left_out_as_the_answer_shows() -> None:
    api = api_for(organizer())

    response = create(
        api,
        rounds=5,
        group_size=4,
        grand_final_reset=False,
        round_lengths={"main": [5, 7], "losers": [3], "consolation": [3]},
        flight_clocks={"final": {"preset": "blitz"}},
        consolation="progressive",
    )

    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["rounds"], body["group_size"], body["grand_final_reset"]) == (None, None, True)
    assert body["round_lengths"] == [5, 7]
    assert body["flight_lengths"] == {"consolation": [3]}  # a knockout has no losers' flight
    assert body["flight_clocks"] == {}
    assert (body["consolation"], body["consolation_through_round"]) == ("progressive", 2)


def test_a_sit_and_go_created_without_seats_has_eight() -> None:
    # given: an organizer who names no number of seats
    api = api_for(organizer())

    # when
    response = create(api, format="sit_and_go", seats=None)

    # then
    assert response.status_code == 201, response.content
    assert response.json()["seats"] == 8
