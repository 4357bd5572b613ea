"""Trying the demo on one machine opens no fair-play case: the accounts the demo loader or
staff made share a browser by design, and are no sign of one person behind two names."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.models import MadeBy
from fairplay.detectors.shared_accounts import scan_match
from fairplay.models import Case, CaseKind
from lobby.management.commands.load_demo import DEMO_PASSWORD
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match
from tests.integration.fairplay.test_shared_accounts import log_in, sign_up

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tasks_run_in_process"),
]


def log_in_as_demo(client: Client, username: str) -> None:
    answer = client.post("/login/", {"username": username, "password": DEMO_PASSWORD})
    assert answer.status_code == 302, answer.content.decode()[:300]
    client.post("/logout/")


@pytest.mark.slow
def test_trying_the_demo_players_staff_and_a_new_account_in_one_browser_opens_no_case() -> None:
    # given the demo loaded
    call_command("load_demo", stdout=io.StringIO())
    browser = Client()

    # when one browser logs in as three demo players, the organizer and staff, and then
    # signs up an account of its own
    for username in ("alice", "bruno", "chloe", "orla", "sam"):
        log_in_as_demo(browser, username)
    sign_up(browser, "newcomer", address="127.0.0.1")

    # then the staff queue holds no case about shared accounts
    assert not Case.objects.filter(kind=CaseKind.ACCOUNTS).exists()


def test_an_account_staff_made_shares_a_browser_with_a_player_and_opens_no_case() -> None:
    # given an account staff made for a member at the club's desk, and that member's own
    UserFactory(username="desk", made_by=MadeBy.STAFF)
    UserFactory(username="member")
    browser = Client()

    # when both log in from the desk's browser
    log_in(browser, "desk")
    log_in(browser, "member")

    # then nothing is opened
    assert not Case.objects.filter(kind=CaseKind.ACCOUNTS).exists()


def test_two_signed_up_accounts_in_one_browser_still_open_a_case() -> None:
    UserFactory(username="first")
    UserFactory(username="second")
    browser = Client()

    log_in(browser, "first")
    log_in(browser, "second")

    assert Case.objects.filter(kind=CaseKind.ACCOUNTS).count() == 1


def test_a_match_between_demo_players_opens_no_case() -> None:
    alice = UserFactory(username="alice", made_by=MadeBy.DEMO)
    bruno = UserFactory(username="bruno", made_by=MadeBy.DEMO)
    browser = Client()
    log_in(browser, "alice")
    log_in(browser, "bruno")
    match = finished_match(alice, bruno, stake_cents=100)

    assert scan_match(match.pk) is None
    assert not Case.objects.filter(kind=CaseKind.ACCOUNTS).exists()
