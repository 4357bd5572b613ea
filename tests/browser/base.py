"""Browser tests: Playwright driving Debian's Chromium against a live ASGI server.

Each test starts and stops its own Playwright: a longer-lived sync Playwright keeps an
event loop that breaks later ``asyncio.run()`` calls in the same process.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import pytest
from asgiref.sync import SyncToAsync
from channels.layers import channel_layers
from channels.testing import ChannelsLiveServerTestCase
from daphne.testing import DaphneProcess
from django.db import connections
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(
    os.environ.get("CRAWFORD_SCREENSHOTS", Path(__file__).resolve().parents[2] / "test-artifacts")
)


T = TypeVar("T")


def beside_the_browser(work: Callable[[], T]) -> T:
    """Run service code in a thread of its own and return its result.

    Playwright's sync API keeps an event loop running in the test's thread, and services
    publish live events through ``async_to_sync``, which refuses to run in such a thread.
    """

    def run() -> T:
        try:
            return work()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


class ForkedDaphneProcess(DaphneProcess):
    """The live server, forked from the test process with fresh thread pools.

    Threads do not survive a fork: the executor that runs database calls for async
    code would wait forever for a thread that exists only in the parent.
    """

    def run(self) -> None:
        SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
        super().run()


@pytest.mark.usefixtures("other_processes_leave_the_test_database")
class BrowserTestCase(ChannelsLiveServerTestCase):
    ProtocolServerProcess = ForkedDaphneProcess
    playwright: Playwright
    browser: Browser

    @classmethod
    def setUpClass(cls) -> None:
        # The live server is forked from this process: a channel layer made here by an
        # earlier test is bound to that test's event loop, so the server must make its own.
        channel_layers.backends.clear()
        super().setUpClass()

    def setUp(self) -> None:
        super().setUp()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    def tearDown(self) -> None:
        self.browser.close()
        self.playwright.stop()
        super().tearDown()

    def new_page(self, *, width: int = 1280, height: int = 900, locale: str = "en-GB") -> Page:
        """A page in a browser of its own (cookies apart); ``width=390`` for a phone,
        ``locale="it-IT"`` for a browser that asks for Italian."""
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, locale=locale
        )
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    def url(self, path: str) -> str:
        return f"{self.live_server_url}{path}"

    def screenshot(self, page: Page, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    def log_in(self, page: Page, username: str, password: str) -> None:
        page.goto(self.url("/login/"))
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.click("form button[type=submit]")
        page.wait_for_selector("[data-testid=nav-user]")
