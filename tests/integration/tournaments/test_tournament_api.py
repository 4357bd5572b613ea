"""Organizers create tournaments through the API; bad settings come back field by field."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import organizer, players

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
        ({"format": "sit_and_go", "seats": None}, "seats", "A Sit & Go has 2 to 64 seats."),
        ({"round_lengths": [5, 0]}, "round_lengths", "greater than or equal to 1"),
        ({"round_lengths": []}, "round_lengths", "at least 1"),
        ({"name": "  "}, "name", "may not be blank"),
        ({"buy_in_cents": 0, "fee_cents": 50}, "fee_cents", "A free tournament cannot charge"),
        ({"format": "satellite"}, "target", "Choose the tournament whose seats"),
        ({"format": "satellite", "target": 99999}, "target", "There is no such tournament"),
        ({"format": "bingo"}, "format", "is not a valid choice"),
        ({"currency": "EUR"}, "currency", "Use one of FUN, REAL."),
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
