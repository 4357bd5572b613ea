"""Every page a player or staff member opens, served in Italian, leaves none of the project's
words in English.

The scene is the one the layout test visits (tests/browser/every_page.py): tournaments of
each format before, during and after their play, matches in each state, an analysis, a
wallet with lines, a dispute, a fair-play case and a withdrawal awaiting approval. Each page
is asked for twice from the same rows, with ``Accept-Language: en`` and ``it``; what reads
the same in both, once the rows' own words (names, reasons, file names) and the words both
languages share are masked, is a string the project forgot to translate
(``tests.untranslated``). What the pages' scripts write is checked in the browser tests of
each page in Italian.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts.models import User
from tests.browser.every_page import VIEWER, every_page
from tests.untranslated import untranslated
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Words the scene's rows carry: the uploaded match's players and file, the reasons staff
# typed for a withdrawal and a dispute.
ROWS = ["Alice", "Bob", "crawford_3pt.mat", "A cash-out to the bank"]


def _data() -> list[str]:
    names = [
        value
        for user in User.objects.select_related("profile")
        for value in (user.username, user.profile.display_name)
    ]
    with translation.override("it"):
        month = date_format(timezone.now(), "M")
    return [*names, *Tournament.objects.values_list("name", flat=True), *ROWS, month]


def _untranslated_on(client: Client, path: str, data: list[str]) -> list[str]:
    english = client.get(path, HTTP_ACCEPT_LANGUAGE="en")
    italian = client.get(path, HTTP_ACCEPT_LANGUAGE="it")
    if english.status_code != 200 or italian.status_code != 200:
        return [f"{path} answered {english.status_code} / {italian.status_code}"]
    if 'lang="it"' not in italian.content.decode():
        return [f"{path} is not served in Italian"]
    left = untranslated(english.content.decode(), italian.content.decode(), data)
    return [f"{path} {text}" for text in left]


def test_every_page_of_a_player_and_of_staff_reads_in_italian() -> None:
    scene = every_page()
    data = _data()
    found: list[str] = []
    for who, pages in ((VIEWER, scene.player_pages), ("sam", scene.staff_pages)):
        client = Client()
        client.force_login(User.objects.get(username=who))
        for _name, path in pages:
            found += _untranslated_on(client, path, data)
    visitor = Client()
    for path in ("/", "/login/", "/signup/", "/tournaments/", "/ratings/", "/password/reset/"):
        found += _untranslated_on(visitor, path, data)

    assert found == [], "\n".join(found)
