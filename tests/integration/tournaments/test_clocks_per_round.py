"""A live event's lengths and clocks by round, set through the API and through the form:
each match gets its round's length and clock, the page shows them round by round, and a
bad per-round value is refused in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from accounts.models import User
from matches.models import Match
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import live_matches, organizer, players
from tests.integration.tournaments.test_formats_from_the_api import concede_match
from tournaments import services
from tournaments.models import Pairing, Tournament
from tournaments.round_rows import clock_code

pytestmark = pytest.mark.django_db(transaction=True)

STANDARD = {"kind": "delay", "move_seconds": 12, "delay_seconds": 12, "reserve_seconds": 120}
RELAXED = {"kind": "delay", "move_seconds": 30, "delay_seconds": 30, "reserve_seconds": 180}
BLITZ = {"kind": "delay", "move_seconds": 8, "delay_seconds": 8, "reserve_seconds": 30}

# Eight players: quarter-finals and semi-finals to 11 on the standard clock, the final to 13
# on the relaxed one; a consolation for the quarter-finals' losers, to 7 on blitz.
LIVE_EVENT = {
    "name": "Open 11/13",
    "format": "knockout",
    "buy_in_cents": 0,
    "round_lengths": {"main": [11, 13], "consolation": [7]},
    "clock": {"preset": "standard"},
    "flight_clocks": {
        "main": [{"preset": "standard"}, {"preset": "relaxed"}],
        "consolation": {"preset": "blitz"},
    },
    "consolation": "progressive",
    "consolation_through_round": 1,
}


def started_from_the_api(owner: User, settings: dict[str, Any], field: list[User]) -> Tournament:
    api = api_for(owner)
    created = api.post("/api/tournaments/", settings, format="json")
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    assert api.post(f"/api/tournaments/{tournament_id}/open/").status_code == 200
    for player in field:
        assert (
            api_for(player).post(f"/api/tournaments/{tournament_id}/register/").status_code == 200
        )
    assert api.post(f"/api/tournaments/{tournament_id}/start/").status_code == 200
    return Tournament.objects.get(pk=tournament_id)


def played_matches(tournament: Tournament) -> dict[tuple[str, int], set[tuple[int, int, int]]]:
    """(flight, round) -> each match's (length, delay, reserve a point)."""
    by_round: dict[tuple[str, int], set[tuple[int, int, int]]] = {}
    for row in Pairing.objects.filter(tournament=tournament, match_id__isnull=False):
        match = Match.objects.get(pk=row.match_id)
        by_round.setdefault((row.flight, row.round), set()).add(
            (match.length, match.delay_seconds, match.reserve_seconds)
        )
    return by_round


def round_lines(page: str) -> list[str]:
    """The tournament page's rounds, one line each: name, points, clock."""
    section = page[page.index('data-testid="round-clocks"') :]
    section = section[: section.index("</section>")]
    items = re.findall(r"<li>(.*?)</li>", section, flags=re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def play_live_matches(tournament: Tournament) -> None:
    for match in live_matches(tournament):
        concede_match(match, User.objects.get(pk=match.player_1_id))


def test_an_events_lengths_and_clocks_by_round_set_through_the_api_reach_every_match() -> None:
    # given: the event made through the API, eight players in
    owner = organizer()
    tournament = started_from_the_api(owner, LIVE_EVENT, players(8))

    # when: the quarter-finals are played, then the semi-finals and the consolation's first
    play_live_matches(tournament)
    play_live_matches(tournament)

    # then
    assert played_matches(tournament) == {
        ("main", 0): {(11, 12, 120)},
        ("main", 1): {(11, 12, 120)},
        ("main", 2): {(13, 30, 180)},
        ("consolation", 0): {(7, 8, 30)},
        ("consolation", 1): {(7, 8, 30)},
    }
    detail = api_for(owner).get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["flight_clocks"]["main"] == [
        {**STANDARD, "timeout_loses": "match"},
        {**RELAXED, "timeout_loses": "match"},
    ]
    assert detail["flight_clocks"]["consolation"] == {**BLITZ, "timeout_loses": "match"}
    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    assert round_lines(page) == [
        "Quarter-finals 11 points 12 s a move, 2 min a point",
        "Semi-finals 11 points 12 s a move, 2 min a point",
        "Final 13 points 30 s a move, 3 min a point",
        "Consolation round 1 7 points 8 s a move, 30 s a point",
        "Consolation final 7 points 8 s a move, 30 s a point",
    ]


def test_an_events_lengths_and_clocks_by_round_set_on_the_form_reach_every_match() -> None:
    # given: the organizer's form, one row per round of the main flight and the consolation
    owner = organizer()
    client = Client()
    client.force_login(owner)
    blank = client.get("/tournaments/new/").content.decode()
    assert 'name="round_lengths" value="11"' in blank  # live events' early rounds
    assert 'name="consolation_lengths" value="7"' in blank
    form = {
        "name": "Open by the form",
        "format": "knockout",
        "buy_in": "0",
        "fee": "0",
        "currency": "FUN",
        "seeding": "rating",
        "round_lengths": ["11", "11", "13", ""],
        "round_lengths_clock": ["", "", clock_code(RELAXED), ""],
        "consolation": "on",
        "consolation_through_round": "1",
        "consolation_lengths": ["7", ""],
        "consolation_lengths_clock": [clock_code(BLITZ), ""],
        "clock_kind": "delay",
        "move_seconds": "12",
        "reserve_seconds": "120",
        "abandon_policy": "engine",
        "show_up_seconds": "300",
    }

    # when
    response = client.post("/tournaments/new/", form)

    # then: the rows are stored as lengths and clocks by flight
    assert response.status_code == 302, response.context["form"].errors
    tournament = Tournament.objects.get(name="Open by the form")
    assert tournament.round_lengths == [11, 11, 13]
    assert tournament.flight_lengths == {"consolation": [7]}
    standard = {**STANDARD, "timeout_loses": "match"}
    assert tournament.flight_clocks == {
        "main": [standard, standard, {**RELAXED, "timeout_loses": "match"}],
        "consolation": {**BLITZ, "timeout_loses": "match"},
    }
    # and the edit form shows them row by row again
    edit = client.get(f"/tournaments/{tournament.pk}/edit/").content.decode()
    assert f'<option value="{clock_code(RELAXED)}" selected>' in edit

    # when: eight players play two rounds
    services.tournament_open(tournament_id=tournament.pk, user=owner)
    for player in players(8):
        services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    play_live_matches(tournament)
    play_live_matches(tournament)

    # then
    played = played_matches(tournament)
    assert played[("main", 0)] == {(11, 12, 120)}
    assert played[("main", 1)] == {(11, 12, 120)}
    assert played[("main", 2)] == {(13, 30, 180)}
    assert played[("consolation", 0)] == {(7, 8, 30)}


@pytest.mark.parametrize(
    ("flight_clocks", "said"),
    [
        (
            {"main": [{"preset": "standard"}]},
            "The main flight lists 2 match lengths: give it one clock, or one clock for each "
            "length (1 given).",
        ),
        (
            {"consolation": [{"preset": "standard"}, {"preset": "blitz"}]},
            "The consolation lists 1 match length: give it one clock, or one clock for each "
            "length (2 given).",
        ),
        ({"main": []}, "Give a clock, or a list of 1 to 16 clocks, one per match length."),
        ({"main": "blitz"}, "Give a clock, or a list of 1 to 16 clocks, one per match length."),
        ({"main": [{"preset": "standard"}, {"kind": "sundial"}]}, "is not a valid choice"),
        ({"main": [{"preset": "standard"}, {"move_seconds": 0}]}, "greater than or equal to 1"),
    ],
)
def test_bad_clocks_per_round_are_refused_in_words(flight_clocks: Any, said: str) -> None:
    api = api_for(organizer())

    response = api.post(
        "/api/tournaments/", {**LIVE_EVENT, "flight_clocks": flight_clocks}, format="json"
    )

    assert response.status_code == 400
    assert said in str(response.json())
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("lengths", "clocks", "said"),
    [
        (["11", "99"], ["", ""], "Each match is 1 to 25 points, not 99."),
        (["11", "13"], ["", "kind:twelve"], "'kind:twelve' is not a clock: choose one from"),
        (["11", "13"], ["", "sundial:1:1:1:match"], "The clock must be one of"),
        (["11", "seven"], ["", ""], "Write whole numbers of points separated by commas"),
    ],
)
def test_bad_rounds_on_the_form_are_refused_beside_them(
    lengths: list[str], clocks: list[str], said: str
) -> None:
    client = Client()
    client.force_login(organizer())

    response = client.post(
        "/tournaments/new/",
        {
            "name": "Refused",
            "format": "knockout",
            "buy_in": "0",
            "fee": "0",
            "currency": "FUN",
            "seeding": "rating",
            "round_lengths": lengths,
            "round_lengths_clock": clocks,
            "clock_kind": "delay",
            "move_seconds": "12",
            "reserve_seconds": "120",
            "abandon_policy": "engine",
            "show_up_seconds": "300",
        },
    )

    assert response.status_code == 400
    assert said in " ".join(response.context["form"].errors["round_lengths"])
    assert not Tournament.objects.exists()
