"""In a real browser: the organizer's form offers every format and shows only the fields
the chosen one takes; a club night's double elimination is created from it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD
from tests.integration.tournaments.helpers import organizer
from tournaments.models import Tournament


def field(page: Page, name: str) -> Locator:
    return page.locator(".field").filter(has=page.locator(f"#id_{name}"))


@pytest.mark.browser
class TournamentFormInTheBrowser(BrowserTestCase):
    def test_the_form_shows_the_fields_of_the_chosen_format_and_creates_a_club_night(
        self,
    ) -> None:
        beside_the_browser(organizer)
        page = self.new_page(width=390, height=844)  # a phone
        self.log_in(page, "orla", PASSWORD)
        page.goto(self.url("/tournaments/new/"))

        # a knockout: its consolation and last chance, no Swiss rounds, no losers' flight
        expect(field(page, "consolation")).to_be_visible()
        expect(field(page, "last_chance")).to_be_visible()
        expect(field(page, "rounds")).to_be_hidden()
        expect(field(page, "losers_lengths")).to_be_hidden()
        expect(field(page, "seats")).to_be_hidden()
        expect(field(page, "target")).to_be_hidden()

        page.select_option("#id_format", "swiss")
        expect(field(page, "rounds")).to_be_visible()
        expect(field(page, "top_cut")).to_be_visible()
        expect(field(page, "consolation")).to_be_hidden()
        page.select_option("#id_format", "round_robin")
        expect(field(page, "group_size")).to_be_visible()
        expect(field(page, "rounds")).to_be_visible()  # a truncated round robin's

        page.select_option("#id_format", "double_elimination")
        expect(field(page, "losers_lengths")).to_be_visible()
        expect(field(page, "grand_final_reset")).to_be_visible()
        expect(field(page, "last_chance")).to_be_visible()
        expect(field(page, "group_size")).to_be_hidden()
        page.fill("#id_name", "Club night 5/3/3")
        page.fill("#id_round_lengths", "5")
        page.fill("#id_losers_lengths", "3")
        page.fill("#id_consolation_lengths", "3")
        page.fill("#id_final_lengths", "3")
        page.check("#id_consolation")
        page.fill("#id_prizes", "50, 25, 10")
        page.fill("#id_consolation_prizes", "10, 4")
        self.screenshot(page, "tournament-form-double-elimination-phone")
        page.click("text=Create the tournament")

        # the shares add up to 99%: said beside the prize field, the rest kept as typed
        page.wait_for_selector(".field-invalid")
        expect(field(page, "prizes")).to_contain_text("add up to 99% of the pool")
        expect(page.locator("#id_losers_lengths")).to_have_value("3")
        expect(field(page, "rounds")).to_be_hidden()
        page.fill("#id_consolation_prizes", "10, 5")
        page.click("text=Create the tournament")
        page.wait_for_selector("[data-testid=open]")
        self.screenshot(page, "tournament-page-club-night")
        created = beside_the_browser(lambda: Tournament.objects.get(name="Club night 5/3/3"))
        assert created.format == "double_elimination"
        assert created.flight_lengths == {"losers": [3], "consolation": [3], "final": [3]}
        assert created.prize_table == {"main": [5000, 2500, 1000], "consolation": [1000, 500]}
