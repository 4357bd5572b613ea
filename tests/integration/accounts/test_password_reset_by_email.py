"""A player who forgot their password asks for a link, receives it by e-mail from the SMTP
server, chooses a new password there, and every other session and API token ends."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.http import HttpResponse
from django.test import Client
from django.test.utils import override_settings
from knox.models import AuthToken

from accounts.sessions import Session
from tests.factories import PASSWORD, UserFactory
from tests.integration.config.rate_limits import low_rates
from tests.mailbox import Mailbox, body, links

pytestmark = pytest.mark.django_db(transaction=True)

NEW_PASSWORD = "another-long-password-7"


@pytest.fixture(autouse=True)
def _tasks_in_process(tasks_run_in_process: None) -> Iterator[None]:
    """The mail tasks run in the test process, on commit; the mail budget is counted
    apart from other tests'."""
    with low_rates():
        yield


def _reset_link(client: Client, mailbox: Mailbox, address: str) -> str:
    response = client.post("/password/reset/", {"email": address}, follow=True)
    assert response.status_code == 200
    assert "a link to choose a new password is on its way" in response.content.decode()
    message = mailbox.about("choose a new password")[-1]
    assert message["To"] == address
    assert message["Subject"] == "Crawford: choose a new password"
    [link] = [link for link in links(message) if "/password/reset/" in link]
    return link


def test_the_log_in_page_offers_a_reset(client: Client) -> None:
    page = client.get("/login/").content.decode()

    assert 'href="/password/reset/"' in page
    assert "Forgot your password?" in page


def test_a_forgotten_password_is_reset_from_the_mailed_link(mailbox: Mailbox) -> None:
    # given Alice, logged in elsewhere and holding an API token
    alice = UserFactory(username="alice", email="alice@example.com")
    elsewhere = Client()
    elsewhere.force_login(alice)
    AuthToken.objects.create(user=alice)

    # when she asks for a link and follows it
    browser = Client()
    link = _reset_link(browser, mailbox, "alice@example.com")
    assert link.startswith("http://testserver/password/reset/")
    form = browser.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = browser.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )

    # then the new password logs her in, the old one does not, and nothing else is live
    assert "Your new password is set" in done.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(PASSWORD)
    assert not AuthToken.objects.filter(user=alice).exists()
    assert not Session.objects.filter(user_id=alice.pk).exists()
    assert elsewhere.get("/profile/").status_code == 302  # to the log-in page
    # the link reached her, so the address is hers
    assert alice.email_verified


def test_a_reset_link_works_once(mailbox: Mailbox) -> None:
    UserFactory(username="alice", email="alice@example.com")
    browser = Client()
    link = _reset_link(browser, mailbox, "alice@example.com")
    form = browser.get(link, follow=True)
    browser.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    again = Client().get(link, follow=True)

    assert "This link does not work" in again.content.decode()
    assert 'data-testid="reset-link-invalid"' in again.content.decode()


def test_an_address_without_an_account_gets_the_same_answer_and_no_mail(
    client: Client, mailbox: Mailbox
) -> None:
    UserFactory(username="alice", email="alice@example.com")

    response = client.post("/password/reset/", {"email": "nobody@example.com"}, follow=True)

    assert "a link to choose a new password is on its way" in response.content.decode()
    mailbox.about("confirm your e-mail address")  # Alice's, from her sign-up
    assert mailbox.about("choose a new password", count=0) == []


def test_the_mail_says_how_long_the_link_works(mailbox: Mailbox) -> None:
    UserFactory(username="alice", email="alice@example.com")

    _reset_link(Client(), mailbox, "alice@example.com")

    assert "The link works once, for 24 hours." in body(mailbox.about("new password")[0])


def test_asking_again_and_again_is_refused_for_a_while(client: Client, mailbox: Mailbox) -> None:
    UserFactory(username="alice", email="alice@example.com")

    with low_rates(mail="2/hour"):
        answers = [
            client.post("/password/reset/", {"email": "alice@example.com"}).status_code
            for _ in range(3)
        ]

    assert answers == [302, 302, 429]
    assert len(mailbox.about("choose a new password", count=2)) == 2


def test_a_reset_lifts_the_lockout_of_too_many_wrong_passwords(mailbox: Mailbox) -> None:
    # given Alice, locked out after three wrong passwords
    UserFactory(username="alice", email="alice@example.com")
    with override_settings(AXES_FAILURE_LIMIT=3):
        for _ in range(3):
            Client().post("/login/", {"username": "alice", "password": "guess"})
        assert _log_in("alice", PASSWORD).status_code == 429

        # when she resets her password from the mailed link
        browser = Client()
        form = browser.get(_reset_link(browser, mailbox, "alice@example.com"), follow=True)
        browser.post(
            form.redirect_chain[-1][0],
            {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        )

        # then the new password logs her in at once, from the address that guessed
        answer = _log_in("alice", NEW_PASSWORD)

    assert answer.status_code == 302
    assert answer["Location"] == "/"


def _log_in(username: str, password: str) -> HttpResponse:
    client = Client()
    return client.post("/login/", {"username": username, "password": password})
