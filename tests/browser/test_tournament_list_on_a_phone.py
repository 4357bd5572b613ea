"""The tournament list on a 390-px phone: each tournament a stacked row, its name on a line
of its own (never squeezed into a narrow column that wraps it over three lines), then its
format, buy-in, entries, start and state as labelled facts; at 1280 px it stays a table.
Both widths fit (``tests.browser.geometry.misfits``)."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.geometry import misfits
from tests.integration.tournaments.helpers import open_tournament, organizer, players, register_all
from tournaments import services

LONG_NAME = "Riverside Club Thursday Progressive Knockout"
FACTS = ("Format", "Buy-in", "Players", "Starts", "State")


def a_lobby() -> None:
    owner = organizer()
    open_tournament(
        owner,
        name=LONG_NAME,
        starts_at=timezone.now() + timezone.timedelta(days=2),
        max_entrants=32,
    )
    open_tournament(owner, name="Quick Six", format="sit_and_go", seats=6)
    running = open_tournament(owner, name="Spring Swiss", format="swiss", rounds=3)
    register_all(running, players(4))
    services.tournament_start(tournament_id=running.pk, user=owner)


@pytest.mark.slow
@pytest.mark.browser
class TournamentListOnAPhone(BrowserTestCase):
    def test_each_tournament_is_a_stacked_row_on_a_phone_and_a_table_on_a_desktop(self) -> None:
        beside_the_browser(a_lobby)

        # on a phone: the long name on one wide line of its own, the facts under it
        phone = self.new_page(width=390, height=844)
        phone.goto(self.url("/tournaments/?show=open"))
        row = phone.locator("[data-testid=tournament-list] tbody tr").filter(has_text=LONG_NAME)
        name = row.locator("td.tournament-name")
        row_box, name_box = row.bounding_box(), name.bounding_box()
        assert row_box is not None
        assert name_box is not None
        assert name_box["width"] >= row_box["width"] - 1  # the whole row's width
        lines = name.evaluate(
            """(cell) => {
                const range = document.createRange();
                range.selectNodeContents(cell);
                return new Set([...range.getClientRects()].map((box) => Math.round(box.top))).size;
            }"""
        )
        assert 1 <= lines <= 2, f"the name wraps to {lines} lines"
        for label in FACTS:
            expect(row.locator(f"td.fact[data-label='{label}']")).to_be_visible()
        labels = row.locator("td.fact").evaluate_all(
            "(cells) => cells.map((cell) => getComputedStyle(cell, '::before').content)"
        )
        assert '"Starts"' in labels
        assert '"State"' in labels
        assert phone.locator("[data-testid=tournament-list] thead").bounding_box()["height"] <= 1
        assert misfits(phone) == []
        self.screenshot(phone, "tournament-list-390")
        phone.goto(self.url("/tournaments/?show=running"))
        assert misfits(phone) == []

        # on a desktop: the table with its headings, the start left to the tournament page
        desktop = self.new_page(width=1280, height=900)
        desktop.goto(self.url("/tournaments/?show=open"))
        table = desktop.locator("[data-testid=tournament-list]")
        assert table.evaluate("(table) => getComputedStyle(table).display") == "table"
        expect(table.locator("thead th").first).to_be_visible()
        expect(table.locator("td[data-label='Starts']").first).to_be_hidden()
        assert misfits(desktop) == []
        self.screenshot(desktop, "tournament-list-1280")
