"""Two accounts of one person show in what their log-ins share: one browser always opens a
case; one address only with a second sign (they played each other, or signed up together),
so a household or a club's network does not fill the staff queue. Nobody's address is kept."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.device import DEVICE_COOKIE
from accounts.models import Sighting, SightingKind, User
from accounts.roles import Role
from fairplay import models as fairplay_models
from fairplay.detectors.shared_accounts import link_accounts
from fairplay.models import Case, CaseKind, CaseState
from tests.factories import PASSWORD, UserFactory
from tests.integration.disputes.helpers import finished_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tasks_run_in_process"),
]

HOME = "198.51.100.4"


def log_in(client: Client, username: str, address: str = HOME) -> None:
    answer = client.post(
        "/login/", {"username": username, "password": PASSWORD}, REMOTE_ADDR=address
    )
    assert answer.status_code == 302, answer.content.decode()[:300]
    client.post("/logout/", REMOTE_ADDR=address)


def sign_up(client: Client, username: str, address: str = HOME) -> User:
    answer = client.post(
        "/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )
    assert answer.status_code == 302, answer.content.decode()[:300]
    client.post("/logout/", REMOTE_ADDR=address)
    return User.objects.get(username=username)


def joined_days_ago(user: User, days: int) -> None:
    """``user`` signed up and was first seen ``days`` ago."""
    then = timezone.now() - timedelta(days=days)
    User.objects.filter(pk=user.pk).update(date_joined=then)
    Sighting.objects.filter(user=user).update(first_seen=then)


def accounts_cases() -> list[Case]:
    return list(Case.objects.filter(kind=CaseKind.ACCOUNTS).order_by("pk"))


def test_two_accounts_from_one_browser_and_address_are_linked_in_a_case() -> None:
    # given Alice, who signed up in this browser weeks ago, and Bruno, made today
    alice = UserFactory(username="alice")
    browser = Client()
    log_in(browser, "alice")
    joined_days_ago(alice, 40)
    bruno = UserFactory(username="bruno")

    # when Bruno logs in through the log-in page of the same browser, from the same address
    log_in(browser, "bruno")

    # then one case is open about the newer account, naming what they share
    [case] = accounts_cases()
    assert case.key == f"accounts:{alice.pk}:{bruno.pk}"
    assert case.subject == bruno
    assert list(case.others.all()) == [alice]
    assert case.summary == "bruno and alice used one device"
    shared = case.evidence["shared"]
    assert [row["kind"] for row in shared] == ["device", "address"]
    assert set(shared[0]["accounts"]) == {"alice", "bruno"}
    assert shared[0]["accounts"]["bruno"]["times"] == 1
    # and neither the address nor the cookie is kept anywhere, only digests of them
    kept = json.dumps(case.evidence) + json.dumps(
        list(Sighting.objects.values("digest", "country"))
    )
    assert HOME not in kept
    assert browser.cookies[DEVICE_COOKIE].value not in kept


def test_the_device_cookie_is_long_random_http_only_and_lax() -> None:
    first, second = Client().get("/"), Client().get("/")

    cookie = first.cookies[DEVICE_COOKIE]
    assert len(cookie.value) >= 40
    assert cookie.value != second.cookies[DEVICE_COOKIE].value
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    assert int(cookie["max-age"]) == 2 * 365 * 24 * 60 * 60
    secure = Client().get("/", HTTP_X_FORWARDED_PROTO="https", secure=True)
    assert secure.cookies[DEVICE_COOKIE]["secure"]


def test_a_household_sharing_an_address_opens_nothing_until_they_play_each_other() -> None:
    # given two people of one home, in their own browsers, who signed up weeks apart
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    log_in(Client(), "alice")
    joined_days_ago(alice, 40)
    log_in(Client(), "bruno")
    log_in(Client(), "alice")
    assert accounts_cases() == []

    # when they play each other for rating and play money
    match = finished_match(bruno, alice, stake_cents=500)

    # then a case opens, with the match, its result and the money it moved
    [case] = accounts_cases()
    assert case.subject == bruno
    assert case.evidence["signs"] == [
        "share an address and played each other 1 time for rating or money"
    ]
    [row] = case.evidence["matches"]
    assert (row["match"], row["winner"], row["counted"]) == (match.pk, "bruno", True)
    assert row["money_cents"]["alice"] == {"FUN": -500}
    assert row["money_cents"]["bruno"]["FUN"] > 0
    assert case.evidence["money_to_newer"]["FUN"] == row["money_cents"]["bruno"]["FUN"]


def test_accounts_signed_up_from_one_address_within_the_hour_open_a_case() -> None:
    alice = sign_up(Client(), "alice")
    bruno = sign_up(Client(), "bruno")

    [case] = accounts_cases()
    assert (case.subject, list(case.others.all())) == (bruno, [alice])
    assert case.evidence["signs"] == ["signed up from one address within 60 minutes"]


def test_a_sign_up_from_an_address_another_account_joined_from_long_ago_opens_nothing() -> None:
    alice = sign_up(Client(), "alice")
    joined_days_ago(alice, 3)

    sign_up(Client(), "bruno")

    assert accounts_cases() == []
    assert Sighting.objects.filter(kind=SightingKind.ADDRESS).count() == 2


def test_a_decided_pair_opens_a_new_case_only_on_something_new() -> None:
    # given staff dismissed the case of two accounts used in one browser
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    browser = Client()
    log_in(browser, "alice")
    log_in(browser, "bruno")
    [first] = accounts_cases()
    Case.objects.filter(pk=first.pk).update(
        state=CaseState.DECIDED, decision="dismiss", decided_at=timezone.now()
    )

    # when they log in again the same way, nothing new is seen
    log_in(browser, "alice")
    log_in(browser, "bruno")
    assert accounts_cases() == [first]

    # but a match between them afterwards opens a new case, pointing at the first
    finished_match(alice, bruno)
    [_, second] = accounts_cases()
    assert second.state == CaseState.OPEN
    assert second.evidence["earlier_cases"] == [first.pk]
    assert second.evidence["counted_matches"] == 1


def test_a_token_log_in_counts_the_device_only_when_the_program_sent_its_cookie() -> None:
    UserFactory(username="alice")
    UserFactory(username="bruno")
    browser = Client()
    browser.get("/", REMOTE_ADDR="192.0.2.10")

    for username, address in (("alice", "192.0.2.10"), ("bruno", "192.0.2.11")):
        answer = browser.post(
            "/api/auth/token/",
            {"username": username, "password": PASSWORD},
            content_type="application/json",
            REMOTE_ADDR=address,
        )
        assert answer.status_code == 200
    Client().post(
        "/api/auth/token/",
        {"username": "alice", "password": PASSWORD},
        content_type="application/json",
        REMOTE_ADDR="192.0.2.10",
    )

    [case] = accounts_cases()
    assert case.evidence["signs"] == ["used one device"]
    assert Sighting.objects.filter(kind=SightingKind.DEVICE).count() == 2


@pytest.mark.skipif(
    not hasattr(fairplay_models, "AccountLink"), reason="AccountLink model not added yet"
)
def test_staff_link_accounts_pair_by_pair_once() -> None:
    sam = UserFactory(username="sam", role=Role.STAFF)
    alice, bruno, carla = (UserFactory(username=name) for name in ("alice", "bruno", "carla"))

    links = link_accounts(staff=sam, user_ids=[carla.pk, alice.pk, bruno.pk], reason="One person")
    again = link_accounts(staff=sam, user_ids=[alice.pk, bruno.pk], reason="Seen again")

    assert len(links) == 3
    assert again == links[:1]
    stored = fairplay_models.AccountLink.objects.order_by("pk")
    assert [(link.low_id, link.high_id) for link in stored] == [
        (alice.pk, bruno.pk),
        (alice.pk, carla.pk),
        (bruno.pk, carla.pk),
    ]
