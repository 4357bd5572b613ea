"""Every page, at a 390-px phone's width and a 1280-px desktop's, laid out without a fault
the geometry checker (tests/browser/geometry.py) can measure: no sideways scrolling, no two
cards or controls over each other, no menu or dialog outside the window, no text cut by its
box, and never a server error.

The scene (tests/browser/every_page.py) holds tournaments of every format before, during
and after their play, matches in each state, an analysis, a wallet with lines and the staff
pages; one browser visits them all in a loop, a player's pages then staff's.

The same scene, made once for both (it takes a minute), is read in Italian too: every page
served in English and in Italian from the same rows, and what reads the same in both, once
the rows' own words and the words both languages share are masked, is a string the project
forgot to translate (``tests.untranslated``). What the pages' scripts write in Italian is
checked by the browser tests of each page in Italian.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.every_page import VIEWER, Scene, every_page, left_in_english
from tests.browser.geometry import misfits
from tests.factories import PASSWORD

WIDTHS = {"phone": (390, 844), "desktop": (1280, 900)}
# A page with a fault is photographed there; CRAWFORD_LAYOUT_SHOTS=all photographs every one.
SHOTS = Path("/tmp/layout-shots")
ALL_SHOTS = os.environ.get("CRAWFORD_LAYOUT_SHOTS") == "all"


@pytest.mark.browser
class EveryPageFits(BrowserTestCase):
    def visit(self, page: Page, width: str, name: str, path: str) -> list[str]:
        try:
            answer = page.goto(self.url(path))
        except PlaywrightError as error:
            return [f"{path} did not load: {error.message.splitlines()[0]}"]
        if answer is None or answer.status >= 500:
            return [f"{path} answered {answer.status if answer else 'nothing'}"]
        # What the page's scripts draw after the load (notice cards, a live part's first
        # frame) has a moment to land.
        page.wait_for_timeout(200)
        faults = [f"{path}: {fault}" for fault in misfits(page)]
        if faults or ALL_SHOTS:
            self.shoot(page, f"{width}-{name}")
        return faults

    def shoot(self, page: Page, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)

    def faults(self, scene: Scene, width: str) -> list[str]:
        wide, high = WIDTHS[width]
        found: list[str] = []
        for who, pages in ((VIEWER, scene.player_pages), ("sam", scene.staff_pages)):
            page = self.new_page(width=wide, height=high)
            self.log_in(page, who, PASSWORD)
            for name, path in pages:
                found += self.visit(page, width, name, path)
            if who == VIEWER:
                for name, path, opener in scene.menus:
                    page.goto(self.url(path))
                    page.click(opener)
                    faults = [f"{path} with {opener} pressed: {fault}" for fault in misfits(page)]
                    if faults or ALL_SHOTS:
                        self.shoot(page, f"{width}-{name}")
                    found += faults
            page.context.close()
        return found

    def wide_bracket_faults(self, scene: Scene) -> list[str]:
        """A 16-player double elimination at 1280 px: fitted to the width, its finals in
        view; its "Final" tab shows that flight alone."""
        path = dict(scene.player_pages)["double-wide-bracket"]
        page = self.new_page(width=1280, height=900)
        page.goto(self.url(path))
        found = []
        final = page.locator(".flight[data-flight=final]").bounding_box()
        if final is None or final["x"] + final["width"] > 1280:
            found.append(f"{path}: the finals are off the screen at 1280 px: {final}")
        page.click("[data-testid=flight-tab-final]")
        shown = page.eval_on_selector_all(
            ".flight", "(flights) => flights.filter((f) => !f.hidden).map((f) => f.dataset.flight)"
        )
        if shown != ["final"]:
            found.append(f"{path}: the Final tab shows {shown}")
        page.context.close()
        return found

    @pytest.mark.timeout(600)  # the scene takes a minute or two, the visits as long again
    def test_no_page_breaks_on_a_phone_or_a_desktop_and_every_page_reads_in_italian(
        self,
    ) -> None:
        scene = beside_the_browser(every_page)
        found = {width: self.faults(scene, width) for width in WIDTHS}
        found["desktop"] += self.wide_bracket_faults(scene)
        found["Italian"] = beside_the_browser(lambda: left_in_english(scene))
        assert not any(found.values()), "\n".join(
            f"{where}: {fault}" for where, faults in found.items() for fault in faults
        )
