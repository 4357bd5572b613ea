"""In real browsers, two players apart: a challenge and its acceptance arrive wherever the
other player is; "your turn" reaches a player away from the board, in the tab's title too;
and the bell and the notifications page fit a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from lobby.models import Notification
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import Bot, start_match

PHONE = {"width": 390, "height": 844}


def two_players() -> tuple[User, User]:
    return (
        UserFactory(username="alice", display_name="Alice Adams"),
        UserFactory(username="bruno", display_name="Bruno Costa"),
    )


def card(page: Page, kind: str) -> object:
    return page.locator(f"[data-testid=notice-card][data-kind={kind}]")


@pytest.mark.browser
class NoticesInTheBrowser(BrowserTestCase):
    def open_as(self, username: str, path: str, **size: int) -> Page:
        page = self.new_page(**size)
        self.log_in(page, username, PASSWORD)
        page.goto(self.url(path))
        page.wait_for_selector("[data-notices][data-live=on]")
        return page

    def test_a_challenge_and_its_acceptance_arrive_live(self) -> None:
        # given Bruno reading the tournaments and Alice in the play lobby
        two_players()
        bruno = self.open_as("bruno", "/tournaments/")
        alice = self.open_as("alice", "/play/")
        expect(bruno.locator("[data-testid=bell-count]")).to_be_hidden()

        # when Alice challenges Bruno to a 5-point match
        alice.fill("#id_opponent", "bruno")
        alice.fill("#id_length", "5")
        alice.click("[data-testid=challenge-form] button[type=submit]")
        expect(alice.locator(".message")).to_contain_text("Challenge sent to Bruno Costa")

        # then Bruno is told at once, with the bell and the title counting it
        challenge = card(bruno, "challenge")
        expect(challenge).to_contain_text("Alice Adams challenges you to a 5-point match.")
        expect(bruno.locator("[data-testid=bell-count]")).to_have_text("1")
        expect(bruno).to_have_title(re.compile(r"^\(1\) "))
        self.screenshot(bruno, "notices-1-challenge-arrives")

        # and one click takes him to the match, where he accepts
        challenge.locator("[data-testid=notice-open]").click()
        bruno.click("[data-testid=accept-challenge]")
        expect(bruno.locator("[data-testid=board]")).to_be_visible()
        expect(bruno.locator("[data-testid=bell-count]")).to_be_hidden()

        # then Alice, still in the lobby, is told the match is ready, with the time to come
        accepted = card(alice, "challenge_accepted")
        expect(accepted).to_contain_text(
            "Bruno Costa accepted your challenge: your 5-point match is ready."
        )
        expect(accepted.locator(".notice-countdown")).to_contain_text(
            re.compile(r"Be at the board within [45]:\d\d\.")
        )
        self.screenshot(alice, "notices-2-accepted-arrives")
        accepted.locator("[data-testid=notice-open]").click()
        expect(alice).to_have_url(re.compile(r"/matches/\d+/$"))
        expect(alice.locator("[data-testid=bell-count]")).to_be_hidden()
        assert (
            beside_the_browser(lambda: Notification.objects.filter(read_at__isnull=True).count())
            == 0
        )

    def test_your_turn_reaches_a_player_away_from_the_board_in_the_title_too(self) -> None:
        alice, bruno = two_players()
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3))
        away = self.open_as("bruno", "/")
        plain_title = away.title()

        # when Alice plays and the match waits for Bruno
        bot = Bot({"alice": alice, "bruno": bruno})

        def until_bruno_is_awaited() -> None:
            while bot.step(match_id)["game"]["turn"] != "bruno":
                pass

        beside_the_browser(until_bruno_is_awaited)

        # then his page says so, rings, and the tab's title shows it
        turn = card(away, "turn")
        expect(turn).to_contain_text("Your turn against Alice Adams: 0–0 in your 3-point match.")
        expect(away).to_have_title(f"Your turn · (1) {plain_title}")
        expect(away.locator("[data-notices]")).to_have_attribute("data-rings", "1")
        self.screenshot(away, "notices-3-your-turn")

        # and opening the board reads it
        turn.locator("[data-testid=notice-open]").click()
        expect(away).to_have_url(self.url(f"/matches/{match_id}/"))
        expect(away.locator("[data-testid=bell-count]")).to_be_hidden()

    def test_the_bell_and_the_notifications_page_on_a_desktop_and_a_phone(self) -> None:
        alice, bruno = two_players()

        def some_news() -> None:
            match_id = start_match(alice, bruno, length=3)
            while Bot({"alice": alice, "bruno": bruno}).step(match_id)["game"]["turn"] != "bruno":
                pass
            start_match(UserFactory(username="chloe", display_name="Chloé Durand"), bruno, length=1)

        beside_the_browser(some_news)
        for name, size in (("desktop", {}), ("phone", PHONE)):
            page = self.open_as("bruno", "/", **size)
            expect(page.locator("[data-testid=bell-count]")).to_have_text("1")
            self.screenshot(page, f"notices-bell-{name}")
            page.click("[data-testid=nav-bell]")
            rows = page.locator("[data-testid=notice-list] .notice-row")
            expect(rows).to_have_count(3)
            expect(rows.first).to_contain_text("Chloé Durand challenges you to a 1-point match.")
            expect(page.locator(".notice-unread")).to_contain_text("Your turn against Alice Adams")
            self.screenshot(page, f"notices-page-{name}")
            page_width = page.evaluate("document.documentElement.scrollWidth")
            assert page_width <= (size.get("width") or 1280)
        page.click("[data-testid=read-all]")
        expect(page.locator("[data-testid=bell-count]")).to_be_hidden()
        expect(page.locator(".notice-unread")).to_have_count(0)
