"""The language of the pages: the browser's, or the one chosen with the switcher, which
stays chosen; money and the browser scripts' words follow it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from accounts.templatetags.money import buy_in, money, signed_money

pytestmark = pytest.mark.django_db


def test_the_browser_language_is_used_when_none_was_chosen() -> None:
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9,en;q=0.5").content.decode()

    assert '<html lang="it"' in page
    assert "Tornei" in page
    assert 'lang="en"\n      >English</button>' in page  # each language named in itself


def test_a_language_unknown_here_falls_back_to_english() -> None:
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content.decode()

    assert '<html lang="en"' in page
    assert "Tournaments" in page


def test_the_switcher_chooses_a_language_that_stays_and_comes_back_to_the_same_page() -> None:
    client = Client()
    page = client.get("/tournaments/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="language-switcher"' in page

    answer = client.post("/i18n/setlang/", {"language": "it", "next": "/tournaments/"})

    assert answer.status_code == 302
    assert answer["Location"] == "/tournaments/"
    again = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="it"' in again
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert '<html lang="en"' in client.get("/").content.decode()


def test_a_language_that_is_not_offered_is_refused_by_the_switcher() -> None:
    client = Client()

    client.post("/i18n/setlang/", {"language": "xx", "next": "/"})

    assert '<html lang="en"' in client.get("/").content.decode()


def test_money_is_written_as_the_language_writes_it() -> None:
    with translation.override("it"):
        assert money(123456) == "1.234,56"
        assert signed_money(870) == "+8,70"
        assert buy_in(1000, 65) == "10,00 + 0,65"
    with translation.override("en"):
        assert money(123456) == "1,234.56"
        assert money(-5) == "-0.05"


def test_the_browser_scripts_get_their_words_in_the_page_language() -> None:
    italian = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="it")
    english = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="en")

    assert italian.status_code == 200
    assert "javascript" in italian["Content-Type"]
    assert "Notifiche: %(unread)s non lette" in italian.content.decode()
    assert "non lette" not in english.content.decode()


def test_each_language_has_its_own_address_for_the_scripts_words() -> None:
    # The browser keeps the scripts' words for an hour: a page in another language (chosen
    # with the switcher, or an account's own after logging in) must not find the words of
    # the language before in its cache, so each language asks at an address of its own.
    italian = Client().get("/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    english = Client().get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert '<script src="/jsi18n/?language=it">' in italian
    assert '<script src="/jsi18n/?language=en">' in english
