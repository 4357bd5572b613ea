"""A big field's bracket page stays small: the current round and the viewer's own path are
drawn, every other round is one fetch away, and a phone gets it compressed."""

from __future__ import annotations

import gzip
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from tests.integration.tournaments.helpers import open_tournament, organizer, players
from tournaments import services
from tournaments.models import Tournament

# What a phone may be sent for the page of a 256-player knockout, whose first round alone
# is 128 matches: the whole bracket is 255.
PHONE_BUDGET_BYTES = 24_000
PHONE = "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile"
SLOT = 'data-testid="slot-'


def started_knockout(count: int) -> tuple[Tournament, list[User]]:
    owner = organizer()
    tournament = open_tournament(owner, name="Big Saturday")
    field = players(count)
    for player in field:
        services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    return tournament, field


@pytest.mark.django_db
def test_the_page_of_a_256_player_knockout_draws_its_current_round_and_fits_a_phone() -> None:
    # given: a 256-player knockout just started
    tournament, _ = started_knockout(256)
    client = Client(HTTP_USER_AGENT=PHONE, HTTP_ACCEPT_ENCODING="gzip")

    # when: a phone opens its bracket
    response = client.get(f"/tournaments/{tournament.pk}/bracket/")

    # then: it is sent compressed, within the budget
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert len(response.content) <= PHONE_BUDGET_BYTES
    html = gzip.decompress(response.content).decode()
    # the first round's 128 matches are all there, the round marked as the current one
    assert len(re.findall(r'data-testid="slot-0-\d+"', html)) == 128
    current = html.index("bracket-round-current")
    assert html.index('data-round="main:0"', current) < html.index('data-round="main:1"')
    # the rounds of 128, 64, 32 and 16 players are a button away; the quarter-finals on drawn
    later = re.findall(r'data-round-url="([^"]+)"', html)
    assert len(later) == 4
    assert len(re.findall(r'data-testid="slot-[5-7]-\d+"', html)) == 4 + 2 + 1
    fetched = [Client().get(url) for url in later]
    assert [page.content.decode().count(SLOT) for page in fetched] == [64, 32, 16, 8]
    # the whole bracket, counted over the page and its rounds
    assert html.count(SLOT) + sum(page.content.decode().count(SLOT) for page in fetched) == 255


@pytest.mark.django_db
def test_a_player_sees_their_own_path_and_a_refresh_keeps_the_rounds_opened() -> None:
    tournament, field = started_knockout(256)
    me = field[17]
    client = Client()
    client.force_login(me)

    html = client.get(f"/tournaments/{tournament.pk}/bracket/").content.decode()
    own = html[html.index('data-testid="own-path"') : html.index('data-testid="bracket"')]
    assert f'data-username="{me.username}"' in own
    assert own.count(SLOT) == 1  # their first-round match

    # the live page fetches the fragment again with the rounds it has opened
    fragment = client.get(f"/tournaments/{tournament.pk}/bracket/fragment/?rounds=main:1")
    assert len(re.findall(r'data-testid="slot-1-\d+"', fragment.content.decode())) == 64
    refused = client.get(f"/tournaments/{tournament.pk}/bracket/fragment/?rounds=main:x")
    assert refused.status_code == 400
    assert "is not a flight and a round" in refused.content.decode()
    missing = client.get(f"/tournaments/{tournament.pk}/bracket/round/main/9/")
    assert missing.status_code == 404


REGISTRATION_STATEMENTS = (
    6  # BEGIN, the lock, the checks with the standing, the seat, the buy-in, COMMIT
)


@pytest.mark.django_db(transaction=True)
def test_a_registration_takes_the_same_few_statements_however_many_are_in() -> None:
    # given: a knockout open for entries, 30 players in it already
    tournament = open_tournament(organizer(), name="Open Knockout")
    field = players(32)
    for player in field[:30]:
        services.entry_register(tournament_id=tournament.pk, user=player)

    # when: two more enter, each counted with what runs once it is committed
    counts = []
    for player in field[30:]:
        with CaptureQueriesContext(connection) as captured:
            services.entry_register(tournament_id=tournament.pk, user=player)
        counts.append(len(captured))

    # then
    assert counts == [REGISTRATION_STATEMENTS] * 2
