"""A player's standing is obeyed by every service, whichever way the request comes: a
suspension stops play, seeks, registration and payouts until its date; a cool-down stops
seeks and registration; self-exclusion and barred regions stop real money, never play money."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone
from mmdb_writer import MMDBWriter
from netaddr import IPSet

from accounts import ledger
from accounts.models import Currency, Standing, User
from accounts.roles import Role
from accounts.standing import geoip_reader, standing_restrict
from core.errors import Conflict, Forbidden
from lobby.models import Seek
from lobby.seeks import SeekTerms, play_now, seek_accept, seek_post
from matches import creation
from matches.models import MatchStatus
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import api_for
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

REASON = "Chip dumping under review"


def player(username: str, **options: object) -> User:
    return UserFactory(username=username, display_name=username.capitalize(), **options)


def suspend(user: User, days: int = 3) -> None:
    standing_restrict(
        user=user, suspended_until=timezone.now() + timedelta(days=days), reason=REASON
    )


def the_date_passes(user: User, field: str) -> None:
    Standing.objects.filter(user=user).update(**{field: timezone.now() - timedelta(seconds=1)})


def withdraw(user: User, key: str) -> object:
    return ledger.withdraw(
        user=user,
        currency=Currency.FUN,
        amount_cents=100,
        reason="cashed out",
        staff=UserFactory(username=f"staff-{key}", role=Role.STAFF),
        key=key,
    )


# Suspension -------------------------------------------------------------------------


def test_a_suspension_stops_play_seeks_registration_and_payouts_until_its_date() -> None:
    # given Alice, suspended for three days pending a review
    alice, bruno = player("alice"), player("bruno")
    tournament = open_tournament(organizer())
    suspend(alice)

    # then nothing she starts goes through, and each refusal says why and until when
    refusals = []
    for attempt in (
        lambda: creation.match_challenge(challenger=alice, opponent=bruno, length=3),
        lambda: seek_post(user=alice, terms=SeekTerms()),
        lambda: play_now(user=alice),
        lambda: services.entry_register(tournament_id=tournament.pk, user=alice),
    ):
        with pytest.raises(Forbidden) as refused:
            attempt()
        refusals.append(str(refused.value))
    assert all(r.startswith("Alice's account is suspended until ") for r in refusals)
    assert all(r.endswith(f"({REASON}).") for r in refusals)
    with pytest.raises(Forbidden, match="nothing is paid out until the review is over"):
        withdraw(alice, "during")
    assert not Seek.objects.exists()
    assert not Entry.objects.exists()

    # when the date passes, all of it is open again
    the_date_passes(alice, "suspended_until")
    assert creation.match_challenge(challenger=alice, opponent=bruno, length=3).pk
    assert seek_post(user=alice, terms=SeekTerms()).pk
    assert services.entry_register(tournament_id=tournament.pk, user=alice).pk
    assert withdraw(alice, "after").pk


def test_a_suspended_player_cannot_accept_and_their_opponent_is_not_told_why() -> None:
    alice, bruno = player("alice"), player("bruno")
    to_alice = creation.match_challenge(challenger=bruno, opponent=alice, length=3)
    to_bruno = creation.match_challenge(challenger=alice, opponent=bruno, length=3)
    suspend(alice)

    with pytest.raises(Forbidden, match="Alice's account is suspended until"):
        creation.match_accept(match_id=to_alice.pk, user=alice)
    with pytest.raises(Forbidden) as refused:
        creation.match_accept(match_id=to_bruno.pk, user=bruno)

    assert str(refused.value) == "Alice cannot play matches at the moment."
    to_alice.refresh_from_db()
    to_bruno.refresh_from_db()
    assert to_alice.status == to_bruno.status == MatchStatus.INVITED


def test_a_seek_whose_creator_was_suspended_since_is_withdrawn_when_taken() -> None:
    alice, bruno = player("alice"), player("bruno")
    seek = seek_post(user=alice, terms=SeekTerms())
    suspend(alice)

    with pytest.raises(Conflict) as refused:
        seek_accept(seek_id=seek.pk, user=bruno)

    assert str(refused.value) == "Alice can no longer play this seek, so it is withdrawn."
    seek.refresh_from_db()
    assert seek.cancelled_at is not None
    assert seek.match_id is None


def test_a_suspended_player_gets_a_clean_403_from_every_rest_endpoint() -> None:
    alice, _bruno = player("alice"), player("bruno")
    tournament = open_tournament(organizer())
    sam = UserFactory(username="sam", role=Role.STAFF)
    suspend(alice)

    answers = [
        api_for(alice).post("/api/matches/", {"opponent": "bruno", "length": 3}, format="json"),
        api_for(alice).post("/api/seeks/", {"length": 5}, format="json"),
        api_for(alice).post(f"/api/tournaments/{tournament.pk}/register/"),
        api_for(sam).post(
            "/api/wallets/alice/adjust/",
            {"currency": "FUN", "amount_cents": 100, "direction": "withdraw", "reason": "payout"},
            format="json",
        ),
    ]

    assert [answer.status_code for answer in answers] == [403, 403, 403, 403]
    details = [answer.json()["detail"] for answer in answers]
    assert all(detail.startswith("Alice's account is suspended") for detail in details)


# Cool-down --------------------------------------------------------------------------


def test_a_cool_down_stops_seeks_and_registration_but_not_challenges() -> None:
    alice, bruno = player("alice"), player("bruno")
    tournament = open_tournament(organizer())
    open_seek = seek_post(user=bruno, terms=SeekTerms())
    standing_restrict(user=alice, cooldown_until=timezone.now() + timedelta(hours=24))

    for attempt, doing in (
        (lambda: seek_post(user=alice, terms=SeekTerms()), "post or take seeks"),
        (lambda: seek_accept(seek_id=open_seek.pk, user=alice), "post or take seeks"),
        (lambda: play_now(user=alice), "post or take seeks"),
        (
            lambda: services.entry_register(tournament_id=tournament.pk, user=alice),
            "register for tournaments",
        ),
    ):
        with pytest.raises(Forbidden, match=f"abandoned or timed out .* cannot {doing} until"):
            attempt()

    assert creation.match_challenge(challenger=alice, opponent=bruno, length=3).pk
    refused = api_for(alice).post("/api/seeks/", {"length": 5}, format="json")
    assert refused.status_code == 403
    assert "cannot post or take seeks until" in refused.json()["detail"]
    the_date_passes(alice, "cooldown_until")
    assert services.entry_register(tournament_id=tournament.pk, user=alice).pk


def test_play_now_refuses_a_cooled_down_player_whose_own_seek_still_waits() -> None:
    alice = player("alice")
    seek_post(user=alice, terms=SeekTerms())
    standing_restrict(user=alice, cooldown_until=timezone.now() + timedelta(hours=24))

    with pytest.raises(Forbidden, match="cannot post or take seeks until"):
        play_now(user=alice)


# Self-exclusion ---------------------------------------------------------------------


def test_self_exclusion_refuses_real_money_and_leaves_play_money_open() -> None:
    alice, _bruno = player("alice"), player("bruno")
    real = open_tournament(organizer(), name="Real Cup", currency="REAL")
    fun = open_tournament(organizer("otto"), name="Fun Cup")

    excluded = api_for(alice).post("/api/me/self-exclusion/", {"days": 7}, format="json")

    assert excluded.status_code == 200
    standing = Standing.objects.get(user=alice)
    assert standing.self_excluded_until is not None
    assert standing.self_excluded_until - timezone.now() > timedelta(days=6, hours=23)
    real_challenge = api_for(alice).post(
        "/api/matches/", {"opponent": "bruno", "length": 3, "currency": "REAL"}, format="json"
    )
    assert real_challenge.status_code == 403
    assert "chose to stay away from real-money play until" in real_challenge.json()["detail"]
    with pytest.raises(Forbidden, match="real-money"):
        services.entry_register(tournament_id=real.pk, user=alice)
    fun_challenge = api_for(alice).post(
        "/api/matches/", {"opponent": "bruno", "length": 3}, format="json"
    )
    assert fun_challenge.status_code == 201
    assert services.entry_register(tournament_id=fun.pk, user=alice).pk


def test_a_self_exclusion_takes_only_the_offered_periods_and_cannot_be_shortened() -> None:
    alice = player("alice")
    client = api_for(alice)

    wrong = client.post("/api/me/self-exclusion/", {"days": 5}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["detail"] == (
        "days: Choose a self-exclusion of 1, 7, 30, 90, 180, 365, 1825 days."
    )
    assert not Standing.objects.filter(user=alice).exists()

    client.post("/api/me/self-exclusion/", {"days": 30}, format="json")
    until = Standing.objects.get(user=alice).self_excluded_until
    shorter = client.post("/api/me/self-exclusion/", {"days": 1}, format="json")

    assert shorter.status_code == 200
    assert Standing.objects.get(user=alice).self_excluded_until == until
    assert shorter.json()["self_excluded_until"] is not None


def test_my_standing_says_what_i_may_do_now_with_dates_and_reasons() -> None:
    alice = player("alice")
    suspend(alice)

    standing = api_for(alice).get("/api/me/standing/").json()

    [restriction] = standing["restrictions"]
    assert (restriction["kind"], restriction["reason"]) == ("suspended", REASON)
    assert restriction["until"] is not None
    refused = {
        (row["action"], row["currency"]) for row in standing["permissions"] if not row["allowed"]
    }
    assert refused == {
        ("play", "FUN"),
        ("play", "REAL"),
        ("seek", "FUN"),
        ("seek", "REAL"),
        ("register", "FUN"),
        ("register", "REAL"),
        ("withdraw", None),
        ("chat", None),
    }
    assert standing["barred_region"] is None
    assert standing["self_exclusion_days"] == [1, 7, 30, 90, 180, 365, 1825]


def test_the_profile_page_excludes_only_once_the_player_confirms() -> None:
    alice = player("alice")
    client = Client()
    client.force_login(alice)
    page = client.get("/profile/").content.decode()
    assert "Nothing restricts your account." in page
    assert 'data-testid="self-exclusion"' in page

    unconfirmed = client.post("/me/self-exclusion/", {"days": "90"}, follow=True)
    assert "Tick the box to confirm" in unconfirmed.content.decode()
    assert not Standing.objects.filter(user=alice).exists()

    confirmed = client.post("/me/self-exclusion/", {"days": "90", "confirm": "yes"}, follow=True)

    page = confirmed.content.decode()
    assert "You are excluded from real-money play until" in page
    assert "Self-excluded from real money" in page
    until = Standing.objects.get(user=alice).self_excluded_until
    assert until is not None
    assert timedelta(days=89) < until - timezone.now() <= timedelta(days=90)


# Regions ----------------------------------------------------------------------------


@override_settings(CRAWFORD_BARRED_REGIONS=["US"])
def test_a_declared_barred_country_plays_for_play_money_only() -> None:
    alice, bruno = player("alice", country="US"), player("bruno")

    with pytest.raises(Forbidden) as refused:
        creation.match_challenge(challenger=alice, opponent=bruno, length=3, currency="REAL")

    assert str(refused.value) == (
        "Real-money play is not allowed in United States of America by law, so Alice can "
        "play for play money only."
    )
    with pytest.raises(Forbidden, match="Alice cannot play for real money at the moment"):
        creation.match_challenge(challenger=bruno, opponent=alice, length=3, currency="REAL")
    assert creation.match_challenge(challenger=alice, opponent=bruno, length=3).pk
    standing = api_for(alice).get("/api/me/standing/").json()
    assert standing["barred_region"] == "United States of America"


@pytest.fixture
def geoip_database(tmp_path: Path) -> Iterator[None]:
    """A GeoIP file that places 203.0.113.0/24 in France, barred for real money."""
    writer = MMDBWriter(ip_version=4, database_type="GeoIP2-Country")
    writer.insert_network(IPSet(["203.0.113.0/24"]), {"country": {"iso_code": "FR"}})
    path = tmp_path / "countries.mmdb"
    writer.to_db_file(str(path))
    geoip_reader.cache_clear()
    with override_settings(CRAWFORD_GEOIP_DATABASE=str(path), CRAWFORD_BARRED_REGIONS=["FR"]):
        yield
    geoip_reader.cache_clear()


@pytest.mark.usefixtures("geoip_database")
def test_logging_in_from_a_barred_country_bars_real_money_by_name() -> None:
    alice, bruno = player("alice"), player("bruno")

    logged_in = Client().post(
        "/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="203.0.113.7"
    )

    assert logged_in.status_code == 302
    with pytest.raises(Forbidden, match="Real-money play is not allowed in France by law"):
        creation.match_challenge(challenger=alice, opponent=bruno, length=3, currency="REAL")
    assert creation.match_challenge(challenger=alice, opponent=bruno, length=3).pk
    # Bruno logs in from elsewhere, and real money stays open to him
    Client().post("/login/", {"username": "bruno", "password": PASSWORD}, REMOTE_ADDR="192.0.2.1")
    assert creation.match_challenge(
        challenger=bruno, opponent=player("carla"), length=3, currency="REAL"
    ).pk
