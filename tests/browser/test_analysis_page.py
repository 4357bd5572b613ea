"""The analysis page of a finished match, analysed for real by GNU Backgammon at 0 ply: the
players' PR as stored, the PR of each game, a replay stepped with the arrow keys (Shift
jumps from error to error), the errors list filtered by player and by mark, GNU
Backgammon's candidates with their equities, and on a 390-px phone nothing wider than
the screen.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from playwright.sync_api import Page, expect

from accounts.models import User
from reviews.models import Analysis, AnalysisStatus
from reviews.selectors import analysis_data
from reviews.services import analysis_for_match, analysis_run
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import Bot, start_match

DESKTOP_SHOT = "/tmp/analysis_desktop.png"
PHONE_SHOT = "/tmp/analysis_phone.png"
PHONE = {"width": 390, "height": 844}

SIDEWAYS = "() => [document.documentElement.scrollWidth, window.innerWidth]"
# Elements whose right edge passes the viewport's: what makes a page scroll sideways.
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('body *')]
    .filter((el) => el.offsetParent !== null && !el.closest('.table-scroll'))
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((el) => `${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className}`)"""
# Tables whose scroller must be scrolled sideways to see all their figures.
SCROLLED_TABLES = """() => [...document.querySelectorAll('.table-scroll')]
    .filter((scroller) => scroller.scrollWidth > scroller.clientWidth + 1)
    .map((scroller) => scroller.querySelector('table').dataset.testid)"""
ROWS = """(selector) => [...document.querySelectorAll(selector)]
    .map((row) => [...row.cells].map((cell) => cell.textContent.trim()))"""


def analysed_match(alice: User, bruno: User) -> tuple[int, dict[str, Any]]:
    """A 5-point match played out with doubles, analysed by GNU Backgammon at 0 ply the way
    the review worker does it; the match and the analysis as the API gives it."""

    def work() -> tuple[int, dict[str, Any]]:
        match_id = start_match(alice, bruno, length=5)
        Bot({"alice": alice, "bruno": bruno}, doubles=True).play_out(match_id)
        with override_settings(ANALYSIS_PLIES=0):
            analysis = analysis_for_match(match_id)
        assert analysis is not None
        assert analysis_run(analysis.pk) is True
        done = Analysis.objects.get(pk=analysis.pk)
        assert done.status == AnalysisStatus.DONE, done.error
        return match_id, analysis_data(done)

    return beside_the_browser(work)


def signed(value: float) -> str:
    """A figure as analysis.js writes it: a sign, three decimals."""
    return f"{'+' if value >= 0 else ''}{value:.3f}"


@pytest.mark.browser
class TheAnalysisPage(BrowserTestCase):
    def shows(self, page: Page, data: dict[str, Any], index: int) -> None:
        """The replay is at decision ``index`` (from 0): its count and its title."""
        decision = data["decisions"][index]
        total = len(data["decisions"])
        expect(page.locator("#decision-count")).to_have_text(f"{index + 1} of {total}")
        expect(page.locator("#decision-title")).to_contain_text(f"Game {decision['game']} · ")

    def error_rows(self, page: Page) -> list[list[str]]:
        rows: list[list[str]] = page.evaluate(ROWS, "[data-testid=blunders] tbody tr")
        return rows

    def test_figures_replay_errors_and_candidates_on_a_desktop_and_a_phone(self) -> None:
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id, data = analysed_match(alice, bruno)
        decisions = data["decisions"]
        errors = [i for i, d in enumerate(decisions) if d["mark"]]
        assert len(data["games"]) >= 2, "a match of one game shows too little"
        assert {d["seat"] for d in decisions if d["mark"]} == {0, 1}
        page = self.new_page()
        self.log_in(page, "alice", PASSWORD)
        page.goto(self.url(f"/matches/{match_id}/analysis/"))

        # The players' PR, as stored, and each game's.
        for seat, figures in enumerate(data["players"]):
            expect(page.locator(f"[data-testid=pr-{seat}]")).to_have_text(f"{figures['pr']:.2f}")
        games = page.evaluate(ROWS, "[data-testid=analysis-games] tbody tr")
        assert [row[0].split()[0] for row in games] == [str(g["number"]) for g in data["games"]]
        assert [row[3:5] for row in games] == [
            [f"{p['pr']:.2f}" if p["pr"] is not None else "—" for p in g["players"]]
            for g in data["games"]
        ]

        # The arrow keys step through the decisions; Shift+arrow goes from error to error.
        self.shows(page, data, 0)
        page.keyboard.press("ArrowRight")
        self.shows(page, data, 1)
        page.keyboard.press("ArrowRight")
        self.shows(page, data, 2)
        page.keyboard.press("ArrowLeft")
        self.shows(page, data, 1)
        first_error = next(i for i in errors if i > 1)
        page.keyboard.press("Shift+ArrowRight")
        self.shows(page, data, first_error)
        mark = decisions[first_error]["mark"]
        expect(page.locator("#decision-played")).to_contain_text(f"({mark})")
        second_error = next(i for i in errors if i > first_error)
        page.keyboard.press("Shift+ArrowRight")
        self.shows(page, data, second_error)
        page.keyboard.press("Shift+ArrowLeft")
        self.shows(page, data, first_error)
        page.keyboard.press("End")
        self.shows(page, data, len(decisions) - 1)
        page.keyboard.press("Home")
        self.shows(page, data, 0)
        # Browser shortcuts that use an arrow (Alt+← is "back") are left to the browser.
        page.keyboard.press("Control+ArrowRight")
        self.shows(page, data, 0)

        # The candidates of a checker play, with GNU Backgammon's equities.
        shown = next(
            i for i in errors if decisions[i]["kind"] == "checker" and decisions[i]["candidates"]
        )
        page.locator(f"[data-testid=blunders] tr[data-decision='{shown}']").click()
        self.shows(page, data, shown)
        candidates = page.evaluate(ROWS, "[data-testid=candidates] tbody tr")
        assert candidates == [
            [str(n), c["move"], signed(c["equity"]), f"{100 * c['mwc']:.2f} %"]
            for n, c in enumerate(decisions[shown]["candidates"], start=1)
        ]
        assert len(candidates) >= 2
        expect(page.locator("#decision-best")).to_have_text(f"Best: {decisions[shown]['best']}")
        played = page.locator("[data-testid=candidates] tr.is-played td").nth(1)
        if any(c["move"] == decisions[shown]["played"] for c in decisions[shown]["candidates"]):
            expect(played).to_have_text(decisions[shown]["played"])

        # The errors list: both players', Alice's own, Bruno's, the very bad ones only.
        def listed(whose: str, very_bad: bool) -> list[str]:
            return [
                str(i)
                for i in errors
                if (whose == "all" or decisions[i]["seat"] == int(whose))
                and (not very_bad or decisions[i]["mark"] == "very bad")
            ]

        filters = page.locator("[data-testid=blunder-filter]")
        expect(filters.get_by_label("Mine")).to_have_value("0")
        expect(filters.get_by_label("My opponent's")).to_have_value("1")
        rows = page.locator("[data-testid=blunders] tbody tr")
        seen: dict[tuple[str, bool], list[str]] = {}
        for label, whose in (("Mine", "0"), ("My opponent's", "1"), ("Both players", "all")):
            filters.get_by_label(label).check()
            for very_bad in (False, True):
                filters.get_by_label("Very bad only").set_checked(very_bad)
                expected = listed(whose, very_bad)
                expect(rows).to_have_count(len(expected))
                ids = [rows.nth(n).get_attribute("data-decision") for n in range(len(expected))]
                assert ids == expected
                expect(page.locator("#blunders-none")).to_be_visible(visible=not expected)
                seen[(whose, very_bad)] = expected
        assert seen[("0", False)]
        assert seen[("1", False)]
        assert seen[("all", True)]
        assert len({tuple(rows) for rows in seen.values()}) >= 4, "the filters changed nothing"
        names = {row[1] for row in self.error_rows(page)}
        assert names == {"Alice Adams", "Bruno Bianchi"}  # as the site names them
        page.screenshot(path=DESKTOP_SHOT, full_page=True)
        self.screenshot(page, "analysis-desktop")

        # On a phone: nothing wider than the screen, the board and its controls in reach.
        phone = self.new_page(**PHONE)
        self.log_in(phone, "bruno", PASSWORD)
        phone.goto(self.url(f"/matches/{match_id}/analysis/"))
        self.shows(phone, data, 0)
        expect(phone.locator("[data-testid=blunder-filter]").get_by_label("Mine")).to_have_value(
            "1"
        )
        scroll_width, inner_width = phone.evaluate(SIDEWAYS)
        assert scroll_width <= inner_width, phone.evaluate(WIDER_THAN_THE_SCREEN)
        assert phone.evaluate(WIDER_THAN_THE_SCREEN) == []
        assert phone.evaluate(SCROLLED_TABLES) == []
        # each error's size and mark are in sight, beside the player and the roll
        error_row = phone.locator("[data-testid=blunders] tbody tr").first
        for column in (1, 2, 5, 6):  # player, roll, error, mark
            box = error_row.locator("td").nth(column).bounding_box()
            assert box is not None
            assert box["width"] > 0
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= inner_width
        board = phone.locator("[data-testid=analysis-board]").bounding_box()
        assert board is not None
        assert board["width"] >= 300
        for button in ("prev", "next", "next-error"):
            box = phone.locator(f"[data-go={button}]").bounding_box()
            assert box is not None
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= inner_width
        phone.locator("[data-go=next]").click()
        self.shows(phone, data, 1)
        phone.screenshot(path=PHONE_SHOT, full_page=True)
        self.screenshot(phone, "analysis-phone")
