"""In a real browser: a player disputes a result, staff decide it, the player is told live
on their notification channel."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts import ledger
from matches.models import Match
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.disputes.helpers import staff
from tests.integration.matches.helpers import Bot, start_match

STAKE = 500


def _played_out(alice: object, bruno: object) -> int:
    """A staked 1-point match played to the end."""

    def play() -> int:
        match_id = start_match(alice, bruno, length=1, stake_cents=STAKE)  # type: ignore[arg-type]
        Bot({"alice": alice, "bruno": bruno}).play_out(match_id)  # type: ignore[dict-item]
        return match_id

    return beside_the_browser(play)


@pytest.mark.browser
class DisputesInTheBrowser(BrowserTestCase):
    def test_a_player_files_a_dispute_staff_overturn_it_and_the_player_sees_the_decision(
        self,
    ) -> None:
        # given a staked 1-point match played to the end
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Costa")
        staff("sam")
        match_id = _played_out(alice, bruno)
        match = Match.objects.get(pk=match_id)
        loser = match.player(1 - (match.winner_seat or 0))
        winner = match.player(match.winner_seat or 0)
        before = ledger.balance(user=loser, currency="FUN")

        # the loser opens a dispute from the match page
        player = self.new_page()
        self.log_in(player, loser.username, PASSWORD)
        player.goto(self.url(f"/matches/{match_id}/"))
        player.click("[data-testid=open-dispute]")
        player.check("[data-testid=category-result]")
        player.fill(
            "[data-testid=dispute-description]",
            "I clicked Accept on the resignation by mistake; the game was mine.",
        )
        self.screenshot(player, "dispute-1-file")
        player.click("[data-testid=dispute-submit]")
        expect(player.locator("[data-testid=dispute-state]")).to_have_text("Open")
        expect(player.locator("[data-testid=dispute-waiting]")).to_be_visible()
        self.screenshot(player, "dispute-2-filed")

        # staff find it in the queue, take it and look at the record
        desk = self.new_page()
        self.log_in(desk, "sam", PASSWORD)
        desk.click("[data-testid=nav-disputes]")
        expect(desk.locator("[data-testid=dispute-queue]")).to_contain_text(
            loser.profile.display_name
        )
        self.screenshot(desk, "dispute-3-queue")
        desk.locator("[data-testid=dispute-queue] a", has_text="Open").first.click()
        desk.click("[data-testid=take]")
        expect(desk.locator("[data-testid=dispute-state]")).to_have_text("In review")
        expect(desk.locator("[data-testid=evidence-dice]")).to_contain_text("All rolls verified")
        last = desk.inner_text("[data-testid=replay-label]")
        desk.click("[data-testid=replay-prev]")
        desk.click("[data-testid=replay-prev]")
        assert desk.inner_text("[data-testid=replay-label]") != last
        expect(desk.locator("#replay-board .checker").first).to_be_attached()
        self.screenshot(desk, "dispute-4-evidence")

        # and overturn the result with a reason
        desk.check("[data-testid=decision-overturn]")
        desk.fill("[data-testid=decision-reason-input]", "The log shows an accidental accept.")
        desk.click("[data-testid=decide-submit]")
        expect(desk.locator("[data-testid=decision]")).to_contain_text("Result overturned")
        self.screenshot(desk, "dispute-5-decided")

        # the player, still on the dispute page, is told at once
        expect(player.locator("[data-testid=notice-card]")).to_contain_text(
            "Your dispute about your match against "
            f"{winner.profile.display_name} is decided: Result overturned."
        )
        self.screenshot(player, "dispute-6-told")
        player.goto(self.url("/disputes/mine/"))
        expect(player.locator("[data-testid=my-disputes]")).to_contain_text(
            f"The match is awarded to {loser.profile.display_name}."
        )
        self.screenshot(player, "dispute-7-mine")
        player.goto(self.url(f"/matches/{match_id}/"))
        expect(player.locator("[data-testid=match-disputes]")).to_contain_text("Result overturned")

        match.refresh_from_db()
        assert match.player(match.winner_seat or 0) == loser
        assert ledger.balance(user=loser, currency="FUN") > before
        assert ledger.currency_total("FUN") == 0
        assert winner != loser

        # the decision is in the audit log
        desk.goto(self.url("/disputes/audit/"))
        expect(desk.locator("[data-testid=audit-log]")).to_contain_text(
            "The log shows an accidental accept."
        )
        self.screenshot(desk, "dispute-8-audit")
