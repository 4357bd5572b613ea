"""In real browsers: a Sit & Go fills and each entrant is sent to their board by a "your
match is ready" notice; a seek posted by one player appears in another's lobby and is
taken with one click, and its creator is told."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from lobby.models import Seek
from matches.models import Match, MatchStatus
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments import services

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class LobbyInTheBrowser(BrowserTestCase):
    def open_as(self, username: str, path: str, **size: int) -> Page:
        page = self.new_page(**size)
        self.log_in(page, username, PASSWORD)
        page.goto(self.url(path))
        page.wait_for_selector("[data-notices][data-live=on]")
        return page

    def test_a_sit_and_go_fills_and_each_entrant_is_sent_to_their_board(self) -> None:
        # given a two-seat Sit & Go with Alice registered, waiting on the home page
        alice = UserFactory(username="alice", display_name="Alice Adams")
        UserFactory(username="bruno", display_name="Bruno Costa")

        def one_seat_left() -> int:
            tournament = open_tournament(
                organizer(),
                name="Friday Sit & Go",
                format="sit_and_go",
                seats=2,
                buy_in_cents=500,
                fee_cents=35,
                round_lengths=(3,),
                show_up_seconds=300,
            )
            services.entry_register(tournament_id=tournament.pk, user=alice)
            return tournament.pk

        tournament_id = beside_the_browser(one_seat_left)
        waiting = self.open_as("alice", "/")
        joining = self.open_as("bruno", f"/tournaments/{tournament_id}/", **PHONE)

        # when Bruno takes the last seat
        joining.click("[data-testid=register]")

        # then each is told their match is ready, with the show-up countdown
        for page, opponent in ((waiting, "Bruno Costa"), (joining, "Alice Adams")):
            ready = page.locator("[data-testid=notice-card][data-kind=match_ready]")
            expect(ready).to_contain_text(
                f"Your 3-point match against {opponent} in Friday Sit & Go is ready.",
                timeout=20_000,
            )
            expect(ready.locator(".notice-countdown")).to_contain_text(
                re.compile(r"Be at the board within [45]:\d\d\.")
            )
        self.screenshot(waiting, "sit-and-go-1-ready-desktop")
        self.screenshot(joining, "sit-and-go-2-ready-phone")

        # and one click takes each to the same board
        match = beside_the_browser(lambda: Match.objects.get(tournament_id=tournament_id))
        for page in (waiting, joining):
            card = page.locator("[data-testid=notice-card][data-kind=match_ready]")
            card.locator("[data-testid=notice-open]").click()
            expect(page).to_have_url(self.url(f"/matches/{match.pk}/"))
            expect(page.locator("[data-testid=board]")).to_be_visible()
        self.screenshot(joining, "sit-and-go-3-board-phone")
        assert match.status == MatchStatus.PLAYING

    def test_a_seek_is_taken_from_the_lobby_and_its_creator_is_told(self) -> None:
        UserFactory(username="alice", display_name="Alice Adams")
        UserFactory(username="bruno", display_name="Bruno Costa")
        lobby = self.open_as("bruno", "/play/")
        phone = self.open_as("alice", "/play/", **PHONE)
        expect(lobby.locator("[data-testid=no-seeks]")).to_be_visible()
        lobby.wait_for_selector("[data-seeks-live][data-live=on]")

        # when Alice posts a seek for a blitz 3-point match from her phone
        phone.click("[data-testid=post-seek-toggle]")
        phone.fill("#id_seek-length", "3")
        phone.select_option("#id_seek-clock", "blitz")
        self.screenshot(phone, "seeks-1-post-phone")
        phone.click("[data-testid=seek-submit]")
        expect(phone.locator(".message")).to_contain_text("Your seek is posted")
        expect(phone.locator("[data-testid=seeks] .seek-own")).to_contain_text("Your seek")
        self.screenshot(phone, "seeks-2-waiting-phone")

        # then it appears in Bruno's lobby without a reload
        seek = beside_the_browser(lambda: Seek.objects.get())
        row = lobby.locator(f"[data-testid=seek-{seek.pk}]")
        expect(row).to_contain_text("Alice Adams")
        expect(row).to_contain_text("3-point match · rated")
        expect(row).to_contain_text("8 s a move, 30 s a point")
        assert lobby.evaluate("performance.getEntriesByType('navigation').length") == 1
        self.screenshot(lobby, "seeks-3-listed-desktop")

        # when he takes it with one click
        row.locator("[data-testid=seek-take]").click()

        # then he is at the board, and Alice is told, and sent there with one click
        expect(lobby).to_have_url(re.compile(r"/matches/\d+/$"))
        taken = phone.locator("[data-testid=notice-card][data-kind=seek_taken]")
        expect(taken).to_contain_text("Bruno Costa took your seek: your 3-point match is ready.")
        expect(phone.locator("[data-testid=no-seeks]")).to_be_visible()
        self.screenshot(phone, "seeks-4-taken-phone")
        taken.locator("[data-testid=notice-open]").click()
        expect(phone).to_have_url(lobby.url)
