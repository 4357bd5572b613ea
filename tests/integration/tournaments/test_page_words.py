"""A tournament's page says what is true in its state: the prize note of a tournament under
way, an organizer's bar only with something to do in it, the consolation's winner beside
the champion, and the rules it is played by, consolation and reset final included."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.integration.tournaments.helpers import (
    concede_round,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import scheduler, services
from tournaments.models import Tournament, TournamentFormat

pytestmark = pytest.mark.django_db(transaction=True)


def text_of(html: str) -> str:
    """The page's words, without its markup, its runs of space made one."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def tournament(count: int, **fields: object) -> Tournament:
    owner = organizer()
    made = open_tournament(owner, name="Harbour Cup")
    Tournament.objects.filter(pk=made.pk).update(**fields)
    register_all(made, players(count))
    return made


def start(made: Tournament) -> None:
    services.tournament_start(tournament_id=made.pk, user=made.organizer)
    scheduler.matches_start(tournament_id=made.pk)


def page(made: Tournament, client: Client | None = None) -> str:
    answer = (client or Client()).get(f"/tournaments/{made.pk}/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_prize_note_speaks_of_the_final_field_only_before_the_start() -> None:
    made = tournament(4, buy_in_cents=1000)
    assert "the final field decides" in text_of(page(made))

    start(made)

    words = text_of(page(made))
    assert "the final field decides" not in words
    assert "Paid from the field of 4 players." in words


def test_a_finished_tournaments_organizer_sees_no_empty_organizer_bar() -> None:
    made = tournament(2)
    start(made)
    while concede_round(made):
        pass
    made.refresh_from_db()
    assert made.state == "finished", made.state
    client = Client()
    client.force_login(made.organizer)

    html = page(made, client)

    assert 'data-testid="organizer-actions"' not in html


def test_a_finished_knockout_names_its_champion_and_its_consolation_winner() -> None:
    made = tournament(8, consolation_through_round=0)
    start(made)
    while concede_round(made):
        pass
    made.refresh_from_db()
    assert made.state == "finished", made.state

    html = page(made)

    champion = re.search(r'data-testid="champion">(.*?)</p>', html, re.S)
    assert champion is not None
    consolation = re.search(r'data-testid="consolation-champion">(.*?)<', html)
    assert consolation is not None
    assert consolation.group(1).strip() != ""
    assert made.champion is not None
    assert made.champion.profile.display_name in champion.group(1)
    assert consolation.group(1) not in champion.group(1).split("Consolation")[0]


def test_the_rules_name_the_consolation_and_the_reset_final() -> None:
    made = tournament(
        8,
        format=TournamentFormat.DOUBLE_ELIMINATION,
        grand_final_reset=True,
        consolation_through_round=1,
    )

    words = text_of(page(made))

    assert "Consolation for those knocked out in the first 2 rounds of the losers' flight" in words
    assert (
        "Grand final a reset final is played when the losers' flight winner wins the first" in words
    )


def test_the_rules_name_the_last_chance_and_the_consolation_it_feeds() -> None:
    made = tournament(
        8, consolation_through_round=0, last_chance_reenters_at=4, last_chance_entry="fresh"
    )

    words = text_of(page(made))

    assert (
        "Last chance for those knocked out before 4 players are left; its winner comes back "
        "into the main flight with them · a fresh draw once everyone it takes is known" in words
    )
    assert "Consolation for those knocked out in the first round of the last chance" in words


def test_the_rules_say_where_a_last_chance_beside_a_double_elimination_leads() -> None:
    made = tournament(12, format=TournamentFormat.DOUBLE_ELIMINATION, last_chance_reenters_at=2)

    words = text_of(page(made))

    assert (
        "Last chance for those knocked out of the losers' flight while more than 2 are left in "
        "it; its winner plays the losers' flight's winner for a place in the grand final · "
        "players enter round by round as they are knocked out" in words
    )


def test_a_knockout_without_a_consolation_names_none() -> None:
    made = tournament(4)

    html = page(made)

    assert 'data-testid="rule-consolation"' not in html
    assert 'data-testid="rule-reset"' not in html


def test_a_swings_knockouts_are_listed_by_place_with_no_count_to_contradict_them() -> None:
    made = tournament(3, format=TournamentFormat.SWING, starting_chips=100, cpp_levels=[100])
    start(made)
    while concede_round(made):
        pass

    html = Client().get(f"/tournaments/{made.pk}/bracket/").content.decode()

    listed = re.search(r'<(ul|ol)[^>]*data-testid="knockouts"[^>]*>(.*?)</\1>', html, re.S)
    assert listed is not None
    assert listed.group(1) == "ul"  # an <ol reversed> counted 2, 1 beside "3rd", "2nd"
    assert "out in 3rd place" in text_of(listed.group(2))
    assert "out in 2nd place" in text_of(listed.group(2))
