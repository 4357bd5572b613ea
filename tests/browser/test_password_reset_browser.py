"""In a real browser on a phone: a player who forgot her password asks for a link from the
log-in page, receives it by e-mail from the SMTP server, chooses a new password and logs in
with it."""

from __future__ import annotations

from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.test.utils import override_settings
from playwright.sync_api import expect

from config.celery import app as celery_app
from tests.browser.base import BrowserTestCase
from tests.factories import UserFactory
from tests.mailbox import Mailbox, free_port, links

NEW_PASSWORD = "another-long-password-7"


@pytest.mark.browser
class PasswordResetInTheBrowser(BrowserTestCase):
    mailbox: Mailbox
    smtp: Controller
    mail_settings: Any

    @classmethod
    def setUpClass(cls) -> None:
        # The live server is forked in setUpClass: it must be born sending mail to this
        # process's SMTP server, and running the mail task itself, on commit.
        cls.mailbox = Mailbox()
        port = free_port()
        cls.smtp = Controller(cls.mailbox, hostname="127.0.0.1", port=port)
        cls.smtp.start()
        cls.mail_settings = override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=port,
            EMAIL_USE_TLS=False,
            EMAIL_HOST_USER="",
            EMAIL_HOST_PASSWORD="",
        )
        cls.mail_settings.enable()
        cls.eager = celery_app.conf.task_always_eager
        celery_app.conf.task_always_eager = True
        try:
            super().setUpClass()
        finally:
            celery_app.conf.task_always_eager = cls.eager

    @classmethod
    def tearDownClass(cls) -> None:
        super().tearDownClass()
        cls.mail_settings.disable()
        cls.smtp.stop()

    def test_a_forgotten_password_is_reset_from_a_phone(self) -> None:
        UserFactory(username="alice", display_name="Alice Adams", email="alice@example.com")
        phone = self.new_page(width=390, height=844)

        # she asks for a link from the log-in page
        phone.goto(self.url("/login/"))
        phone.get_by_role("link", name="Forgot your password?").click()
        phone.fill("#id_email", "alice@example.com")
        self.screenshot(phone, "password-reset-form-phone")
        phone.get_by_role("button", name="Send me a link").click()
        expect(phone.get_by_test_id("reset-sent")).to_be_visible()

        # the link arrives; she follows it and chooses a new password
        [message] = self.mailbox.about("choose a new password")
        [link] = [link for link in links(message) if "/password/reset/" in link]
        phone.goto(link.replace(self.site_url(), self.live_server_url))
        phone.fill("#id_new_password1", NEW_PASSWORD)
        phone.fill("#id_new_password2", NEW_PASSWORD)
        self.screenshot(phone, "password-reset-new-password-phone")
        phone.get_by_role("button", name="Set my password").click()
        expect(phone.get_by_test_id("reset-complete")).to_be_visible()

        # and the new password logs her in
        self.log_in(phone, "alice", NEW_PASSWORD)
        expect(phone.get_by_test_id("nav-user")).to_contain_text("Alice Adams")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390-px phone"

    @staticmethod
    def site_url() -> str:
        from django.conf import settings

        return str(settings.CRAWFORD_SITE_URL)
