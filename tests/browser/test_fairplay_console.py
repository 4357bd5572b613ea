"""In a real browser: staff find a fair-play case in its queue beside disputes, read the
evidence, sanction the player, and the player reads the decision and appeals it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from fairplay import dumping
from fairplay.models import Case, CaseState
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.disputes.helpers import finished_match, staff


def _dumped(bruno: object, carl: object) -> None:
    def play() -> None:
        for _ in range(5):
            match = finished_match(bruno, carl, stake_cents=500)  # type: ignore[arg-type]
            dumping.scan_match(match.pk)

    beside_the_browser(play)


@pytest.mark.browser
class FairPlayConsoleInTheBrowser(BrowserTestCase):
    def test_staff_sanction_a_dumping_case_and_the_player_appeals(self) -> None:
        # given Carl, who resigned five staked matches to Bruno at his first turn
        bruno = UserFactory(username="bruno", display_name="Bruno Costa")
        carl = UserFactory(username="carl", display_name="Carl Diaz")
        staff("sam")
        _dumped(bruno, carl)
        case = Case.objects.get(kind="dumping")

        # staff find the case from the navigation, take it and read the evidence
        desk = self.new_page()
        self.log_in(desk, "sam", PASSWORD)
        desk.click("[data-testid=nav-fairplay]")
        expect(desk.locator("[data-testid=case-queue]")).to_contain_text("carl")
        self.screenshot(desk, "fairplay-1-queue")
        desk.click(f"[data-testid=case-row-{case.pk}] a >> nth=0")
        desk.click("[data-testid=case-take]")
        expect(desk.locator("[data-testid=case-state]")).to_have_text("In review")
        expect(desk.locator("[data-testid=evidence-1]")).to_contain_text("Early resignations")
        expect(desk.locator("[data-testid=evidence-2]")).to_contain_text("resigned")
        self.screenshot(desk, "fairplay-2-evidence")

        # and suspend Carl for a week, with a reason
        desk.check("[data-testid=case-sanction]")
        desk.check("[data-testid=sanction-suspend]")
        desk.fill("[data-testid=case-reason]", "Five resignations at the first roll to one friend.")
        desk.click("[data-testid=case-decide-submit]")
        expect(desk.locator("[data-testid=case-sanctions]")).to_contain_text("Suspend")
        assert Case.objects.get(pk=case.pk).state == CaseState.DECIDED

        # Carl reads the decision from his notice and appeals it, on a phone
        phone = self.new_page(width=390, height=844)
        self.log_in(phone, "carl", PASSWORD)
        phone.goto(self.url(f"/fairplay/{case.pk}/"))
        expect(phone.locator("[data-testid=case-decision]")).to_contain_text("Five resignations")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        phone.fill("#id_appeal", "A friend was showing me the site; no money was meant to move.")
        phone.click("[data-testid=appeal-form] button")
        expect(phone.locator("[data-testid=case-state]")).to_have_text("Appealed")
        self.screenshot(phone, "fairplay-3-appeal-phone")
        assert Case.objects.get(pk=case.pk).appeal.startswith("A friend")
