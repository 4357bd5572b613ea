"""A player's address is confirmed by the link mailed to it, at sign-up or when changed on
the profile; a link for another address, or one tampered with, confirms nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import PASSWORD, UserFactory
from tests.integration.config.rate_limits import low_rates
from tests.mailbox import Mailbox, links

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _tasks_in_process(tasks_run_in_process: None) -> Iterator[None]:
    with low_rates():
        yield


def _verify_link(mailbox: Mailbox, address: str, count: int = 1) -> str:
    message = mailbox.about("confirm your e-mail address", count=count)[-1]
    assert message["To"] == address
    [link] = [link for link in links(message) if "/email/verify/" in link]
    return link


def test_the_address_given_at_sign_up_is_confirmed_by_the_mailed_link(
    client: Client, mailbox: Mailbox
) -> None:
    client.post(
        "/signup/",
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert not User.objects.get(username="newbie").email_verified

    page = client.get(_verify_link(mailbox, "newbie@example.com"))

    assert page.status_code == 200
    assert "newbie@example.com is your confirmed address" in page.content.decode()
    assert User.objects.get(username="newbie").email_verified
    assert (
        "Confirmed: a forgotten password can be reset" in client.get("/profile/").content.decode()
    )


def test_the_sign_up_form_says_what_the_address_is_for(client: Client) -> None:
    page = client.get("/signup/").content.decode()

    assert "without one a forgotten password cannot be reset" in page


def test_a_new_address_starts_unconfirmed_and_an_old_link_does_not_confirm_it(
    client: Client, mailbox: Mailbox
) -> None:
    alice = UserFactory(username="alice", email="alice@example.com")
    old_link = _verify_link(mailbox, "alice@example.com")
    client.force_login(alice)

    response = client.post("/profile/email/", {"email": "alice@new.example.com"}, follow=True)

    assert "We sent a link to alice@new.example.com" in response.content.decode()
    refused = client.get(old_link)
    assert refused.status_code == 400
    assert "no longer on the account" in refused.content.decode()
    assert not User.objects.get(pk=alice.pk).email_verified
    client.get(_verify_link(mailbox, "alice@new.example.com", count=2))
    assert User.objects.get(pk=alice.pk).email_verified


def test_a_link_cut_short_or_made_up_is_refused_in_words(client: Client) -> None:
    response = client.get("/email/verify/not-a-real-token/")

    assert response.status_code == 400
    assert "copy the whole link from the e-mail" in response.content.decode()


def test_a_bad_address_on_the_profile_is_refused(client: Client, mailbox: Mailbox) -> None:
    client.force_login(UserFactory(username="alice"))

    response = client.post("/profile/email/", {"email": "not an address"}, follow=True)

    assert "Enter a valid email address." in response.content.decode()
    assert User.objects.get(username="alice").email == ""
