"""The organizer's tournament form: a name left empty is an error beside the field (not a
500), and the clock fields say what they are per and what they come to over a match."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Friday Night",
    "format": "knockout",
    "buy_in": "10.00",
    "fee": "0.65",
    "currency": "FUN",
    "seeding": "rating",
    "round_lengths": "5, 7",
    "clock_kind": "delay",
    "move_seconds": "12",
    "reserve_seconds": "120",
    "abandon_policy": "engine",
    "show_up_seconds": "300",
}


def _client() -> Client:
    client = Client()
    client.force_login(organizer())
    return client


def _post(**fields: Any) -> Any:
    return _client().post("/tournaments/new/", {**FORM, **fields})


@pytest.mark.parametrize("name", ["", "   "])
def test_a_tournament_without_a_name_is_refused_beside_the_name(name: str) -> None:
    response = _post(name=name)

    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["name"]
    assert not Tournament.objects.exists()


def test_a_form_left_empty_is_refused_field_by_field() -> None:
    response = _client().post("/tournaments/new/", {})

    assert response.status_code == 400
    assert "name" in response.context["form"].errors


def test_the_clock_fields_say_what_they_are_per_and_what_they_come_to() -> None:
    page = _client().get("/tournaments/new/").content.decode()

    assert "Reserve seconds per point" in page
    assert "Per point of the match with a delay clock" in page
    assert "a delay, not an increment" in page
    assert (
        '<span class="clock-sentence" data-clock-sentence aria-live="polite">'
        "An 11-point match: 22 minutes each. "
        "The first 12 seconds of every move are free.</span>"
    ) in page  # the blank form proposes 11 points a round, live events' early rounds
    assert "js/tournament/clock-sentence.js" in page


def test_the_clock_fields_start_at_the_standard_clock() -> None:
    form = _client().get("/tournaments/new/").context["form"]

    assert form["clock_kind"].initial == "delay"
    assert (form["move_seconds"].initial, form["reserve_seconds"].initial) == (12, 120)


def test_an_empty_edit_is_refused_field_by_field() -> None:
    owner = organizer("olga")
    tournament = open_tournament(owner)
    client = Client()
    client.force_login(owner)

    response = client.post(f"/tournaments/{tournament.pk}/edit/", {})

    assert response.status_code == 400
    assert "name" in response.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.name == "Spring Knockout"


def test_the_tournament_page_says_what_its_clock_gives_in_each_rounds_length() -> None:
    owner = organizer("olga")
    tournament = open_tournament(owner, round_lengths=(5, 5, 7), clock={"kind": "delay"})
    client = Client()
    client.force_login(owner)

    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()

    assert "12 s a move, 2 min a point" in page
    assert (
        "A 5-point match: 10 minutes each; a 7-point match: 14 minutes each. "
        "The first 12 seconds of every move are free."
    ) in page
