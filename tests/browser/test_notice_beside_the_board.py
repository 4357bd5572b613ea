"""In a real browser, on a desktop: a notice arriving while a player is at a board sits in
the page's flow above the board, never over the opponent's name and clock."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from lobby.notifications import notify
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.geometry import misfits
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match


@pytest.mark.browser
class ANoticeBesideTheBoard(BrowserTestCase):
    def test_a_notice_on_the_board_page_leaves_the_names_and_clocks_uncovered(self) -> None:
        # given Kate at her board with Liam, on a desktop
        kate = UserFactory(username="kate", display_name="Kate O'Brien")
        liam = UserFactory(username="liam", display_name="Liam Walsh")
        match_id = beside_the_browser(lambda: start_match(kate, liam, length=5))
        page = self.new_page(width=1280, height=900)
        self.log_in(page, "kate", PASSWORD)
        page.goto(self.url(f"/matches/{match_id}/"))
        page.wait_for_selector("[data-notices][data-live=on]", state="attached")

        # when a challenge from someone else arrives as a notice card
        beside_the_browser(
            lambda: notify(
                user_id=kate.pk,
                kind="challenge",
                key="board:challenge",
                text="Rosa Rinaldi challenges you to a 3-point match.",
                url="/play/",
            )
        )
        card = page.locator("[data-testid=notice-card]")
        expect(card).to_be_visible()
        self.screenshot(page, "notice-beside-the-board")

        # then it covers neither the scoreboard nor anything else
        score = page.locator("[data-testid=score]").bounding_box()
        shown = card.bounding_box()
        assert score is not None
        assert shown is not None
        apart = (
            shown["x"] >= score["x"] + score["width"]
            or score["x"] >= shown["x"] + shown["width"]
            or shown["y"] >= score["y"] + score["height"]
            or score["y"] >= shown["y"] + shown["height"]
        )
        assert apart, f"the notice {shown} covers the scoreboard {score}"
        assert misfits(page) == []
