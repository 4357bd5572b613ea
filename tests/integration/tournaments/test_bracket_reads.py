"""The bracket is read in the same few queries whatever its size, and shows every slot."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.integration.tournaments.helpers import open_tournament, organizer, players, register_all
from tournaments import selectors, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def running(count: int, prefix: str) -> Tournament:
    owner = organizer(f"{prefix}-orla")
    tournament = open_tournament(owner, buy_in_cents=0, fee_cents=0)
    register_all(tournament, players(count, prefix=prefix))
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    services.matches_start(tournament_id=tournament.pk)
    return tournament


BRACKET_QUERIES = 3  # the tournament, its pairings with both players' names, its matches


@pytest.mark.parametrize("count", [5, 64])
def test_the_bracket_page_costs_the_same_queries_at_any_size(
    count: int, django_assert_num_queries: Any
) -> None:
    tournament = running(count, "p")
    client = Client()

    with django_assert_num_queries(BRACKET_QUERIES):
        response = client.get(f"/tournaments/{tournament.pk}/bracket/")

    assert response.status_code == 200
    rounds = selectors.bracket(tournament)
    assert response.content.count(b'data-testid="slot-') == sum(len(r.slots) for r in rounds)


def test_the_bracket_api_lists_rounds_with_players_byes_and_live_matches() -> None:
    tournament = running(5, "p")

    body = Client().get(f"/api/tournaments/{tournament.pk}/bracket/").json()

    assert [r["name"] for r in body["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    first = body["rounds"][0]["slots"]
    assert sum(slot["bottom_bye"] for slot in first) == 3
    live = [slot for slot in first if slot["status"] == "live"]
    assert len(live) == 1
    assert live[0]["match_id"] is not None
    assert live[0]["score"] == [0, 0]
    bye_winners = [slot["winner"] for slot in first if slot["status"] == "bye"]
    semi_players = [
        side["username"]
        for slot in body["rounds"][1]["slots"]
        for side in (slot["top"], slot["bottom"])
        if side
    ]
    assert sorted(bye_winners) == sorted(semi_players)
