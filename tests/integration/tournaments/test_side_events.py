"""A jackpot and a blitz added beside a main event, by the API and by the organizer's
form: each starts from its preset, is listed with the main event (its page and the
tournament list), and the jackpot, played out through the match API, pays all of its pool
to the winner."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts import ledger
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import (
    assert_money_conserved,
    open_tournament,
    organizer,
    play_round,
    players,
)
from tournaments import services
from tournaments.models import Entry, Pairing, SideKind, Tournament, TournamentState

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.slow
def test_a_jackpot_beside_the_main_event_pays_all_of_its_pool_to_the_winner() -> None:
    # given: a main event open with a jackpot and a blitz added beside it through the API
    owner = organizer()
    main = open_tournament(owner, name="Spring Open")
    as_owner = api_for(owner)
    jackpot = as_owner.post(f"/api/tournaments/{main.pk}/beside/jackpot/", {}, format="json")
    blitz = as_owner.post(f"/api/tournaments/{main.pk}/beside/blitz/", {}, format="json")
    assert jackpot.status_code == 201, jackpot.json()
    assert blitz.status_code == 201, blitz.json()
    made = jackpot.json()
    assert (made["name"], made["side"], made["parent"]) == (
        "Spring Open Jackpot",
        "jackpot",
        main.pk,
    )
    assert (made["format"], made["buy_in_cents"], made["max_entrants"]) == ("knockout", 2000, 8)
    assert made["prize_table"] == {"main": [10000]}
    assert blitz.json()["round_lengths"] == [3]
    assert blitz.json()["clock"]["kind"] == "delay"
    assert blitz.json()["clock"]["delay_seconds"] == 8
    assert blitz.json()["clock"]["reserve_seconds"] == 60

    # listed with the main event: right after it in the list, and on its page
    rows = api_for(owner).get("/api/tournaments/").json()
    assert [(r["name"], r["parent"], r["side"]) for r in rows] == [
        ("Spring Open", None, ""),
        ("Spring Open Jackpot", main.pk, SideKind.JACKPOT),
        ("Spring Open Blitz", main.pk, SideKind.BLITZ),
    ]
    event = api_for(owner).get(f"/api/tournaments/{main.pk}/").json()["event"]
    assert [m["side"] for m in event] == ["", "jackpot", "blitz"]

    # when: four players enter the jackpot and it is played to the end
    field = players(4)
    before = sum(ledger.balance(user=p, currency="FUN") for p in field)
    jackpot_id = made["id"]
    services.tournament_open(tournament_id=jackpot_id, user=owner)
    for player in field:
        assert api_for(player).post(f"/api/tournaments/{jackpot_id}/register/").status_code == 200
    services.tournament_start(tournament_id=jackpot_id, user=owner)
    tournament = Tournament.objects.get(pk=jackpot_id)
    while play_round(tournament, field):
        pass

    # then: the winner takes the whole pool, nobody else a cent
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    assert tournament.prize_pool_cents == 4 * 2000
    prizes = dict(Entry.objects.filter(tournament=tournament).values_list("user_id", "prize_cents"))
    assert prizes.pop(tournament.champion_id) == 8000
    assert set(prizes.values()) == {0}
    assert_money_conserved(tournament, field, before)
    main.refresh_from_db()
    assert main.state == TournamentState.REGISTRATION  # the main event goes on apart


def test_a_blitz_plays_three_point_matches_on_its_fast_clock() -> None:
    owner = organizer()
    main = open_tournament(owner, name="Spring Open", round_lengths=(7,))
    blitz_id = (
        api_for(owner)
        .post(f"/api/tournaments/{main.pk}/beside/blitz/", {}, format="json")
        .json()["id"]
    )
    services.tournament_open(tournament_id=blitz_id, user=owner)
    for player in players(2):
        services.entry_register(tournament_id=blitz_id, user=player)

    services.tournament_start(tournament_id=blitz_id, user=owner)

    final = Pairing.objects.get(tournament_id=blitz_id)
    assert final.match_length == 3


def test_a_two_place_jackpot_pays_seventy_and_thirty() -> None:
    owner = organizer()
    main = open_tournament(owner, name="Spring Open")

    made = api_for(owner).post(
        f"/api/tournaments/{main.pk}/beside/jackpot/", {"places": 2}, format="json"
    )

    assert made.json()["prize_table"] == {"main": [7000, 3000]}


def test_the_organizer_adds_a_jackpot_from_the_main_events_page(client: Client) -> None:
    # given
    owner = organizer()
    main = open_tournament(owner, name="Spring Open")
    client.force_login(owner)
    page = client.get(f"/tournaments/{main.pk}/").content.decode()
    assert f'href="/tournaments/{main.pk}/beside/jackpot/"' in page
    assert f'href="/tournaments/{main.pk}/beside/division/"' in page
    form = client.get(f"/tournaments/{main.pk}/beside/jackpot/").content.decode()
    assert 'value="20.00"' in form  # twice the main event's buy-in, proposed

    # when
    answer = client.post(
        f"/tournaments/{main.pk}/beside/jackpot/",
        {
            "name": "Friday Jackpot",
            "buy_in": "25.00",
            "fee": "1.00",
            "max_entrants": 8,
            "places": 2,
        },
    )

    # then
    jackpot = Tournament.objects.get(parent=main)
    assert answer.status_code == 302
    assert answer["Location"] == f"/tournaments/{jackpot.pk}/"
    assert (jackpot.name, jackpot.side, jackpot.buy_in_cents) == ("Friday Jackpot", "jackpot", 2500)
    assert jackpot.prize_table == {"main": [7000, 3000]}
    main_page = client.get(f"/tournaments/{main.pk}/").content.decode()
    assert "Divisions and side events" in main_page
    assert f'href="/tournaments/{jackpot.pk}/">Friday Jackpot</a>' in main_page


def test_a_division_form_without_a_name_says_so_beside_the_field(client: Client) -> None:
    owner = organizer()
    main = open_tournament(owner, name="Spring Open")
    client.force_login(owner)

    answer = client.post(
        f"/tournaments/{main.pk}/beside/division/",
        {"division": "", "buy_in": "10.00", "fee": "0.65"},
    )

    assert answer.status_code == 400
    assert "This field is required." in answer.content.decode()
    assert not Tournament.objects.filter(parent=main).exists()


def test_the_entry_page_shows_the_limits_and_why_the_viewer_may_not_enter(client: Client) -> None:
    owner = organizer()
    main = open_tournament(owner, name="Spring Open", division="Championship", min_rating=1600)
    weak = players(1)[0]
    client.force_login(weak)

    page = client.get(f"/tournaments/{main.pk}/").content.decode()

    assert re.search(r"Who may enter:</strong>\s*rated at least 1600", page)
    assert "Championship is for players rated at least 1600; your rating is 1500.0." in page
    assert 'data-testid="register"' not in page


def test_the_tournament_list_shows_side_events_indented_under_their_main_event(
    client: Client,
) -> None:
    owner = organizer()
    first = open_tournament(owner, name="Spring Open")
    later = open_tournament(owner, name="Summer Open")
    jackpot = services.tournament_open(
        tournament_id=api_for(owner)
        .post(f"/api/tournaments/{first.pk}/beside/jackpot/", {}, format="json")
        .json()["id"],
        user=owner,
    )

    page = client.get("/tournaments/?show=open").content.decode()

    names = re.findall(r"<strong>([^<]+)</strong></a>", page)
    assert names == [later.name, first.name, jackpot.name]
    assert page.count('data-testid="side-event-row"') == 1
