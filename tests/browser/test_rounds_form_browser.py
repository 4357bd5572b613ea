"""In a real browser, on a phone and on a desktop: the organizer's form lists each flight's
rounds, one row each with its points and clock, proposed as live events play them (11 points
in the main flight, 7 in the consolation, the standard clock) and fitting a 390 px phone
without sideways scrolling; an event with a longer final on a slower clock and a blitz
consolation is created from it, and its page shows each round's length and clock."""

from __future__ import annotations

import dataclasses

import pytest
from playwright.sync_api import Page, expect

from matches.clock import CLOCK_PRESETS
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.geometry import misfits
from tests.factories import PASSWORD
from tests.integration.tournaments.helpers import organizer
from tournaments.models import Tournament
from tournaments.round_rows import clock_code

SIDEWAYS = "() => document.documentElement.scrollWidth"


def preset(name: str) -> str:
    return clock_code(dataclasses.asdict(CLOCK_PRESETS[name][1]))


@pytest.mark.browser
class RoundsFormInTheBrowser(BrowserTestCase):
    def open_form(self, width: int) -> Page:
        page = self.new_page(width=width, height=900)
        self.log_in(page, "orla", PASSWORD)
        page.goto(self.url("/tournaments/new/"))
        return page

    def test_the_rounds_fit_a_phone_and_a_desktop_and_make_an_event(self) -> None:
        beside_the_browser(organizer)
        for width, name in ((1280, "desktop"), (390, "phone")):
            page = self.open_form(width)
            main = page.locator("[data-testid=rounds-round_lengths]")
            consolation = page.locator("[data-testid=rounds-consolation_lengths]")

            # proposed: 11 points a main round, 7 a consolation round, the standard clock
            expect(main).to_be_visible()
            expect(main.locator("input").first).to_have_value("11")
            expect(consolation.locator("input").first).to_have_value("7")
            expect(page.locator("#id_clock_kind")).to_have_value("delay")
            expect(page.locator("#id_move_seconds")).to_have_value("12")
            expect(page.locator("#id_reserve_seconds")).to_have_value("120")
            assert page.evaluate(SIDEWAYS) <= width
            assert misfits(page) == []
            self.screenshot(page, f"rounds-form-{name}")

        # when: on the phone, a final to 13 on the relaxed clock and a blitz consolation
        page.fill("#id_name", "Open 11/13")
        main.locator("input").nth(1).fill("11")
        main.locator("input").nth(2).fill("13")
        main.locator("select").nth(2).select_option(preset("relaxed"))
        page.check("#id_consolation")
        consolation.locator("select").first.select_option(preset("blitz"))
        assert page.evaluate(SIDEWAYS) <= 390
        self.screenshot(page, "rounds-form-filled-phone")
        page.click("text=Create the tournament")

        # then: stored by flight, and the page lists each round's length and clock
        page.wait_for_selector("[data-testid=round-clocks]")
        rounds = page.locator("[data-testid=round-clocks] li")
        expect(rounds.nth(0)).to_have_text("Quarter-finals 11 points 12 s a move, 2 min a point")
        expect(rounds.nth(2)).to_have_text("Final 13 points 30 s a move, 3 min a point")
        expect(
            page.locator("[data-testid=round-clocks] [data-flight=consolation]")
        ).to_contain_text("Consolation final 7 points 8 s a move, 30 s a point")
        assert page.evaluate(SIDEWAYS) <= 390
        self.screenshot(page, "rounds-tournament-page-phone")
        created = beside_the_browser(lambda: Tournament.objects.get(name="Open 11/13"))
        assert created.round_lengths == [11, 11, 13]
        assert created.flight_lengths == {"consolation": [7]}
        assert [clock["reserve_seconds"] for clock in created.flight_clocks["main"]] == [
            120,
            120,
            180,
        ]
        assert created.flight_clocks["consolation"]["reserve_seconds"] == 30
