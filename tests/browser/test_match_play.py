"""In two real browsers: a match played to the end on the live board, and the doubling cube.

The dice come from a known seed, so every roll is the same on every run.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import (
    LiveTable,
    mark_loaded,
    was_not_reloaded,
)
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match

pytestmark = pytest.mark.slow


@pytest.mark.browser
class AMatchPlayedToTheEnd(BrowserTestCase):
    def test_two_players_play_a_one_point_match_and_check_the_dice(self) -> None:
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=1))
        pages = {"alice": self.new_page(), "bruno": self.new_page()}
        for username, page in pages.items():
            self.log_in(page, username, PASSWORD)
            page.goto(self.url(f"/matches/{match_id}/"))
            expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
            mark_loaded(page)
        table = LiveTable(match_id, pages)

        # The opening roll is already thrown: 5-4 for Alice, who plays first.
        expect(pages["alice"].locator("#turn-text")).to_have_text("Your turn: play 5-4")
        expect(pages["bruno"].locator("#turn-text")).to_have_text("Alice Adams is playing 5-4")
        expect(pages["bruno"].locator("[data-testid=confirm]")).to_be_hidden()
        self.screenshot(pages["alice"], "match-play-opening")

        state = table.play("alice")
        expect(pages["bruno"].locator("#hint")).to_have_text(
            f"Alice Adams played 54: {table.plays[0]}"
        )
        expect(pages["bruno"].locator("[data-testid=roll]")).to_be_visible()
        expect(pages["alice"].locator("[data-testid=roll]")).to_be_hidden()
        self.screenshot(pages["bruno"], "match-play-after-the-opening")

        while state["status"] == "playing":
            state = table.take_turn()
            if len(table.plays) == 20:
                self.screenshot(pages["alice"], "match-play-middle-game")

        # then
        assert state["winner"] == "alice"
        assert state["score"] == [1, 0]
        for page in pages.values():
            assert was_not_reloaded(page)
            expect(page.locator("[data-testid=result]")).to_be_visible()
            expect(page.locator("[data-testid=verify-dice]")).to_be_visible()
            expect(page.locator("#dice-seed")).to_have_text(state["dice_check"]["seed"])
        expect(pages["alice"].locator("#result-title")).to_have_text("You won the match")
        expect(pages["bruno"].locator("#result-title")).to_have_text("Alice Adams wins the match")
        expect(pages["bruno"].locator("#result-score")).to_have_text(
            "Alice Adams 1 – 0 Bruno Bianchi in a 1-point match, played out"
        )
        moves = pages["bruno"].locator("[data-testid=move-list]")
        expect(moves).to_contain_text(table.plays[-1])
        expect(moves).to_contain_text("Wins 1 point")
        self.screenshot(pages["alice"], "match-play-result-winner")
        self.screenshot(pages["bruno"], "match-play-result-loser")

        pages["bruno"].click("[data-testid=verify-dice]")
        expect(pages["bruno"].locator("[data-testid=dice-verdict]")).to_contain_text(
            "All rolls verified"
        )
        expect(pages["bruno"].locator("[data-testid=dice-seed]")).to_have_text(
            state["dice_check"]["seed"]
        )
        self.screenshot(pages["bruno"], "match-play-dice-check")


@pytest.mark.browser
class TheDoublingCube(BrowserTestCase):
    def test_a_double_taken_then_two_resignations_end_a_three_point_match(self) -> None:
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3))
        pages = {"alice": self.new_page(), "bruno": self.new_page()}
        for username, page in pages.items():
            self.log_in(page, username, PASSWORD)
            page.goto(self.url(f"/matches/{match_id}/"))
            expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        table = LiveTable(match_id, pages)
        table.play("alice")

        # Bruno doubles before his first roll; Alice sees the cube offered and takes.
        expect(pages["bruno"].locator("#turn-text")).to_have_text(
            "Your turn: roll the dice or double"
        )
        table.press("bruno", "double")
        expect(pages["alice"].locator("#turn-text")).to_have_text(
            "Bruno Bianchi doubles to 2: take or drop?"
        )
        expect(pages["alice"].locator("[data-testid=drop]")).to_be_visible()
        expect(pages["bruno"].locator("[data-testid=take]")).to_be_hidden()
        for page in pages.values():
            expect(page.locator("[data-testid=cube]")).to_have_class("cube cube-offered")
            expect(page.locator("[data-testid=cube]")).to_have_attribute("data-value", "2")
        self.screenshot(pages["alice"], "match-cube-offered")

        table.press("alice", "take")
        expect(pages["alice"].locator("[data-testid=cube]")).to_have_attribute(
            "data-place", "bottom"
        )
        expect(pages["bruno"].locator("[data-testid=cube]")).to_have_attribute("data-place", "top")
        expect(pages["bruno"].locator("[data-testid=cube]")).to_have_attribute("data-value", "2")
        expect(pages["bruno"].locator("[data-testid=double]")).to_be_hidden()
        expect(pages["bruno"].locator("[data-testid=roll]")).to_be_visible()
        self.screenshot(pages["bruno"], "match-cube-taken")

        # Bruno gives up the doubled game: two points to Alice, and the Crawford game next.
        table.resign("bruno")
        expect(pages["alice"].locator("#turn-text")).to_have_text(
            "Bruno Bianchi offers to resign a single game (2 points)"
        )
        self.screenshot(pages["alice"], "match-resignation-offered")
        state = table.press("alice", "accept-resign")
        assert state["score"] == [2, 0]
        assert state["crawford"] is True
        for page in pages.values():
            expect(page.locator("[data-testid=crawford]")).to_be_visible()
            expect(page.locator("[data-testid=double]")).to_be_hidden()
            expect(page.locator("[data-testid=cube]")).to_have_count(0)
        self.screenshot(pages["bruno"], "match-crawford-game")

        table.resign("bruno")
        table.press("alice", "reject-resign")
        expect(pages["alice"].locator("[data-testid=accept-resign]")).to_be_hidden()
        table.resign("bruno")
        state = table.press("alice", "accept-resign")

        # then
        assert state["status"] == "finished"
        assert state["score"] == [3, 0]
        expect(pages["alice"].locator("#result-title")).to_have_text("You won the match")
        expect(pages["bruno"].locator("#result-score")).to_have_text(
            "Alice Adams 3 – 0 Bruno Bianchi in a 3-point match, by resignation"
        )
        moves = pages["alice"].locator("[data-testid=move-list]")
        expect(moves).to_contain_text("Doubles => 2")
        expect(moves).to_contain_text("Takes")
        expect(moves).to_contain_text("Resigns single")
        self.screenshot(pages["bruno"], "match-resigned-result")
