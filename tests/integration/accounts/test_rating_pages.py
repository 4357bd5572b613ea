"""Rating history on the profile and the public player page; the searchable ratings list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from accounts.services import rating_record_match
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_public_player_page_draws_the_rating_history(client: Client) -> None:
    # given a player with three rated results
    hana = UserFactory(username="hana", display_name="Hana Ito")
    rival = UserFactory(display_name="Rival Player")
    rating_record_match(winner=hana, loser=rival, match_length=5, match_id=1)
    rating_record_match(winner=rival, loser=hana, match_length=3, match_id=2)
    rating_record_match(winner=hana, loser=rival, match_length=7, match_id=3)
    hana.profile.refresh_from_db()

    # when anyone opens her page
    page = client.get("/players/hana/").content.decode()

    # then the chart has a start point and one per match, ending at her rating now
    assert "Hana Ito" in page
    polyline = re.search(r'<polyline class="line" points="([^"]+)"', page)
    assert polyline is not None
    assert len(polyline.group(1).split()) == 4
    now = re.search(r'data-testid="chart-now">([\d.]+)<', page)
    assert now is not None
    assert now.group(1) == f"{hana.profile.rating:.1f}"
    assert "Rival Player" in page
    assert page.count('class="result result-won"') == 2


def test_a_player_without_rated_matches_sees_an_honest_empty_chart(client: Client) -> None:
    client.force_login(UserFactory())

    page = client.get("/profile/").content.decode()

    assert 'data-testid="rating-chart"' in page
    assert "no rated matches yet" in page
    assert 'data-testid="chart-now">1500.0<' in page


def test_an_unknown_player_page_is_404(client: Client) -> None:
    assert client.get("/players/nobody/").status_code == 404


def test_the_ratings_list_is_ordered_and_searchable_by_name(client: Client) -> None:
    UserFactory(username="ada", display_name="Ada Lovelace", rating=1650.0)
    UserFactory(username="bob", display_name="Bob Marley", rating=1550.0)
    UserFactory(username="xlove", display_name="Xavier", rating=1400.0)

    everyone = client.get("/ratings/").content.decode()
    found = client.get("/ratings/?q=love").content.decode()

    assert everyone.index("Ada Lovelace") < everyone.index("Bob Marley") < everyone.index("Xavier")
    assert "Ada Lovelace" in found  # by display name
    assert "Xavier" in found  # by username
    assert "Bob Marley" not in found


def test_the_ratings_list_is_paginated(client: Client) -> None:
    for n in range(30):
        UserFactory(display_name=f"Player {n:02d}", rating=1500.0 + n)

    first = client.get("/ratings/").content.decode()
    second = client.get("/ratings/?page=2").content.decode()

    assert "Page 1 of 2" in first
    assert "Player 29" in first
    assert "Player 00" not in first
    assert "Player 00" in second


def test_the_ratings_list_costs_a_fixed_number_of_queries(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    for _ in range(10):
        UserFactory()

    with django_assert_max_num_queries(3):
        assert client.get("/ratings/").status_code == 200
