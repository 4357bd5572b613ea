"""In a real browser: staff find a fair-play case in its queue beside disputes, read the
evidence, sanction the player; the player reads the decision and appeals it, and staff
uphold the appeal in the disputes queue."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import Standing
from fairplay.detectors import dumping
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
        expect(desk.locator("[data-testid=evidence-2]")).to_contain_text("Resigned")
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
        appealed = Case.objects.get(pk=case.pk)
        assert appealed.appeal.startswith("A friend")

        # the appeal waits in the disputes queue; Tess reads the decision appealed and
        # upholds it
        staff("tess")
        desk2 = self.new_page()
        self.log_in(desk2, "tess", PASSWORD)
        desk2.goto(self.url("/disputes/?category=appeal"))
        row = desk2.locator(f"[data-testid=queue-row-{appealed.appeal_dispute_id}]")
        expect(row).to_contain_text(f"Fair-play case #{case.pk}")
        row.locator("a >> nth=0").click()
        expect(desk2.locator("[data-testid=appealed-decision]")).to_contain_text("Suspend")
        expect(desk2.locator("[data-testid=decision-overturn]")).to_have_count(0)
        self.screenshot(desk2, "fairplay-4-appeal-dispute")
        desk2.check("[data-testid=decision-uphold]")
        desk2.fill("[data-testid=decision-reason-input]", "His friend played from his account.")
        desk2.click("[data-testid=decide-submit]")
        expect(desk2.locator("[data-testid=decision]")).to_contain_text("Upheld")

        # Carl is told, and may play again
        phone.goto(self.url(f"/disputes/{appealed.appeal_dispute_id}/"))
        expect(phone.locator("[data-testid=decision]")).to_contain_text("lifted")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        self.screenshot(phone, "fairplay-5-appeal-upheld-phone")
        assert Case.objects.get(pk=case.pk).state == CaseState.DECIDED
        assert beside_the_browser(lambda: Standing.objects.get(user=carl).suspended_until) is None
