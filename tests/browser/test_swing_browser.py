"""In a real browser: a swing's chip leaderboard updates by itself when a game ends through
the match API, and the next game starts by itself; the organizer's form offers swing with
only its own fields."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from matches.models import Match, MatchStatus
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD
from tests.integration.tournaments.helpers import (
    concede,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import scheduler, services


def running_swing(count: int) -> int:
    owner = organizer()
    tournament = open_tournament(
        owner,
        name="Thursday Swing",
        format="swing",
        starting_chips=1000,
        cpp_levels=(100, 150),
        cpp_step=50,
    )
    register_all(tournament, players(count))
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    return tournament.pk


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class SwingInTheBrowser(BrowserTestCase):
    def test_the_chip_leaderboard_moves_without_reloading(self) -> None:
        # given: a running swing of three (one waiting), its page open
        tournament_id = beside_the_browser(lambda: running_swing(3))
        match = Match.objects.get(tournament_id=tournament_id)
        page = self.new_page()
        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")
        expect(page.locator("[data-testid=swing-level]")).to_contain_text("100")
        expect(page.locator("[data-testid=waiting]")).to_have_count(1)
        expect(page.locator("[data-testid=swing-games] li")).to_have_count(1)
        self.screenshot(page, "swing-before")

        # when: the game's second player resigns a single game through the match API
        loser = User.objects.get(pk=match.player_1_id)
        winner = User.objects.get(pk=match.player_0_id)
        beside_the_browser(lambda: concede(match, loser))

        # then: the chips change on the page, the CPP has risen a level, and the winner's
        # next game (against the player who waited) is listed: all without a reload
        expect(
            page.locator(f"[data-testid=chips-{winner.username}] [data-testid=chips]")
        ).to_have_text("1,100", timeout=20_000)
        expect(
            page.locator(f"[data-testid=chips-{loser.username}] [data-testid=chips]")
        ).to_have_text("900")
        expect(page.locator("[data-testid=swing-level]")).to_contain_text("150")
        expect(page.locator("[data-testid=chips-chart] polyline")).to_have_count(3)
        expect(page.locator("[data-testid=swing-games] li")).to_have_count(1)
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        assert (
            Match.objects.filter(tournament_id=tournament_id, status=MatchStatus.PLAYING).count()
            == 1
        )
        self.screenshot(page, "swing-after")
        page.set_viewport_size({"width": 390, "height": 844})
        self.screenshot(page, "swing-phone")

    def test_the_form_offers_swing_with_its_own_fields(self) -> None:
        beside_the_browser(organizer)
        page = self.new_page()
        self.log_in(page, "orla", PASSWORD)
        page.goto(self.url("/tournaments/new/"))
        page.select_option("#id_format", "swing")
        expect(page.locator("#id_starting_chips")).to_be_visible()
        expect(page.locator("#id_cpp_levels")).to_be_visible()
        expect(page.locator("#id_round_lengths")).to_be_hidden()
        expect(page.locator("#id_rounds")).to_be_hidden()
        page.fill("#id_name", "Friday Swing")
        page.fill("#id_starting_chips", "1000")
        page.fill("#id_cpp_levels", "10, 20, 30")
        page.fill("#id_cpp_step", "10")
        self.screenshot(page, "swing-form")
        page.click("text=Create the tournament")
        page.wait_for_selector("[data-testid=open]")
        expect(page.locator("[data-testid=cpp-levels]")).to_contain_text("10, 20, 30, then +10")
