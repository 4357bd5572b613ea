"""Three browsers follow a live match: two players and a spectator on a phone.

Each change's state frame carries the move-list rows it added, so the move list grows
without asking the server for it again; only a page that missed frames fetches it anew.
Presence frames tell the players someone is watching; chat keeps players and spectators
apart.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from matches.move_list import move_list
from matches.selectors import match_for_viewer
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import LiveTable
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match


class FrameFilter:
    """Sits between a page and the match's WebSocket; drops state frames while ``dropping``."""

    def __init__(self) -> None:
        self.dropping = False
        self.dropped: list[dict[str, Any]] = []

    def route(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        server_side.on_message(lambda message: self._to_page(page_side, message))
        page_side.on_message(server_side.send)

    def _to_page(self, page_side: WebSocketRoute, message: str | bytes) -> None:
        frame = json.loads(message)
        if self.dropping and frame["type"] == "state":
            self.dropped.append(frame)
            return
        page_side.send(message)


def count_move_list_fetches(page: Page) -> list[str]:
    fetched: list[str] = []
    page.on(
        "request",
        lambda request: fetched.append(request.url) if request.url.endswith("/moves/") else None,
    )
    return fetched


def move_list_texts(page: Page) -> list[str]:
    return page.locator("[data-testid=move-list] li .text").all_inner_texts()


def say(page: Page, text: str) -> None:
    page.fill("[data-testid=chat-input]", text)
    page.click("[data-testid=chat-send]")


@pytest.mark.browser
class TheMoveListFollowsTheMatch(BrowserTestCase):
    def test_the_move_list_grows_from_the_rows_each_change_pushes(self) -> None:
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        UserFactory(username="carla", display_name="Carla Conti")
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3))

        def server_rows() -> list[str]:
            rows = beside_the_browser(lambda: move_list(match_for_viewer(match_id_=match_id)))
            return [row["text"] for row in rows]

        pages = {"alice": self.new_page(), "bruno": self.new_page()}
        watcher = self.new_page(width=390, height=844)
        frames = FrameFilter()
        watcher.route_web_socket(re.compile(r"/ws/matches/"), frames.route)
        fetches = {page: count_move_list_fetches(page) for page in [*pages.values(), watcher]}
        for username, page in [*pages.items(), ("carla", watcher)]:
            self.log_in(page, username, PASSWORD)
            page.goto(self.url(f"/matches/{match_id}/"))
            expect(page.locator("[data-testid=move-list]")).to_contain_text("Opening roll")

        # The players learn someone is watching; the watcher knows they only watch.
        for page in pages.values():
            expect(page.locator("[data-testid=spectators]")).to_have_text("1 watching")
        expect(watcher.locator("[data-testid=watching]")).to_be_visible()
        expect(watcher.locator("[data-testid=roll]")).to_be_hidden()
        expect(watcher.locator("#resign-menu")).to_be_hidden()

        table = LiveTable(match_id, pages, watchers=[watcher])
        for _ in range(4):
            table.take_turn()
        expected = server_rows()
        for page in [*pages.values(), watcher]:
            expect(page.locator("[data-testid=move-list] li")).to_have_count(len(expected))
            assert move_list_texts(page) == expected
        assert table.plays[1] in expected[-1]
        self.screenshot(watcher, "match-live-spectator-phone")

        # Players and spectators chat in rooms of their own.
        say(watcher, "What an opening")
        expect(watcher.locator("[data-testid=chat-log]")).to_contain_text("What an opening")
        say(pages["alice"], "Good luck")
        expect(pages["bruno"].locator("[data-testid=chat-log]")).to_contain_text("Good luck")
        expect(pages["bruno"].locator("[data-testid=chat-log]")).not_to_contain_text("opening")
        expect(watcher.locator("[data-testid=chat-log]")).not_to_contain_text("Good luck")

        # then: after the first load no page fetched the move list again
        assert [len(urls) for urls in fetches.values()] == [1, 1, 1]

        # The watcher misses a change: the next frame starts after what it knows, so it
        # fetches the whole list once more.
        table.watchers = []
        frames.dropping = True
        table.take_turn()
        while not frames.dropped:
            watcher.wait_for_timeout(50)
        frames.dropping = False
        table.watchers = [watcher]
        table.take_turn()
        expected = server_rows()
        expect(watcher.locator("[data-testid=move-list] li")).to_have_count(len(expected))
        assert move_list_texts(watcher) == expected
        assert [len(urls) for urls in fetches.values()] == [1, 1, 2]
