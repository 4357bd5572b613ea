"""Pass and play: two people share one screen, and the board turns to whoever must act.

Also what a player does with the checkers before confirming: pick one up and put it back,
be told why a click does nothing, undo the moves made so far.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.creation import pass_and_play_create
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import LiveTable, board_on_screen
from tests.factories import PASSWORD, UserFactory


@pytest.mark.browser
class PassAndPlay(BrowserTestCase):
    def test_one_screen_plays_both_sides_and_undoes_within_the_turn(self) -> None:
        dora = UserFactory(username="dora", display_name="Dora Dalton")
        match_id = beside_the_browser(lambda: pass_and_play_create(user=dora, length=3).pk)
        page = self.new_page()
        self.log_in(page, "dora", PASSWORD)
        page.goto(self.url(f"/matches/{match_id}/"))
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        table = LiveTable(match_id, {"dora": page})
        game = table.last["game"]
        side = "White" if game["turn_seat"] == 0 else "Black"
        expect(page.locator("#turn-text")).to_have_text(
            f"{side}'s turn: play {game['dice'][0]}-{game['dice'][1]}"
        )
        expect(page.locator("#chat-card")).to_be_hidden()

        # A click on an empty point says what to do instead.
        start = board_on_screen(page)
        empty = next(point for point in range(1, 25) if start["points"][point - 1] == 0)
        page.click(f'#board [data-point="{empty}"]')
        expect(page.locator("#hint")).to_have_text("Pick up one of your checkers")

        # One checker picked up and put back with Escape, then moved and the move undone.
        source, destination = game["legal_plays"][0]["moves"][0]
        page.click(f'#board [data-point="{source}"]')
        expect(page.locator("#board .is-destination").first).to_be_visible()
        page.keyboard.press("Escape")
        expect(page.locator("#board .is-destination")).to_have_count(0)
        page.click(f'#board [data-point="{source}"]')
        page.click(f'#board [data-point="{destination}"]')
        assert board_on_screen(page) != start
        expect(page.locator("[data-testid=undo]")).to_be_enabled()
        page.click("[data-testid=undo]")
        assert board_on_screen(page) == start
        expect(page.locator("[data-testid=undo]")).to_be_disabled()
        expect(page.locator("[data-testid=confirm]")).to_be_disabled()

        # then: each side in turn rolls and plays on the same screen
        for _ in range(5):
            state = table.take_turn()
        game = state["game"]
        side = "White" if game["turn_seat"] == 0 else "Black"
        expect(page.locator("#turn-text")).to_contain_text(f"{side}'s turn")
        expect(page.locator("[data-testid=move-list] li.kind-play")).to_have_count(len(table.plays))
        # Both seats are one person's: the move list names each side by its colour.
        movers = page.locator("[data-testid=move-list] li.kind-play .mover").all_inner_texts()
        assert set(movers) == {"White", "Black"}
        self.screenshot(page, "match-pass-and-play")
