"""Money reads the same on a page whatever wrote it: the browser's lib/money.js writes cents
as the server does (``accounts.money.money_text``, the ``money`` template filter)."""

from __future__ import annotations

import pytest

from accounts.money import Separators, money_text
from tests.browser.base import BrowserTestCase

pytestmark = pytest.mark.slow

AMOUNTS = [0, 5, -5, 99, 100, 1050, 123456, -123456, 100_000_000, -987_654_321]

WRITTEN_IN_THE_BROWSER = """async (amounts) => {
    const { amount, money } = await import("/static/js/lib/money.js");
    return { plain: amounts.map(money), withCurrency: amount(1050, "FUN") };
}"""


@pytest.mark.browser
class MoneyWrittenAlike(BrowserTestCase):
    def test_the_browser_writes_cents_as_the_server_does(self) -> None:
        page = self.new_page()
        page.goto(self.url("/"))

        written = page.evaluate(WRITTEN_IN_THE_BROWSER, AMOUNTS)

        assert written["plain"] == [money_text(cents) for cents in AMOUNTS]
        assert written["withCurrency"] == f"{money_text(1050)} FUN"

    def test_a_page_in_italian_writes_them_as_the_server_does_in_italian(self) -> None:
        page = self.new_page(locale="it-IT")
        page.goto(self.url("/"))
        assert page.evaluate("document.documentElement.lang") == "it"

        written = page.evaluate(WRITTEN_IN_THE_BROWSER, AMOUNTS)

        italian = Separators(thousands=".", decimal=",")
        assert written["plain"] == [money_text(cents, italian) for cents in AMOUNTS]
        assert written["plain"][6] == "1.234,56"
