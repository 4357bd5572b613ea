"""In a real browser: a 256-player knockout's bracket on a phone and on a laptop. The page
draws the current round and the player's own match; a later round is opened with its
button; a result then reaches the open round without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from matches.models import Match, MatchStatus
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD
from tests.integration.tournaments.helpers import concede, open_tournament, organizer, players
from tournaments import scheduler, services


def big_knockout() -> int:
    owner = organizer()
    tournament = open_tournament(owner, name="Big Saturday")
    for player in players(256):
        services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    return tournament.pk


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class BigBracketInTheBrowser(BrowserTestCase):
    def test_a_big_bracket_opens_a_round_on_demand_and_stays_live(self) -> None:
        # given: a 256-player knockout, the first round under way
        tournament_id = beside_the_browser(big_knockout)
        match = (
            Match.objects.filter(tournament_id=tournament_id, status=MatchStatus.PLAYING)
            .order_by("pk")
            .first()
        )
        assert match is not None
        player = User.objects.get(pk=match.player_0_id)
        for width in (390, 1280):
            page = self.new_page(width=width)
            page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
            page.wait_for_selector("[data-bracket-live][data-live=on]")
            expect(page.locator("[data-testid^=slot-0-]")).to_have_count(128)
            expect(page.locator("[data-testid^=slot-1-]")).to_have_count(0)
            self.screenshot(page, f"tournament-big-bracket-{width}")
            page.close()

        # when: a player opens it and the round of 128 with its button
        page = self.new_page(width=390)
        self.log_in(page, player.username, PASSWORD)
        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")
        expect(page.locator("[data-testid=own-path] .slot")).to_have_count(1)
        page.click("[data-testid=show-main-1]")
        expect(page.locator("[data-testid^=slot-1-]")).to_have_count(64)
        self.screenshot(page, "tournament-big-bracket-own-path-390")

        # and a first-round match ends through the match API
        loser = User.objects.get(pk=match.player_1_id)
        beside_the_browser(lambda: concede(match, loser))

        # then: the winner shows in the opened round, in their own path, with no reload
        next_slot = page.locator(f".bracket-col [data-username={player.username}]")
        expect(next_slot).to_have_count(2, timeout=20_000)  # the first round's and the next
        expect(page.locator("[data-testid=own-path] .slot")).to_have_count(1)
        expect(page.locator("[data-testid=own-path] .side-won")).to_have_count(1)
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        assert page.get_attribute("[data-bracket-live]", "data-refreshed") is None
        self.screenshot(page, "tournament-big-bracket-live-390")
