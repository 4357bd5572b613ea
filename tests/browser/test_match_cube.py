"""In two real browsers, one a phone: match swing's match stake doubled and taken from the
board, the match cube drawn beside the game cube.

The match cube's buttons show because the server says the player may use them
(``may_match_double``, ``may_match_take``, ``may_match_drop``); the dice come from a known
seed.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from matches.models import Match
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import LiveTable
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match

BUTTONS = ("roll", "double", "match-double", "match-take", "match-drop")
NAMES = {"alice": "Alice Adams", "bruno": "Bruno Bianchi"}


def shows_only(page: Page, *buttons: str) -> None:
    """Of the roll and cube buttons, exactly ``buttons`` are on the page."""
    for button in BUTTONS:
        locator = page.locator(f"[data-testid={button}]")
        if button in buttons:
            expect(locator).to_be_visible()
        else:
            expect(locator).to_be_hidden()


def match_swing(alice: object, bruno: object) -> int:
    match_id = start_match(alice, bruno, length=5)  # type: ignore[arg-type]
    Match.objects.filter(pk=match_id).update(match_cube=1, crawford_rule=False)
    return match_id


@pytest.mark.browser
class TheMatchCube(BrowserTestCase):
    def test_the_match_stake_is_doubled_and_taken_from_the_board_on_a_phone_too(self) -> None:
        alice = UserFactory(username="alice", display_name=NAMES["alice"])
        bruno = UserFactory(username="bruno", display_name=NAMES["bruno"])
        match_id = beside_the_browser(lambda: match_swing(alice, bruno))
        # Bruno plays on a phone.
        pages = {"alice": self.new_page(), "bruno": self.new_page(width=390, height=844)}
        for username, page in pages.items():
            self.log_in(page, username, PASSWORD)
            page.goto(self.url(f"/matches/{match_id}/"))
            expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        table = LiveTable(match_id, pages)
        doubler = table.take_turn()["game"]["turn"]
        taker = "alice" if doubler == "bruno" else "bruno"
        # The taker also follows the match on a phone of his own.
        answering_phone = self.new_page(width=390, height=844)
        self.log_in(answering_phone, taker, PASSWORD)
        answering_phone.goto(self.url(f"/matches/{match_id}/"))

        # At the start of his turn the doubler may roll, double the game or the match stake.
        expect(pages[doubler].locator("#turn-text")).to_have_text(
            "Your turn: roll the dice, double or double the match stake"
        )
        shows_only(pages[doubler], "roll", "double", "match-double")
        for page in pages.values():
            expect(page.locator("[data-testid=match-cube]")).to_have_attribute(
                "data-place", "centre"
            )
            expect(page.locator("#match-kind")).to_contain_text("match stake ×1")
        self.screenshot(pages["bruno"], "match-cube-centred-phone")

        # He doubles the match stake: nothing but the answer is offered to anyone.
        pages[doubler].click("[data-testid=match-double]")
        expect(pages[taker].locator("#turn-text")).to_have_text(
            f"{NAMES[doubler]} doubles the match stake to 2: take or drop?"
        )
        expect(pages[doubler].locator("#turn-text")).to_have_text(
            f"You doubled the match stake to 2; {NAMES[taker]} is deciding"
        )
        shows_only(pages[taker], "match-take", "match-drop")
        shows_only(answering_phone, "match-take", "match-drop")
        shows_only(pages[doubler])
        for page in pages.values():
            cube = page.locator("[data-testid=match-cube]")
            expect(cube).to_have_class("cube match-cube cube-offered")
            expect(cube).to_have_attribute("data-value", "2")
        self.screenshot(pages["alice"], "match-cube-offered")
        self.screenshot(pages["bruno"], "match-cube-offered-phone")
        self.screenshot(answering_phone, "match-cube-answer-phone")

        # The match double is taken: the taker owns the match cube, the doubler goes on.
        pages[taker].click("[data-testid=match-take]")
        expect(pages[doubler].locator("#turn-text")).to_have_text(
            "Your turn: roll the dice or double"
        )
        shows_only(pages[doubler], "roll", "double")
        shows_only(pages[taker])
        expect(pages[taker].locator("[data-testid=match-cube]")).to_have_attribute(
            "data-place", "bottom"
        )
        expect(pages[doubler].locator("[data-testid=match-cube]")).to_have_attribute(
            "data-place", "top"
        )
        for page in pages.values():
            expect(page.locator("[data-testid=match-cube]")).to_have_attribute("data-value", "2")
            expect(page.locator("#match-kind")).to_contain_text("match stake ×2")
            expect(page.locator("[data-testid=move-list]")).to_contain_text(
                "Doubles the match stake => 2"
            )
        self.screenshot(pages["alice"], "match-cube-taken")
        self.screenshot(pages["bruno"], "match-cube-taken-phone")
