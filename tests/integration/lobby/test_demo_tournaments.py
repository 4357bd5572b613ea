"""The demo data holds a running knockout with live matches, and loading it again adds nothing."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client

from accounts import ledger
from matches.models import Match, MatchStatus
from tournaments.models import Tournament, TournamentState

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_the_demo_has_a_running_knockout_and_loads_twice_without_change() -> None:
    call_command("load_demo", stdout=io.StringIO())
    weekly = Tournament.objects.get(name="Crawford Weekly Knockout")
    states = dict(Tournament.objects.values_list("name", "state"))
    matches = Match.objects.filter(tournament_id=weekly.pk).count()

    call_command("load_demo", stdout=io.StringIO())

    assert weekly.state == TournamentState.RUNNING
    assert matches == 4  # 12 players in a bracket of 16: the top 4 seeds have byes
    assert Match.objects.filter(tournament_id=weekly.pk, status=MatchStatus.PLAYING).count() == 4
    assert states["Friday Sit & Go"] == TournamentState.REGISTRATION
    assert dict(Tournament.objects.values_list("name", "state")) == states
    assert Match.objects.filter(tournament_id=weekly.pk).count() == matches
    assert ledger.escrow_balance(escrow_ref=weekly.escrow_ref, currency="FUN") == 12 * 1000


def test_the_home_page_shows_tournaments_filling_up_and_running_to_visitors(client: Client) -> None:
    call_command("load_demo", stdout=io.StringIO())

    page = client.get("/").content.decode()

    filling = page.split('data-testid="home-filling-tournaments"')[1].split("</ul>")[0]
    running = page.split('data-testid="home-running-tournaments"')[1].split("</ul>")[0]
    assert "Friday Sit &amp; Go" in filling
    assert '<span data-testid="seats">3 / 8</span>' in filling
    assert "Crawford Weekly Knockout" in running
    assert "Crawford Weekly Knockout" not in filling


def test_the_demo_has_a_running_swing_with_games_in_play(client: Client) -> None:
    call_command("load_demo", stdout=io.StringIO())
    swing = Tournament.objects.get(name="Thursday Swing")

    assert swing.state == TournamentState.RUNNING
    assert Match.objects.filter(tournament_id=swing.pk, status=MatchStatus.PLAYING).count() == 2
    page = client.get(f"/tournaments/{swing.pk}/bracket/").content.decode()
    assert 'data-testid="leaderboard"' in page
    assert "waiting for an opponent" in page  # five players: one waits
