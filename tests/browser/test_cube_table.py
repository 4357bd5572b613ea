"""A cube decision on the analysis page: beside the board, the doubler's no double,
double/take and double/pass with their equities, match winning chances and differences
from the proper action, the proper action in GNU Backgammon's words and the played row
marked, on a desktop and on a 390-px phone without scrolling sideways."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from analysis.match_analysis import match_analysis
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.results import result_of
from tests.browser.base import SCREENSHOTS, BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.disputes.helpers import finished_match

pytestmark = pytest.mark.slow

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "mat" / "crawford_3pt.analysis.json"
PHONE = {"width": 390, "height": 844}
ROWS = """(selector) => [...document.querySelectorAll(selector)]
    .map((row) => [...row.cells].map((cell) => cell.textContent.trim()))"""
SIDEWAYS = "() => [document.documentElement.scrollWidth, window.innerWidth]"
WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('body *')]
    .filter((el) => el.offsetParent !== null && !el.closest('.table-scroll'))
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
    .map((el) => `${el.tagName.toLowerCase()}.${el.className.baseVal ?? el.className}`)"""


def analysed_match() -> tuple[int, dict[str, Any]]:
    """A finished match between Alice and Bruno with GNU Backgammon's saved analysis."""
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
    match = finished_match(alice, bruno)
    result = result_of(match_analysis(json.loads(SAMPLE.read_text())), ["alice", "bruno"])
    Analysis.objects.create(
        match=match,
        source=AnalysisSource.PLAYED,
        mat="(stored)",
        players=["alice", "bruno"],
        match_length=3,
        plies=0,
        status=AnalysisStatus.DONE,
        result=result,
        finished_at=timezone.now(),
    )
    return match.pk, result


def go_to(page: Page, index: int, total: int) -> None:
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#decision-count")).to_have_text(f"{index + 1} of {total}")


def signed(value: float) -> str:
    return f"{'+' if value >= 0 else ''}{value:.3f}"


def difference(value: float, digits: str) -> str:
    return "" if value == 0 else f" ({'+' if value > 0 else '−'}{abs(value):{digits}})"


@pytest.mark.browser
class TheCubeTable(BrowserTestCase):
    def test_a_take_and_a_too_good_position_on_a_desktop_and_a_phone(self) -> None:
        match_id, result = beside_the_browser(analysed_match)
        decisions = result["decisions"]
        total = len(decisions)
        take = next(i for i, d in enumerate(decisions) if d["action"] == "take")
        too_good = next(i for i, d in enumerate(decisions) if d["cube"] and d["cube"]["too_good"])
        checker = next(i for i, d in enumerate(decisions) if d["kind"] == "checker")
        page = self.new_page()
        self.log_in(page, "alice", PASSWORD)
        page.goto(self.url(f"/matches/{match_id}/analysis/"))
        table = page.locator("[data-testid=cube-equities]")

        # a checker play shows its candidates, no cube table
        go_to(page, checker, total)
        expect(table).to_be_hidden()

        # the take: GNU Backgammon's double, pass, the take's row marked, the pass's the best
        page.locator(f"[data-testid=blunders] tr[data-decision='{take}']").click()
        expect(table).to_be_visible()
        expect(page.locator("[data-testid=candidates]")).to_be_hidden()
        expect(page.locator("#cube-verdict")).to_have_text("Proper cube action: Double, pass")
        expect(page.locator("#decision-best")).to_have_text("Best: drop")
        options = decisions[take]["cube"]["options"]
        rows = page.evaluate(ROWS, "[data-testid=cube-equities] tbody tr")
        assert rows == [
            [
                {"no double": "No double", "double, take": "Double, take"}.get(
                    o["action"], "Double, pass"
                )
                + (" · played" if o["played"] else ""),
                signed(o["equity"]) + difference(o["diff"], ".3f"),
                f"{100 * o['mwc']:.2f} %"
                + difference(100 * o["diff_mwc"], ".2f").replace(")", " %)"),
            ]
            for o in options
        ]
        assert rows[1][0] == "Double, take · played"
        marked = page.locator("[data-testid=cube-equities] tr.is-played td.cube-option")
        expect(marked).to_have_count(1)
        expect(marked).to_contain_text("Double, take")
        expect(page.locator("[data-testid=cube-equities] tr.is-best td.cube-option")).to_have_text(
            "Double, pass"
        )

        # a too-good position: not doubling was right, and the table says why
        go_to(page, too_good, total)
        expect(page.locator("#decision-title")).to_contain_text("no double")
        expect(page.locator("#cube-verdict")).to_have_text(
            "Proper cube action: Too good to double, pass"
        )
        expect(page.locator("#decision-best")).to_have_text("The best choice.")
        expect(
            page.locator("[data-testid=cube-equities] tr.is-best td.cube-option")
        ).to_contain_text("No double")

        # on a phone: the table under the board, all of it in sight
        phone = self.new_page(**PHONE)
        self.log_in(phone, "bruno", PASSWORD)
        phone.goto(self.url(f"/matches/{match_id}/analysis/"))
        go_to(phone, take, total)
        expect(phone.locator("[data-testid=candidates]")).to_be_hidden()
        box = phone.locator("[data-testid=cube-equities] table").bounding_box()
        assert box is not None
        scroll_width, inner_width = phone.evaluate(SIDEWAYS)
        assert scroll_width <= inner_width, phone.evaluate(WIDER_THAN_THE_SCREEN)
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= inner_width
        for cell in phone.locator("[data-testid=cube-equities] tbody td").all():
            cell_box = cell.bounding_box()
            assert cell_box is not None
            assert cell_box["x"] + cell_box["width"] <= inner_width
        phone.locator("#decision").screenshot(path=str(SCREENSHOTS / "cube-table-phone.png"))
        go_to(page, take, total)
        page.locator(".analysis-replay").screenshot(path=str(SCREENSHOTS / "cube-table.png"))
