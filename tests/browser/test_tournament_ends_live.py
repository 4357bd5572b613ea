"""In a real browser: when a tournament's last match ends, its pages say "Finished" and name
the champion without a reload, on the bracket page and on the tournament's own page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from matches.models import Match
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.test_tournament_bracket_live import running_knockout
from tests.integration.tournaments.helpers import concede


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class TournamentEndsInTheBrowser(BrowserTestCase):
    def test_the_state_badge_and_the_champion_follow_the_final_without_a_reload(self) -> None:
        # given: a running knockout of two, one 1-point match, open on both of its pages
        tournament_id = beside_the_browser(lambda: running_knockout("Harbour Final", 2))
        final = Match.objects.get(tournament_id=tournament_id)
        pages = {}
        for path in ("bracket/", ""):
            page = self.new_page()
            page.goto(self.url(f"/tournaments/{tournament_id}/{path}"))
            page.wait_for_selector("[data-bracket-live][data-live=on]")
            expect(page.locator("[data-testid=tournament-state]")).to_have_text("Running")
            pages[path] = page

        # when: the final ends through the match API
        beside_the_browser(lambda: concede(final, User.objects.get(pk=final.player_1_id)))

        # then: both pages say so, and who won, without being loaded again
        champion = User.objects.get(pk=final.player_0_id).profile.display_name
        for path, page in pages.items():
            expect(page.locator("[data-testid=tournament-state]")).to_have_text(
                "Finished", timeout=20_000
            )
            expect(page.locator("[data-testid=champion]")).to_contain_text(champion)
            assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
            self.screenshot(page, f"tournament-ends-live-{path.strip('/') or 'detail'}")
