"""In a real browser: the wallet after sign-up, its CSV, a staff adjustment, a rating chart."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from accounts import ledger
from accounts.roles import Role
from accounts.services import rating_record_match
from tests.browser.base import BrowserTestCase
from tests.factories import PASSWORD, UserFactory


@pytest.mark.browser
class WalletInTheBrowser(BrowserTestCase):
    def test_a_player_sees_the_grant_in_the_wallet_and_downloads_the_csv(self) -> None:
        player = UserFactory(username="greta", display_name="Greta Lindqvist")
        ledger.transfer_between_players(
            payer=player,
            payee=UserFactory(display_name="Hiro"),
            currency="FUN",
            amount_cents=1000,
            commission_cents=130,
            key="browser:session:1",
        )
        page = self.new_page()
        self.log_in(page, "greta", PASSWORD)

        assert page.inner_text("[data-testid=nav-balance]").split() == ["990.00", "FUN"]
        page.click("[data-testid=nav-balance]")
        page.wait_for_selector("[data-testid=wallet-history]")
        self.screenshot(page, "wallet-player")

        assert page.inner_text("[data-testid=balance-FUN]").split()[-2:] == ["990.00", "FUN"]
        history = page.inner_text("[data-testid=wallet-history]")
        assert "Sign-up grant" in history
        assert "+1,000.00" in history
        assert "-10.00" in history

        with page.expect_download() as download_info:
            page.click("[data-testid=export-csv]")
        download = download_info.value
        assert download.suggested_filename == "crawford-wallet-greta-all.csv"
        rows = list(csv.reader(io.StringIO(Path(download.path()).read_text())))
        assert [row[2] for row in rows[1:]] == ["transfer", "grant"]
        assert rows[-1][4:] == ["1000.00", "1000.00"]

    def test_staff_adjust_a_wallet_and_see_the_audit(self) -> None:
        UserFactory(username="ines", display_name="Inês Costa")
        UserFactory(username="sam", display_name="Sam Okafor", role=Role.STAFF)
        page = self.new_page()
        self.log_in(page, "sam", PASSWORD)

        page.goto(self.url("/wallet/ines/"))
        page.select_option("#id_direction", "deposit")
        page.select_option("#id_currency", "REAL")
        page.fill("#id_amount", "40.00")
        page.fill("#id_reason", "Bank transfer ref 5521")
        page.click("text=Record adjustment")
        page.wait_for_selector("text=Deposited 40.00 REAL into Inês Costa's wallet.")
        self.screenshot(page, "wallet-staff-adjusted")

        assert page.inner_text("[data-testid=balance-REAL]").split()[-2:] == ["40.00", "REAL"]
        audit = page.inner_text("[data-testid=adjustments]")
        assert "Deposit 40.00 REAL" in audit
        assert "0.00 → 40.00 · by Sam Okafor" in audit

    def test_a_player_page_draws_the_rating_chart(self) -> None:
        jonas = UserFactory(username="jonas", display_name="Jonas Becker")
        rivals = [UserFactory(display_name=f"Rival {n}") for n in range(4)]
        for number, rival in enumerate(rivals * 2):
            winner, loser = (jonas, rival) if number % 3 else (rival, jonas)
            rating_record_match(winner=winner, loser=loser, match_length=5, match_id=number)
        jonas.profile.refresh_from_db()
        page = self.new_page()

        page.goto(self.url("/players/jonas/"))
        page.wait_for_selector("[data-testid=rating-chart] polyline")
        self.screenshot(page, "player-rating-chart")

        assert page.text_content("[data-testid=chart-now]") == f"{jonas.profile.rating:.1f}"
        assert page.locator("[data-testid=rating-chart] circle.dot").count() == 9
        page.goto(self.url("/ratings/"))
        page.fill("#id_q", "jonas")
        page.click("[data-testid=ratings-search] button")
        page.wait_for_selector("text=Jonas Becker")
        self.screenshot(page, "ratings-search")
        assert page.locator("[data-testid=ratings] tbody tr").count() == 1
