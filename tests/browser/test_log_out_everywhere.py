"""In a real browser: a player logs out everywhere from a phone, and the board she left open
on her laptop stops being hers at once: its socket closes and the page loads again as a
visitor's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Dialog, expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match


@pytest.mark.browser
class LogOutEverywhere(BrowserTestCase):
    def test_the_laptops_board_ends_with_the_session_ended_from_the_phone(self) -> None:
        # given Alice's board open on her laptop
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3))
        laptop = self.new_page()
        self.log_in(laptop, "alice", PASSWORD)
        laptop.goto(self.url(f"/matches/{match_id}/"))
        expect(laptop.locator("#turn-text")).to_contain_text("Your turn")

        # when she logs out everywhere from her phone
        phone = self.new_page(width=390, height=844)
        self.log_in(phone, "alice", PASSWORD)
        phone.goto(self.url("/profile/"))
        button = phone.get_by_role("button", name="Log out everywhere")
        expect(button).to_be_visible()
        self.screenshot(phone, "profile-log-out-everywhere-phone")

        def accept(dialog: Dialog) -> None:
            dialog.accept()

        phone.once("dialog", accept)
        button.click()

        # then the phone is at the log-in page, told what ended
        expect(phone.get_by_text("You were logged out everywhere")).to_be_visible()
        # and the laptop's board loads again as a visitor's: nobody's turn to take there
        expect(laptop.get_by_role("link", name="Log in")).to_be_visible(timeout=10_000)
        expect(laptop.locator("#turn-text")).not_to_contain_text("Your turn")
        self.screenshot(laptop, "board-after-logging-out-everywhere")
