"""A demo player the computer plays never wins or loses real money: a real-money challenge,
seek or tournament seat with one is refused with the reason (400), and the play page does
not offer it. Play money stays open to them."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import ledger
from accounts.models import User
from lobby.models import Seek
from matches.models import Match, MatchStatus
from tests.integration.disputes.helpers import staff
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

REFUSAL = (
    "Nikos is a demo player the computer plays: demo players play for play money (FUN) "
    "only, never for real money."
)


def demo_player(username: str = "nikos") -> User:
    return player(username, bot_strength="beginner")


def with_real_money(user: User, cents: int = 50_000) -> User:
    ledger.deposit(
        user=user,
        currency="REAL",
        amount_cents=cents,
        reason="test",
        staff=staff(f"staff-{user.username}"),
        key=f"deposit:{user.username}",
    )
    return user


def test_a_real_money_challenge_to_a_demo_player_is_refused_with_the_reason() -> None:
    newcomer, nikos = with_real_money(player("newcomer")), with_real_money(demo_player())

    answer = api_for(newcomer).post(
        "/api/matches/",
        {"opponent": "nikos", "length": 3, "stake_cents": 500, "currency": "REAL"},
        format="json",
    )

    assert answer.status_code == 400
    assert answer.json()["detail"] == REFUSAL
    assert not Match.objects.filter(player_1=nikos).exists()


def test_a_play_money_stake_against_a_demo_player_is_still_played() -> None:
    player("newcomer")
    demo_player()

    answer = api_for(User.objects.get(username="newcomer")).post(
        "/api/matches/",
        {"opponent": "nikos", "length": 3, "stake_cents": 500, "currency": "FUN"},
        format="json",
    )

    assert answer.status_code == 201, answer.json()
    assert Match.objects.get().status == MatchStatus.PLAYING


def test_a_demo_player_cannot_challenge_anyone_for_real_money() -> None:
    with_real_money(player("newcomer"))
    nikos = with_real_money(demo_player())

    answer = api_for(nikos).post(
        "/api/matches/",
        {"opponent": "newcomer", "length": 3, "stake_cents": 500, "currency": "REAL"},
        format="json",
    )

    assert answer.status_code == 400
    assert answer.json()["detail"] == REFUSAL
    assert not Match.objects.exists()


def test_a_demo_player_cannot_offer_or_take_a_real_money_seek() -> None:
    nikos = with_real_money(demo_player())
    chloe = with_real_money(player("chloe"))
    theirs = api_for(chloe).post(
        "/api/seeks/", {"length": 5, "stake_cents": 500, "currency": "REAL"}, format="json"
    )

    offered = api_for(nikos).post(
        "/api/seeks/", {"length": 5, "stake_cents": 500, "currency": "REAL"}, format="json"
    )
    taken = api_for(nikos).post(f"/api/seeks/{theirs.json()['id']}/accept/")

    assert (offered.status_code, offered.json()["detail"]) == (400, REFUSAL)
    assert (taken.status_code, taken.json()["detail"]) == (400, REFUSAL)
    assert list(Seek.objects.values_list("creator__username", "taken_by")) == [("chloe", None)]
    assert not Match.objects.exists()


def test_a_demo_players_real_money_seek_left_from_before_is_withdrawn_when_taken() -> None:
    # given a real-money seek of Nikos's, posted before demo players were kept to play money
    nikos = with_real_money(demo_player())
    newcomer = with_real_money(player("newcomer"))
    seek = Seek.objects.create(creator=nikos, length=5, stake_cents=500, currency="REAL", clock={})

    taken = api_for(newcomer).post(f"/api/seeks/{seek.pk}/accept/")

    assert (taken.status_code, taken.json()["detail"]) == (400, f"{REFUSAL} The seek is withdrawn.")
    seek.refresh_from_db()
    assert seek.cancelled_at is not None
    assert not Match.objects.exists()


def test_a_demo_player_cannot_register_for_a_real_money_tournament() -> None:
    nikos = with_real_money(demo_player())
    tournament = open_tournament(organizer(), currency="REAL")

    answer = api_for(nikos).post(f"/api/tournaments/{tournament.pk}/register/")

    assert (answer.status_code, answer.json()["detail"]) == (400, REFUSAL)
    assert not Entry.objects.exists()


def test_a_demo_players_standing_says_real_money_is_not_theirs() -> None:
    nikos = demo_player()

    standing = api_for(nikos).get("/api/me/standing/").json()

    refused = {
        (row["action"], row["currency"]): row["why"]
        for row in standing["permissions"]
        if not row["allowed"]
    }
    assert refused == {
        ("play", "REAL"): REFUSAL,
        ("seek", "REAL"): REFUSAL,
        ("register", "REAL"): REFUSAL,
    }


def test_the_challenge_form_refuses_real_money_against_a_demo_player_on_the_page() -> None:
    newcomer = with_real_money(player("newcomer"))
    with_real_money(demo_player())
    client = Client()
    client.force_login(newcomer)

    answer = client.post(
        "/play/challenge/",
        {
            "opponent": "nikos",
            "kind": "match",
            "length": "3",
            "stake": "5",
            "currency": "REAL",
            "clock": "standard",
            "clock_kind": "delay",
            "move_seconds": "12",
            "reserve_seconds": "60",
            "timeout_loses": "match",
            "max_cube": "16",
            "rated": "on",
        },
    )

    assert answer.status_code == 400
    assert REFUSAL in answer.content.decode()
    assert not Match.objects.exists()


def test_the_play_page_offers_a_demo_player_play_money_only() -> None:
    client = Client()
    client.force_login(demo_player())

    page = client.get("/play/").content.decode()

    challenge = page.split('name="currency"')[1].split("</select>")[0]
    seek = page.split('name="seek-currency"')[1].split("</select>")[0]
    assert 'value="FUN"' in challenge
    assert 'value="REAL"' not in challenge
    assert 'value="REAL"' not in seek
