"""An event in three divisions, made through the API: each division lets in only the
players its limits allow (by rating, or by rated matches played for the novices), refuses
the others in words, and is started and played to the end through the match API on its
own, every cent of its pool paid out."""

from __future__ import annotations

from typing import Any

import pytest

from accounts import ledger
from accounts.models import RatingChange, User
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import assert_money_conserved, organizer, play_round
from tournaments.models import Entry, SideKind, Tournament, TournamentState

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

SETTINGS: dict[str, Any] = {
    "name": "Spring Open",
    "format": "knockout",
    "buy_in_cents": 1000,
    "fee_cents": 65,
    "round_lengths": [1],
    "clock": {"kind": "none"},
}


def rated(username: str, rating: float, *, matches: int = 0) -> User:
    """A player with ``rating`` who has played ``matches`` rated matches."""
    user = UserFactory(username=username, display_name=username.title(), rating=rating)
    if matches:
        opponent = UserFactory(username=f"{username}-opp", display_name=f"{username} opponent")
        RatingChange.objects.bulk_create(
            RatingChange(
                user=user,
                opponent=opponent,
                match_length=5,
                won=n % 2 == 0,
                rating_before=rating,
                rating_after=rating,
                experience_after=5 * (n + 1),
            )
            for n in range(matches)
        )
    return user


def test_three_divisions_let_in_their_own_players_and_are_each_played_to_the_end() -> None:
    # given: Championship (1600 and up) as the main event, Intermediate and Novice beside it
    owner = organizer()
    as_owner = api_for(owner)
    made = as_owner.post(
        "/api/tournaments/",
        {**SETTINGS, "division": "Championship", "min_rating": 1600},
        format="json",
    )
    assert made.status_code == 201, made.json()
    main_id = made.json()["id"]
    intermediate = as_owner.post(
        f"/api/tournaments/{main_id}/beside/division/",
        {"division": "Intermediate", "min_rating": 1400, "max_rating": 1599},
        format="json",
    )
    novice = as_owner.post(
        f"/api/tournaments/{main_id}/beside/division/",
        {"division": "Novice", "max_rated_matches": 50},
        format="json",
    )
    assert intermediate.status_code == 201, intermediate.json()
    assert novice.status_code == 201, novice.json()
    ids = {"Championship": main_id, "Intermediate": intermediate.json()["id"]}
    ids["Novice"] = novice.json()["id"]
    assert novice.json()["name"] == "Spring Open – Novice"
    assert novice.json()["parent"] == main_id
    assert novice.json()["entry_limits"] == ["at most 50 rated matches played"]
    assert novice.json()["buy_in_cents"] == 1000  # the main event's settings
    for tournament_id in ids.values():
        assert as_owner.post(f"/api/tournaments/{tournament_id}/open/").status_code == 200
    event = as_owner.get(f"/api/tournaments/{main_id}/").json()["event"]
    assert [(m["division"], m["side"]) for m in event] == [
        ("Championship", ""),
        ("Intermediate", SideKind.DIVISION),
        ("Novice", SideKind.DIVISION),
    ]

    strong = [rated(f"strong{n}", 1650.0 + n) for n in range(4)]
    middling = [rated(f"mid{n}", 1450.0 + n, matches=80) for n in range(4)]
    novices = [rated(f"new{n}", 1500.0 + n, matches=n) for n in range(4)]
    veteran = rated("veteran", 1480.0, matches=212)

    # when / then: who may not enter is told why, in words
    refusals = {
        ("Novice", veteran): (
            "Novice is for players with at most 50 rated matches; you have played 212."
        ),
        ("Intermediate", strong[0]): (
            "Intermediate is for players rated at most 1599; your rating is 1650.0."
        ),
        ("Championship", middling[0]): (
            "Championship is for players rated at least 1600; your rating is 1450.0."
        ),
        ("Novice", middling[0]): (
            "Novice is for players with at most 50 rated matches; you have played 80."
        ),
    }
    for (division, player), sentence in refusals.items():
        before = ledger.balance(user=player, currency="FUN")
        answer = api_for(player).post(f"/api/tournaments/{ids[division]}/register/")
        assert answer.status_code == 400, answer.json()
        assert answer.json()["detail"] == sentence
        assert ledger.balance(user=player, currency="FUN") == before  # nothing paid
    assert not Entry.objects.filter(user=veteran).exists()

    # and those each division is for enter it
    fields = {"Championship": strong, "Intermediate": middling, "Novice": novices}
    before = {
        division: sum(ledger.balance(user=p, currency="FUN") for p in field)
        for division, field in fields.items()
    }
    for division, field in fields.items():
        for player in field:
            answer = api_for(player).post(f"/api/tournaments/{ids[division]}/register/")
            assert answer.status_code == 200, answer.json()

    # when: each division is started and played to the end on its own
    for division, field in fields.items():
        started = as_owner.post(f"/api/tournaments/{ids[division]}/start/")
        assert started.status_code == 200, started.json()
        tournament = Tournament.objects.get(pk=ids[division])
        rounds = []
        while (played := play_round(tournament, field)) > 0:
            rounds.append(played)

        # then: a champion from its own field, and its pool paid to the cent
        tournament.refresh_from_db()
        assert rounds == [2, 1]
        assert tournament.state == TournamentState.FINISHED
        assert tournament.champion_id in {p.pk for p in field}
        assert tournament.prize_pool_cents == 4 * 1000
        paid = sum(
            Entry.objects.filter(tournament=tournament).values_list("prize_cents", flat=True)
        )
        assert paid == 4 * 1000
        assert_money_conserved(tournament, field, before[division])


def test_an_organizer_cannot_seat_a_replacement_the_limits_keep_out() -> None:
    owner = organizer()
    as_owner = api_for(owner)
    main_id = as_owner.post("/api/tournaments/", SETTINGS, format="json").json()["id"]
    novice_id = as_owner.post(
        f"/api/tournaments/{main_id}/beside/division/",
        {"division": "Novice", "max_rated_matches": 1},
        format="json",
    ).json()["id"]
    as_owner.post(f"/api/tournaments/{novice_id}/open/")
    newcomer = rated("newcomer", 1500.0, matches=1)
    veteran = rated("veteran", 1500.0, matches=3)
    assert api_for(newcomer).post(f"/api/tournaments/{novice_id}/register/").status_code == 200

    answer = as_owner.post(
        f"/api/tournaments/{novice_id}/replace/",
        {"username": "newcomer", "replacement": "veteran"},
        format="json",
    )

    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "Novice is for players with at most 1 rated match; Veteran has played 3."
    )
    assert Entry.objects.get(tournament_id=novice_id, status="registered").user == newcomer
    assert not Entry.objects.filter(user=veteran).exists()


@pytest.mark.parametrize(
    ("body", "field", "sentence"),
    [
        ({}, "division", "Name the division, e.g. Novice."),
        (
            {"division": "championship"},
            "division",
            "Spring Open has a championship division already.",
        ),
        (
            {"division": "Open", "min_rating": 1700, "max_rating": 1600},
            "max_rating",
            "The highest rating to enter (1600) is below the lowest (1700).",
        ),
    ],
)
def test_a_division_the_event_cannot_take_is_refused_in_words(
    body: dict[str, Any], field: str, sentence: str
) -> None:
    owner = organizer()
    as_owner = api_for(owner)
    main_id = as_owner.post(
        "/api/tournaments/", {**SETTINGS, "division": "Championship"}, format="json"
    ).json()["id"]

    answer = as_owner.post(f"/api/tournaments/{main_id}/beside/division/", body, format="json")

    assert answer.status_code == 400
    assert answer.json()["errors"] == {field: [sentence]}
    assert Tournament.objects.count() == 1


def test_only_the_events_organizer_adds_beside_it_and_only_beside_a_main_event() -> None:
    owner = organizer()
    main_id = api_for(owner).post("/api/tournaments/", SETTINGS, format="json").json()["id"]
    other = organizer("otto")

    refused = api_for(other).post(f"/api/tournaments/{main_id}/beside/jackpot/", {}, format="json")
    jackpot = api_for(owner).post(f"/api/tournaments/{main_id}/beside/jackpot/", {}, format="json")
    beside_a_side_event = api_for(owner).post(
        f"/api/tournaments/{jackpot.json()['id']}/beside/blitz/", {}, format="json"
    )

    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only the organizer of Spring Open can add events beside it."
    assert jackpot.status_code == 201
    assert beside_a_side_event.status_code == 400
    assert beside_a_side_event.json()["detail"] == (
        "Spring Open Jackpot is itself played beside another event; add to the main event."
    )
