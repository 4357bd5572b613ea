"""In a real browser, on a phone: the challenge form finds the opponent as the player types
their name, and the clock fields of the challenge, seek and tournament forms say what the
chosen clock comes to over the match as the fields change."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.tournaments.helpers import organizer

PHONE = {"width": 390, "height": 844}


def players() -> None:
    UserFactory(username="alice", display_name="Alice Adams")
    UserFactory(username="bruno", display_name="Bruno Costa", rating=1620.0)
    UserFactory(username="brunella", display_name="Nella Rossi")
    UserFactory(username="carla", display_name="Carla Bruni")


@pytest.mark.browser
class ClockAndOpponentFieldsInTheBrowser(BrowserTestCase):
    def open_as(self, username: str, path: str) -> Page:
        page = self.new_page(**PHONE)
        self.log_in(page, username, PASSWORD)
        page.goto(self.url(path))
        return page

    def test_typing_a_name_offers_the_players_it_starts_and_challenges_one(self) -> None:
        beside_the_browser(players)
        page = self.open_as("alice", "/play/")
        box = page.locator("#id_opponent")
        options = page.locator("#opponent-options option")

        box.press_sequentially("bru", delay=50)

        expect(options).to_have_count(2)
        # by display name: Bruno Costa, then Nella Rossi
        expect(options.nth(0)).to_have_attribute("value", "bruno")
        expect(options.nth(0)).to_have_attribute("label", "Bruno Costa (1620)")
        expect(options.nth(1)).to_have_attribute("value", "brunella")
        expect(page.locator("#opponent-found")).to_have_text("2 players found")
        box.press_sequentially("no", delay=50)
        expect(options).to_have_count(1)
        expect(page.locator("#opponent-found")).to_have_text("1 player found")
        box.fill("carla b")
        expect(options).to_have_count(1)
        expect(options.nth(0)).to_have_attribute("value", "carla")
        box.fill("zz")
        expect(options).to_have_count(0)
        expect(page.locator("#opponent-found")).to_have_text("Nobody's name starts with zz")
        self.screenshot(page, "challenge-opponent-typed-phone")

        box.fill("bruno")
        page.click("[data-testid=challenge-form] button[type=submit]")
        expect(page.locator(".message")).to_contain_text("Challenge sent to Bruno Costa")

    def test_the_challenge_and_seek_forms_say_what_the_clock_comes_to(self) -> None:
        beside_the_browser(players)
        page = self.open_as("alice", "/play/")
        challenge = page.locator("[data-testid=challenge-form] [data-clock-sentence]")

        expect(challenge).to_have_text(
            "A 5-point match: 10 minutes each. The first 12 seconds of every move are free."
        )
        page.fill("#id_length", "7")
        expect(challenge).to_have_text(
            "A 7-point match: 14 minutes each. The first 12 seconds of every move are free."
        )
        page.select_option("#id_clock", "blitz")
        expect(challenge).to_have_text(
            "A 7-point match: 3 minutes 30 seconds each. "
            "The first 8 seconds of every move are free."
        )
        page.select_option("#id_kind", "money")
        expect(challenge).to_have_text(
            "A money session: 30 seconds more each game. "
            "The first 8 seconds of every move are free."
        )
        page.select_option("#id_kind", "match")
        page.select_option("#id_clock", "custom")
        page.locator("[data-testid=challenge-more] summary").click()
        page.select_option("#id_clock_kind", "move")
        page.fill("#id_move_seconds", "20")
        page.fill("#id_reserve_seconds", "90")
        expect(challenge).to_have_text(
            "20 seconds for every move, then 1 minute 30 seconds each in reserve for the "
            "whole match."
        )
        self.screenshot(page, "challenge-clock-sentence-phone")

        page.click("[data-testid=post-seek-toggle]")
        seek = page.locator("[data-testid=seek-form] [data-clock-sentence]")
        page.fill("#id_seek-length", "3")
        page.select_option("#id_seek-clock", "relaxed")
        expect(seek).to_have_text(
            "A 3-point match: 9 minutes each. The first 30 seconds of every move are free."
        )

    def test_the_tournament_form_says_what_the_clock_gives_in_each_rounds_length(self) -> None:
        beside_the_browser(organizer)
        page = self.open_as("orla", "/tournaments/new/")
        sentence = page.locator("[data-testid=tournament-form] [data-clock-sentence]")
        expect(sentence).to_have_text(  # the blank form proposes 11 points a round
            "An 11-point match: 22 minutes each. The first 12 seconds of every move are free."
        )

        page.fill("#id_round_lengths", "3, 5, 9")
        page.fill("#id_reserve_seconds", "60")

        expect(sentence).to_have_text(
            "A 3-point match: 3 minutes each; a 5-point match: 5 minutes each; "
            "a 9-point match: 9 minutes each. The first 12 seconds of every move are free."
        )
        expect(page.locator("label[for=id_reserve_seconds]")).to_have_text(
            "Reserve seconds per point"
        )
        self.screenshot(page, "tournament-form-clock-sentence-phone")
