"""In a real browser: a challenge's board speaks to each of its two players as what they
are: the challenger waits for the other to accept; the one challenged is asked, and never
told to wait for herself."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import api_for


@pytest.mark.browser
class AChallengeOnTheBoard(BrowserTestCase):
    def test_the_challenged_player_is_asked_and_the_challenger_waits(self) -> None:
        # given Rosa's challenge to Kate, not answered yet
        rosa = UserFactory(username="rosa", display_name="Rosa Rinaldi")
        UserFactory(username="kate", display_name="Kate O'Brien")
        match_id = beside_the_browser(
            lambda: api_for(rosa).post("/api/matches/", {"opponent": "kate", "length": 3}).json()
        )["id"]

        # when each of them opens its board
        words = {}
        for username in ("kate", "rosa"):
            page = self.new_page()
            self.log_in(page, username, PASSWORD)
            page.goto(self.url(f"/matches/{match_id}/"))
            expect(page.locator("#turn-text")).not_to_have_text("Setting up the board…")
            words[username] = page.locator("#turn-text").inner_text()
            self.screenshot(page, f"challenge-board-{username}")

        # then Kate is asked to answer Rosa; Rosa waits for Kate
        assert words["kate"] == "Rosa Rinaldi challenges you: accept or decline"
        assert "Waiting for" not in words["kate"]
        assert words["rosa"] == "Waiting for Kate O'Brien to accept the challenge"
