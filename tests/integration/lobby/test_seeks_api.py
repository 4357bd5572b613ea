"""REST for seeks: post (one open at a time, covered), list with who may take each, take
(409 once taken or cancelled), cancel (403 for someone else's), 404 for none."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts import ledger
from accounts.models import User
from lobby.models import Seek
from matches.models import Match, MatchStatus
from tests.integration.config.rate_limits import low_rates
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import NOT_LOGGED_IN, api_for, refusal

pytestmark = pytest.mark.django_db


def _post(user: User, **body: object) -> dict[str, object]:
    response = api_for(user).post("/api/seeks/", {"length": 5, **body}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()  # type: ignore[no-any-return]


def _spend(payer: User, cents: int, *, to: User) -> None:
    ledger.transfer_between_players(
        payer=payer,
        payee=to,
        currency="FUN",
        amount_cents=cents,
        commission_cents=0,
        key=f"test:{payer.pk}:{to.pk}:{cents}",
    )


def test_a_seek_is_posted_and_listed_with_its_terms_in_words() -> None:
    alice = player("alice", "Alice Adams", rating=1720.0)

    posted = _post(
        alice,
        length=7,
        stake_cents=1000,
        clock={"kind": "move", "move_seconds": 8, "reserve_seconds": 30},
        min_rating=1500,
        max_rating=1900,
    )

    assert posted["creator"] == "alice"
    assert posted["terms"] == "7-point match for 10.00 FUN"
    assert posted["clock"] == {
        "kind": "move",
        "move_seconds": 8,
        "reserve_seconds": 30,
        "delay_seconds": 12,
        "timeout_loses": "match",
    }
    assert (posted["may_take"], posted["why_not"]) == (False, "This is your own seek")
    listed = APIClient().get("/api/seeks/").json()
    assert [seek["id"] for seek in listed] == [posted["id"]]
    assert listed[0]["why_not"] == "Log in to take a seek"


def test_the_list_says_who_may_take_each_seek_and_why_not() -> None:
    alice, carla = player("alice", rating=1720.0), player("carla")
    bruno = player("bruno", rating=1450.0)
    _spend(bruno, 50_000, to=carla)
    _post(alice, min_rating=1600)
    _post(carla, kind="money", stake_cents=2000, currency="FUN")
    _post(player("dmitri"), length=3)

    listed = api_for(bruno).get("/api/seeks/").json()

    assert [(seek["terms"], seek["may_take"], seek["why_not"]) for seek in listed] == [
        ("3-point match", True, None),
        (
            "Money session at 20.00 FUN a point",
            False,
            "This seek needs 960.00 FUN; you have 500.00 FUN",
        ),
        ("5-point match", False, "This seek is for players rated 1600 and up; your rating is 1450"),
    ]


def test_a_player_who_cannot_cover_the_stake_is_told_their_balance() -> None:
    alice = player("alice")

    refused = api_for(alice).post(
        "/api/seeks/", {"length": 5, "stake_cents": 150_000}, format="json"
    )
    money = api_for(alice).post(
        "/api/seeks/", {"kind": "money", "stake_cents": 5000}, format="json"
    )

    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "You have 1,000.00 FUN; a 5-point match for 1,500.00 FUN needs 1,500.00 FUN."
    )
    assert money.json()["detail"] == (
        "You have 1,000.00 FUN; a money session at 50.00 FUN a point needs 2,400.00 FUN."
    )
    assert not Seek.objects.exists()


def test_one_open_seek_per_player() -> None:
    alice = player("alice")
    first = _post(alice)

    second = api_for(alice).post("/api/seeks/", {"length": 3}, format="json")

    assert second.status_code == 409
    assert second.json()["detail"] == "You already have an open seek: cancel it to post another."
    assert api_for(alice).delete(f"/api/seeks/{first['id']}/").status_code == 204
    _post(alice, length=3)


def test_taking_a_seek_starts_the_match_with_its_creator_in_seat_0() -> None:
    # given Alice's staked 3-point match with a match clock
    alice, bruno = player("alice"), player("bruno")
    seek = _post(alice, length=3, stake_cents=500, clock={"kind": "delay", "reserve_seconds": 90})

    # when Bruno takes it
    taken = api_for(bruno).post(f"/api/seeks/{seek['id']}/accept/")

    # then the match is on, stakes in escrow, and the seek is gone from the list
    assert taken.status_code == 201, taken.json()
    match = Match.objects.get(pk=taken.json()["id"])
    assert (match.player_0, match.player_1, match.status) == (alice, bruno, MatchStatus.PLAYING)
    assert (match.length, match.stake_cents, match.clock, match.reserve_seconds) == (
        3,
        500,
        "delay",
        90,
    )
    assert ledger.balance(user=alice, currency="FUN") == 100_000 - 500
    assert ledger.balance(user=bruno, currency="FUN") == 100_000 - 500
    row = Seek.objects.get(pk=seek["id"])
    assert (row.taken_by, row.match) == (bruno, match)
    assert api_for(bruno).get("/api/seeks/").json() == []


def test_a_money_seek_becomes_an_unrated_money_session_with_a_cube_of_16() -> None:
    alice, bruno = player("alice"), player("bruno")
    seek = _post(alice, kind="money", stake_cents=100, rated=True)

    taken = api_for(bruno).post(f"/api/seeks/{seek['id']}/accept/")

    match = Match.objects.get(pk=taken.json()["id"])
    assert (match.kind, match.stake_cents, match.max_cube, match.rated) == ("money", 100, 16, False)
    assert seek["rated"] is False


def test_a_seek_taken_or_cancelled_already_is_a_conflict() -> None:
    alice, bruno, carla = player("alice"), player("bruno"), player("carla")
    taken, cancelled = _post(alice), _post(carla)
    assert api_for(bruno).post(f"/api/seeks/{taken['id']}/accept/").status_code == 201
    assert api_for(carla).delete(f"/api/seeks/{cancelled['id']}/").status_code == 204
    dmitri = player("dmitri")

    again = api_for(dmitri).post(f"/api/seeks/{taken['id']}/accept/")
    late = api_for(dmitri).post(f"/api/seeks/{cancelled['id']}/accept/")
    cancel_again = api_for(carla).delete(f"/api/seeks/{cancelled['id']}/")

    assert (again.status_code, again.json()["detail"]) == (409, "Someone took this seek already")
    assert (late.status_code, late.json()["detail"]) == (409, "This seek is cancelled")
    assert cancel_again.status_code == 409


def test_only_its_creator_cancels_a_seek_and_nobody_takes_their_own() -> None:
    alice, bruno = player("alice"), player("bruno")
    seek = _post(alice)

    cancelled = api_for(bruno).delete(f"/api/seeks/{seek['id']}/")
    own = api_for(alice).post(f"/api/seeks/{seek['id']}/accept/")

    assert (cancelled.status_code, cancelled.json()["detail"]) == (
        403,
        "This seek is not yours to cancel",
    )
    assert (own.status_code, own.json()["detail"]) == (400, "This is your own seek")
    assert Seek.objects.get(pk=seek["id"]).is_open


def test_a_missing_seek_is_not_found() -> None:
    alice = player("alice")

    assert api_for(alice).post("/api/seeks/99999/accept/").status_code == 404
    assert api_for(alice).delete("/api/seeks/99999/").status_code == 404


def test_a_player_outside_the_rating_range_may_not_take_the_seek() -> None:
    alice, bruno = player("alice"), player("bruno", rating=1430.0)
    seek = _post(alice, min_rating=1500, max_rating=1800)

    refused = api_for(bruno).post(f"/api/seeks/{seek['id']}/accept/")

    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        "This seek is for players rated 1500–1800; your rating is 1430"
    )


def test_a_creator_who_can_no_longer_cover_the_seek_has_it_withdrawn() -> None:
    alice, bruno = player("alice"), player("bruno")
    seek = _post(alice, stake_cents=90_000)
    _spend(alice, 20_000, to=bruno)

    refused = api_for(bruno).post(f"/api/seeks/{seek['id']}/accept/")

    assert refused.status_code == 409
    assert refused.json()["detail"] == "Alice can no longer cover this seek, so it is withdrawn."
    assert Seek.objects.get(pk=seek["id"]).cancelled_at is not None
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ({}, 'Give a match "length" in points.'),
        ({"length": 26}, "length: Ensure this value is less than or equal to 25."),
        ({"length": 5, "min_rating": 1800, "max_rating": 1500}, '"min_rating" must not be above'),
        ({"kind": "money"}, "A money session needs a stake per point of at least 0.01"),
        ({"length": 5, "clock": {"kind": "move", "move_seconds": 0}}, "clock: move_seconds:"),
    ],
)
def test_a_seek_that_cannot_be_played_is_refused_saying_why(
    body: dict[str, object], detail: str
) -> None:
    refused = api_for(player("alice")).post("/api/seeks/", body, format="json")

    assert refused.status_code == 400
    assert refused.json()["detail"].startswith(detail)


def test_posting_seeks_counts_against_the_challenge_limit() -> None:
    alice = player("alice")
    with low_rates(challenge="1/minute"):
        seek = _post(alice)
        api_for(alice).delete(f"/api/seeks/{seek['id']}/")

        limited = api_for(alice).post("/api/seeks/", {"length": 5}, format="json")
        listing = api_for(alice).get("/api/seeks/")

    assert limited.status_code == 429
    assert listing.status_code == 200


def test_seeks_are_posted_by_logged_in_players_only() -> None:
    refused = APIClient().post("/api/seeks/", {"length": 5}, format="json")

    assert refusal(refused) == NOT_LOGGED_IN
    assert not Seek.objects.exists()
