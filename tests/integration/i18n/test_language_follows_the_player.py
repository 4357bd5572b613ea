"""A player who chose Italian logs in on a new device and reads the site in Italian, without
choosing again; a browser that has chosen keeps its choice."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import Profile
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def _log_in(client: Client) -> None:
    answer = client.post(
        "/login/", {"username": "giulia", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert answer.status_code == 302


def test_a_new_device_takes_the_language_the_player_chose() -> None:
    giulia = UserFactory.create(username="giulia")
    Profile.objects.filter(user=giulia).update(language="it")
    client = Client()

    _log_in(client)

    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'lang="it"' in page


def test_a_browser_that_chose_a_language_keeps_it() -> None:
    giulia = UserFactory.create(username="giulia")
    Profile.objects.filter(user=giulia).update(language="it")
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    _log_in(client)

    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"
    assert 'lang="en"' in client.get("/").content.decode()


def test_an_account_that_never_chose_leaves_an_italian_browser_in_italian() -> None:
    UserFactory.create(username="giulia")  # the profile's language is the site's default
    client = Client()

    answer = client.post(
        "/login/", {"username": "giulia", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="it"
    )

    assert answer.status_code == 302
    assert settings.LANGUAGE_COOKIE_NAME not in client.cookies
    assert 'lang="it"' in client.get("/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
