"""The demo data gives every player a wallet and a rating chart, and can be loaded twice."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from accounts import ledger
from accounts.models import LedgerTransaction, MadeBy, Profile, RatingChange, User
from lobby.demo import DEMO_MATCHES
from lobby.management.commands.load_demo import DEMO_PLAYERS
from lobby.selectors import recent_results

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_demo_players_have_money_and_rating_history_and_a_second_load_changes_nothing() -> None:
    # given the demo loaded once
    call_command("load_demo", stdout=io.StringIO())
    alice = User.objects.get(username="alice")
    balances = ledger.balances(user=alice)
    changes = RatingChange.objects.count()
    movements = LedgerTransaction.objects.count()

    # when it is loaded again
    call_command("load_demo", stdout=io.StringIO())

    # then
    assert balances["FUN"] > 0
    assert balances["REAL"] == 5000
    # 60 rated results for the charts, and the rated demo matches played out
    assert changes == 2 * (60 + len(DEMO_MATCHES))
    assert RatingChange.objects.filter(user=alice).exists()
    assert RatingChange.objects.count() == changes
    assert LedgerTransaction.objects.count() == movements
    assert ledger.balances(user=alice) == balances
    assert ledger.currency_total("FUN") == ledger.currency_total("REAL") == 0


def test_the_home_page_shows_the_demos_finished_matches_and_links_top_players(
    client: object,
) -> None:
    from django.test import Client

    assert isinstance(client, Client)
    call_command("load_demo", stdout=io.StringIO())

    page = client.get("/").content.decode()

    assert len(recent_results()) == len(DEMO_MATCHES)
    assert 'data-testid="home-recent-results"' in page
    assert 'href="/players/alice/"' in page
    # the computer is at the demo tournaments' boards, so their matches are live
    live = page.split('data-testid="home-live-matches"')[1].split("</ul>")[0]
    assert "Farid Haddad" in live


def test_every_demo_player_is_played_by_the_computer_and_every_demo_account_is_marked() -> None:
    # given the demo loaded, then a demo player's marks lost (made before they existed)
    call_command("load_demo", stdout=io.StringIO())
    Profile.objects.filter(user__username="alice").update(made_by=MadeBy.SIGNUP, bot_strength="")

    # when it is loaded again
    call_command("load_demo", stdout=io.StringIO())

    # then the sixteen players are the computer's, their strength following their rating,
    # and every account the loader made says so; the organizer and staff play themselves
    profiles = {p.user.username: p for p in Profile.objects.select_related("user")}
    players = [name for name, *_ in DEMO_PLAYERS]
    assert profiles["alice"].bot_strength == "advanced"
    assert profiles["kate"].bot_strength == "casual"
    assert profiles["pablo"].bot_strength == "beginner"
    assert all(profiles[name].bot_strength for name in players)
    assert profiles["orla"].bot_strength == profiles["sam"].bot_strength == ""
    assert {profiles[name].made_by for name in [*players, "orla", "sam"]} == {MadeBy.DEMO}


def test_the_loader_prints_every_demo_log_in() -> None:
    from lobby.management.commands.load_demo import DEMO_ORGANIZER, DEMO_PLAYERS, DEMO_STAFF

    printed = io.StringIO()
    call_command("load_demo", stdout=printed)

    said = printed.getvalue()
    assert "'crawford-demo'" in said
    assert f"{DEMO_ORGANIZER[0]} (organizer)" in said
    assert f"{DEMO_STAFF[0]} (staff)" in said
    names = said.split("players:", 1)[1].split()
    assert names == [player[0] for player in DEMO_PLAYERS]
    assert len(names) == 16
