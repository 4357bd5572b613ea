"""In a real browser: sign up, log in, change a preference, reload, see it kept."""

from __future__ import annotations

import pytest
from playwright.sync_api import ConsoleMessage, Page

from tests.browser.base import BrowserTestCase
from tests.factories import PASSWORD, UserFactory


def csp_violations(page: Page) -> list[str]:
    """Every message Chromium logs when the Content-Security-Policy refuses something."""
    refused: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            refused.append(f"{page.url}: {message.text}")

    page.on("console", note)
    return refused


@pytest.mark.browser
class AccountsInTheBrowser(BrowserTestCase):
    def test_sign_up_log_in_and_keep_a_preference(self) -> None:
        page = self.new_page()
        page.goto(self.url("/"))
        self.screenshot(page, "home-anonymous")
        page.click("text=Sign up")
        page.fill("#id_username", "rookie")
        page.fill("#id_display_name", "Rookie Roller")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_selector("text=Welcome to Crawford, Rookie Roller")
        assert page.inner_text("[data-testid=nav-role]").strip().lower() == "player"

        page.click("text=Log out")
        page.wait_for_selector("text=Log in")
        self.log_in(page, "rookie", PASSWORD)

        page.click("[data-testid=nav-user]")
        page.select_option("#id_checker_colour", "blue")
        page.uncheck("#id_highlight_legal_moves")
        page.click("text=Save preferences")
        page.wait_for_selector("text=Your preferences are saved")
        page.reload()
        self.screenshot(page, "profile-preferences")

        assert page.input_value("#id_checker_colour") == "blue"
        assert not page.is_checked("#id_highlight_legal_moves")

    def test_websocket_echo_from_a_real_browser(self) -> None:
        UserFactory(username="pinger")
        page = self.new_page()
        self.log_in(page, "pinger", PASSWORD)

        echo = page.evaluate(
            """() => new Promise((resolve, reject) => {
                const ws = new WebSocket(location.origin.replace('http', 'ws') + '/ws/ping/');
                ws.onopen = () => ws.send(JSON.stringify({message: 'from the browser'}));
                ws.onmessage = (event) => { resolve(JSON.parse(event.data)); ws.close(); };
                ws.onerror = () => reject('websocket error');
                setTimeout(() => reject('no answer'), 5000);
            })"""
        )

        assert echo == {"type": "echo", "echo": "from the browser", "user": "pinger"}

    def test_pages_and_the_api_docs_work_under_the_content_security_policy(self) -> None:
        UserFactory(username="careful")
        page = self.new_page()
        refused = csp_violations(page)
        for path in ("/", "/login/", "/signup/", "/ratings/", "/tournaments/"):
            page.goto(self.url(path))
        # The format filter sends its form from a module, not an onchange attribute.
        with page.expect_navigation():
            page.select_option("#format-filter", "knockout")
        assert "format=knockout" in page.url
        self.log_in(page, "careful", PASSWORD)
        for path in ("/play/", "/profile/", "/wallet/", "/password/"):
            page.goto(self.url(path))

        page.goto(self.url("/api/docs/"))
        page.wait_for_selector("text=/api/auth/token/")
        self.screenshot(page, "api-docs")

        assert refused == []
