"""The notices' scripts speak the page's language: a notice that arrives while an Italian
page is open gets its card, its countdown and its row on the notifications page in Italian."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from lobby.models import NoticeKind
from lobby.notifications import notify
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.slow


@pytest.mark.browser
class NoticesInItalian(BrowserTestCase):
    def test_a_notice_arriving_on_an_italian_page_is_told_in_italian(self) -> None:
        # given Alice reading her notifications in a browser that asks for Italian
        alice = UserFactory(username="alice", display_name="Alice Adams")
        page = self.new_page(locale="it-IT")
        self.log_in(page, "alice", PASSWORD)
        page.goto(self.url("/notifications/"))
        page.wait_for_selector("[data-notices][data-live=on]")
        expect(page.locator("h1")).to_have_text("Notifiche")

        # when a match becomes ready for her, with five minutes to come to the board
        show_up_by = (timezone.now() + timedelta(minutes=5)).isoformat()
        beside_the_browser(
            lambda: notify(
                user_id=alice.pk,
                kind=NoticeKind.MATCH_READY,
                key="match:1:ready",
                text="Your 5-point match is ready.",
                url="/play/",
                data={"show_up_by": show_up_by},
            )
        )

        # then its card, its countdown and its row speak Italian
        card = page.locator("[data-testid=notice-card][data-kind=match_ready]")
        expect(card.locator("[data-testid=notice-open]")).to_have_text("Vai al tavoliere")
        expect(card.locator(".notice-countdown")).to_contain_text(
            re.compile(r"Presentati al tavoliere entro [45]:\d\d\.")
        )
        expect(card.locator(".notice-close")).to_have_attribute("aria-label", "Chiudi")
        row = page.locator("[data-notice-list] .notice-row").first
        expect(row).to_contain_text("adesso")
        expect(row.locator("a")).to_have_text("Apri")
