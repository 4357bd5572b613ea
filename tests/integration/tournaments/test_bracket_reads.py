"""The bracket is read in the same few queries whatever its size, and shows every slot."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from matches import presence
from matches.models import Match
from tests.integration.tournaments.helpers import open_tournament, organizer, players, register_all
from tournaments import bracket, scheduler, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def running(count: int, prefix: str) -> Tournament:
    owner = organizer(f"{prefix}-orla")
    tournament = open_tournament(owner, buy_in_cents=0, fee_cents=0)
    register_all(tournament, players(count, prefix=prefix))
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    return tournament


BRACKET_QUERIES = 4  # the tournament, its pairings with both names, its matches, the seeds


@pytest.mark.parametrize("count", [5, 64])
def test_the_bracket_page_costs_the_same_queries_at_any_size(
    count: int, django_assert_num_queries: Any
) -> None:
    tournament = running(count, "p")
    client = Client()

    with django_assert_num_queries(BRACKET_QUERIES):
        response = client.get(f"/tournaments/{tournament.pk}/bracket/")

    assert response.status_code == 200
    rounds = bracket.bracket(tournament)
    assert response.content.count(b'data-testid="slot-') == sum(len(r.slots) for r in rounds)


def test_the_bracket_api_lists_rounds_with_players_byes_and_started_matches() -> None:
    tournament = running(5, "p")

    body = Client().get(f"/api/tournaments/{tournament.pk}/bracket/").json()

    assert [r["name"] for r in body["rounds"]] == ["Quarter-finals", "Semi-finals", "Final"]
    first = body["rounds"][0]["slots"]
    assert sum(slot["bottom_bye"] for slot in first) == 3
    started = [slot for slot in first if slot["match_id"] is not None]
    assert len(started) == 1
    assert started[0]["status"] == "waiting for players"
    assert started[0]["score"] == [0, 0]
    bye_winners = [slot["winner"] for slot in first if slot["status"] == "bye"]
    semi_players = [
        side["username"]
        for slot in body["rounds"][1]["slots"]
        for side in (slot["top"], slot["bottom"])
        if side
    ]
    assert sorted(bye_winners) == sorted(semi_players)


def test_the_tournament_page_says_its_clock_in_words() -> None:
    owner = organizer("clock-orla")
    blitz = {"kind": "delay", "move_seconds": 8, "delay_seconds": 8, "reserve_seconds": 30}
    correspondence = {"kind": "days", "move_seconds": 2 * 24 * 3600, "reserve_seconds": 0}

    pages = {
        words: Client().get(f"/tournaments/{open_tournament(owner, clock=clock).pk}/").content
        for words, clock in (
            ("8 s a move, 30 s a point", blitz),
            ("Correspondence: 2 days a move", correspondence),
        )
    }

    for words, page in pages.items():
        assert words in page.decode()


def first_round_match(tournament: Tournament) -> Match:
    """The one match of a 5-player knockout's first round (three players have byes)."""
    slots = bracket.bracket(tournament)[0].slots
    return Match.objects.get(pk=next(slot.match_id for slot in slots if slot.match_id))


def test_a_match_nobody_has_come_to_waits_for_players_and_is_live_once_both_come() -> None:
    # given a running knockout whose first-round match nobody has come to
    tournament = running(5, "w")
    match = first_round_match(tournament)
    page = f"/tournaments/{tournament.pk}/bracket/"
    slot = f'href="/matches/{match.pk}/" data-testid="slot-0-'

    def status_shown() -> tuple[str, bool]:
        html = Client().get(page).content.decode()
        shown = html[html.index(slot) :].split('data-status="', 1)[1].split('"', 1)[0]
        return shown, "Watch →" in html

    assert status_shown() == ("waiting for players", False)

    # when one player comes to the board, then the other
    presence.connection_open(match_id=match.pk, user=match.player(0), channel="seat-0")
    assert status_shown() == ("waiting for players", False)
    presence.connection_open(match_id=match.pk, user=match.player(1), channel="seat-1")

    # then the match is live, to be watched
    assert status_shown() == ("live", True)


def test_a_match_both_came_to_but_nobody_moved_lately_is_in_play_not_live() -> None:
    tournament = running(5, "q")
    match = first_round_match(tournament)
    an_hour_ago = timezone.now() - timedelta(hours=1)
    Match.objects.filter(pk=match.pk).update(seen_0=True, seen_1=True, turn_started_at=an_hour_ago)

    slots = bracket.bracket(tournament)[0].slots

    assert [slot.status for slot in slots if slot.match_id == match.pk] == ["in play"]
