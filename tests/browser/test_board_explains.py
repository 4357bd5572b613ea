"""The board explains itself: a refused drop names the rule in the API's words, a turn is
played from the keyboard, the other side's moves are read out, the window's title says
whose turn it is, a game's result shows over the next game's board, and the board turns
its home board to the left for whoever prefers it.

The dice come from a known seed: Alice opens with 5-4 in every run.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import LiveTable, board_on_screen
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import Bot, api_for, quick_play, start_match

FOCUSED_POINT = "() => document.activeElement && document.activeElement.dataset.point"
POINT_X = """(point) => document.querySelector(`#board [data-point="${point}"]`)
    .getBoundingClientRect().x"""


def players() -> tuple[User, User]:
    return (
        UserFactory(username="alice", display_name="Alice Adams"),
        UserFactory(username="bruno", display_name="Bruno Bianchi"),
    )


def refused_by_the_api(user: User, match_id: int, play: str) -> Any:
    """What the REST API answers ``user`` sending ``play`` (nothing is applied)."""

    def ask() -> Any:
        body = {"type": "play", "play": play, "seq": 1}
        return api_for(user).post(f"/api/matches/{match_id}/actions/", body, format="json")

    return beside_the_browser(ask)


@pytest.mark.browser
class TheBoardExplains(BrowserTestCase):
    def open_board(self, username: str, match_id: int, **size: int) -> Page:
        page = self.new_page(**size)
        self.log_in(page, username, PASSWORD)
        page.goto(self.url(f"/matches/{match_id}/"))
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        expect(page.locator("#match-page")).to_have_attribute("data-connection", "open")
        return page

    def test_a_checker_put_down_where_the_rules_refuse_names_the_rule_the_api_gives(
        self,
    ) -> None:
        alice, bruno = players()
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3))
        page = self.new_page()
        sent: list[dict[str, Any]] = []
        page.on(
            "websocket",
            lambda socket: socket.on("framesent", lambda frame: sent.append(json.loads(frame))),
        )
        self.log_in(page, "alice", PASSWORD)
        page.goto(self.url(f"/matches/{match_id}/"))
        expect(page.locator("#turn-text")).to_have_text("Your turn: play 5-4")
        position = page.inner_text("[data-testid=gnubg-id]")
        start = board_on_screen(page)
        refusal = page.locator("[data-testid=refusal]")

        # Bruno holds point 19 (Alice's view); 13 to 10 needs a 3.
        for source, target, rule in (
            (24, 19, "Point 19 is blocked"),
            (13, 10, "13/10 does not fit your roll of 5-4"),
        ):
            page.click(f'#board [data-point="{source}"]')
            page.click(f'#board [data-point="{target}"]')
            expect(refusal).to_have_text(rule)
            if source == 24:
                self.screenshot(page, "board-refuses-a-drop")
            asked = [frame for frame in sent if frame.get("type") == "play"][-1]["play"]
            answer = refused_by_the_api(alice, match_id, asked)
            assert (answer.status_code, answer.json()["detail"]) == (400, rule)
            # nothing was applied, and the checker is still in hand to put down elsewhere
            assert page.inner_text("[data-testid=gnubg-id]") == position
            assert board_on_screen(page) == start
            expect(page.locator("#board .is-destination").first).to_be_visible()
            page.keyboard.press("Escape")

        # The next click moves on from the refusal.
        page.click('#board [data-point="13"]')
        expect(refusal).to_be_hidden()

    def test_a_turn_played_from_the_keyboard_and_read_out_to_the_other_side(self) -> None:
        alice, bruno = players()
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3))
        pages = {
            "alice": self.open_board("alice", match_id),
            "bruno": self.open_board("bruno", match_id),
        }
        table = LiveTable(match_id, pages)
        page = pages["alice"]
        expect(page).to_have_title(re.compile(r"^Your turn · "))
        expect(pages["bruno"]).to_have_title(re.compile(r"^Alice Adams's turn · "))
        expect(page.locator("[data-testid=board]")).to_have_attribute(
            "aria-label", "Backgammon board. Your turn: play 5-4"
        )
        start = board_on_screen(page)

        def press(*keys: str) -> None:
            for key in keys:
                page.keyboard.press(key)

        def focused() -> str:
            return page.evaluate(FOCUSED_POINT)

        # 13/9 with the arrows: down to 12, right along the row to 9.
        page.focus('#board [data-point="13"]')
        press("Enter", "ArrowDown")
        assert focused() == "12"
        press("ArrowRight", "ArrowRight", "ArrowRight")
        assert focused() == "9"
        press("Enter")
        assert board_on_screen(page) != start
        press("u")
        assert board_on_screen(page) == start

        # again, then 13/8: up from 9 to the nearest checker of Alice's, 13.
        page.focus('#board [data-point="13"]')
        press("Enter", "ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight", "Enter")
        assert focused() == "9"
        press("ArrowUp")
        assert focused() == "13"
        press("Enter", "ArrowDown", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight")
        assert focused() == "8"
        press("Enter")
        self.screenshot(page, "board-keyboard-play")
        press("c")
        table.settle()
        expect(pages["bruno"].locator("[data-testid=move-list]")).to_contain_text("54: 13/8 13/9")

        # Bruno hears what Alice did, and rolls and answers the cube from the keyboard.
        expect(pages["bruno"].locator("[data-testid=announcer]")).to_have_text(
            "Alice Adams played 13 to 8, 13 to 9 with 5 and 4"
        )
        expect(pages["bruno"]).to_have_title(re.compile(r"^Your turn · "))
        pages["bruno"].keyboard.press("r")
        table.settle()
        table.play("bruno")
        page.keyboard.press("d")
        table.settle()
        expect(pages["bruno"].locator("[data-testid=announcer]")).to_have_text(
            "Alice Adams: Doubles to 2"
        )
        expect(pages["bruno"].locator("[data-testid=take]")).to_be_visible()
        pages["bruno"].keyboard.press("t")
        cube = table.settle()["game"]["cube"]
        assert (cube["value"], cube["owner"]) == (2, "bruno")
        expect(page.locator("[data-testid=keys-help]")).to_contain_text("Drop (pass)")

    def test_a_game_s_result_shows_over_the_next_game_s_board(self) -> None:
        # given: Bruno has been doubled in the first game of a 3-point match
        alice, bruno = players()

        def doubled() -> int:
            match_id = start_match(alice, bruno, length=3)
            bot = Bot({"alice": alice, "bruno": bruno})
            plays = bot.state(match_id)["game"]["legal_plays"]
            bot.act(match_id, "alice", {"type": "play", "play": quick_play(plays)})
            bot.act(match_id, "bruno", {"type": "roll"})
            plays = api_for(bruno).get(f"/api/matches/{match_id}/").json()["game"]["legal_plays"]
            bot.act(match_id, "bruno", {"type": "play", "play": quick_play(plays)})
            bot.act(match_id, "alice", {"type": "double"})
            return match_id

        match_id = beside_the_browser(doubled)
        pages = {
            "alice": self.open_board("alice", match_id),
            "bruno": self.open_board("bruno", match_id, width=390, height=844),
        }

        # when: he drops
        pages["bruno"].click("[data-testid=drop]")

        # then: both see who won what and the score over game 2's board
        for username, winner in (
            ("alice", "You win 1 point"),
            ("bruno", "Alice Adams wins 1 point"),
        ):
            panel = pages[username].locator("[data-testid=between-games]")
            expect(panel).to_be_visible(timeout=10_000)
            expect(panel.locator("h2")).to_have_text(winner)
            expect(panel).to_contain_text("Game 1")
            expect(panel).to_contain_text("Bruno Bianchi dropped the double")
            expect(panel).to_contain_text("Alice Adams 1 – 0 Bruno Bianchi · match to 3")
            expect(panel).to_contain_text("Game 2 in")
            expect(pages[username].locator("#game-number")).to_have_text("Game 2")
        self.screenshot(pages["alice"], "board-between-games")
        self.screenshot(pages["bruno"], "board-between-games-phone")
        countdown = int(pages["alice"].inner_text("[data-testid=countdown]"))
        assert 1 <= countdown <= 6

        pages["alice"].click("[data-testid=next-game]")
        expect(pages["alice"].locator("[data-testid=between-games]")).to_be_hidden()
        # Bruno's closes by itself when the countdown runs out.
        expect(pages["bruno"].locator("[data-testid=between-games]")).to_be_hidden(timeout=9000)

    def test_the_home_board_goes_left_and_stays_there_in_this_browser(self) -> None:
        alice, bruno = players()
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3))
        page = self.open_board("alice", match_id)
        start = board_on_screen(page)
        assert page.evaluate(POINT_X, 1) > page.evaluate(POINT_X, 12)

        page.click("[data-testid=flip]")
        expect(page.locator("[data-testid=flip]")).to_have_attribute("aria-pressed", "true")
        assert page.evaluate(POINT_X, 1) < page.evaluate(POINT_X, 12)
        assert board_on_screen(page) == start
        self.screenshot(page, "board-home-left")

        page.reload()
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        assert page.evaluate(POINT_X, 1) < page.evaluate(POINT_X, 12)
        # A checker still moves where it is clicked, mirrored or not, once the reloaded
        # board takes clicks (its socket open and the turn drawn).
        expect(page.locator("#match-page")).to_have_attribute("data-connection", "open")
        expect(page.locator("#board.is-interactive")).to_be_visible()
        page.click('#board [data-point="13"]')
        page.click('#board [data-point="8"]')
        expect(page.locator('#board [data-point="8"]')).to_have_attribute(
            "data-count", str(start["points"][7] + 1)
        )

        page.click("[data-testid=flip]")
        assert page.evaluate(POINT_X, 1) > page.evaluate(POINT_X, 12)
