"""In two real browsers, one a phone: a money session's double beavered, and the beaver raccooned.

Every cube button shows because the server says the player may use it (``may_double``,
``may_beaver``, ``may_raccoon``, ...); the dice come from a known seed.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import LiveTable
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match

CUBE_BUTTONS = ("roll", "double", "take", "drop", "beaver", "raccoon")


def shows_only(page: Page, *buttons: str) -> None:
    """Of the cube and roll buttons, exactly ``buttons`` are on the page."""
    for button in CUBE_BUTTONS:
        locator = page.locator(f"[data-testid={button}]")
        if button in buttons:
            expect(locator).to_be_visible()
        else:
            expect(locator).to_be_hidden()


@pytest.mark.browser
class TheCubeInMoneyPlay(BrowserTestCase):
    def test_a_double_is_beavered_and_the_beaver_raccooned_from_the_board(self) -> None:
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id = beside_the_browser(
            lambda: start_match(
                alice, bruno, money=True, stake_cents=10, beavers=True, raccoons=True
            )
        )
        # Bruno plays on a phone.
        pages = {"alice": self.new_page(), "bruno": self.new_page(width=390, height=844)}
        for username, page in pages.items():
            self.log_in(page, username, PASSWORD)
            page.goto(self.url(f"/matches/{match_id}/"))
            expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        expect(pages["alice"].locator("#match-kind")).to_have_text("0.10 per point · FUN · unrated")
        table = LiveTable(match_id, pages)
        state = table.take_turn()
        assert state["game"]["turn"] == "bruno"

        # Bruno, on roll with the cube in the middle, doubles.
        expect(pages["bruno"].locator("#turn-text")).to_have_text(
            "Your turn: roll the dice or double"
        )
        shows_only(pages["bruno"], "roll", "double")
        table.press("bruno", "double")
        expect(pages["alice"].locator("#turn-text")).to_have_text(
            "Bruno Bianchi doubles to 2: take, drop or beaver?"
        )
        shows_only(pages["alice"], "take", "drop", "beaver")
        shows_only(pages["bruno"])
        expect(pages["bruno"].locator("#turn-text")).to_have_text(
            "You doubled to 2; Alice Adams is deciding"
        )
        self.screenshot(pages["alice"], "money-cube-doubled")

        # Alice beavers: the cube is offered back at 4, and a beaver cannot be dropped.
        table.press("alice", "beaver")
        expect(pages["bruno"].locator("#turn-text")).to_have_text(
            "Alice Adams beavers to 4: take or raccoon?"
        )
        shows_only(pages["bruno"], "take", "raccoon")
        shows_only(pages["alice"])
        for page in pages.values():
            expect(page.locator("[data-testid=cube]")).to_have_class("cube cube-offered")
            expect(page.locator("[data-testid=cube]")).to_have_attribute("data-value", "4")
        self.screenshot(pages["bruno"], "money-cube-beavered-phone")

        # Bruno raccoons: the game goes on at 8 with the cube on Bruno's side, his to turn again.
        state = table.press("bruno", "raccoon")
        assert state["game"]["cube"] == {**state["game"]["cube"], "value": 8, "owner": "bruno"}
        expect(pages["bruno"].locator("[data-testid=cube]")).to_have_attribute(
            "data-place", "bottom"
        )
        expect(pages["alice"].locator("[data-testid=cube]")).to_have_attribute("data-place", "top")
        expect(pages["alice"].locator("[data-testid=cube]")).to_have_attribute("data-value", "8")
        shows_only(pages["bruno"], "roll", "double")
        shows_only(pages["alice"])
        for page in pages.values():
            moves = page.locator("[data-testid=move-list]")
            expect(moves).to_contain_text("Doubles => 2")
            expect(moves).to_contain_text("Beavers => 4")
            expect(moves).to_contain_text("Raccoons => 8")
        self.screenshot(pages["bruno"], "money-cube-raccooned-phone")
        self.screenshot(pages["alice"], "money-cube-raccooned")
