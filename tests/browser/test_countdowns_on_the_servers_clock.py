"""Countdowns count on the server's clock, not the browser's: a player whose computer clock
is wrong still sees how long is really left, and a board draws a match clock as the server
reads it (stopped until both players have come to the board)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments.models import Tournament

pytestmark = pytest.mark.slow

# The browser's clock is this far ahead of the server's.
FAST_BY = timedelta(minutes=50)


def _starting_in(wait: timedelta) -> int:
    tournament = open_tournament(organizer(), name="Sunday Knockout")
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() + wait)
    return tournament.pk


@pytest.mark.browser
class CountdownsOnTheServersClock(BrowserTestCase):
    def test_a_tournaments_start_counts_down_right_in_a_browser_whose_clock_is_fast(self) -> None:
        # given: a tournament starting in two hours, and a browser fifty minutes fast
        tournament_id = beside_the_browser(lambda: _starting_in(timedelta(hours=2)))
        page = self.new_page()
        page.clock.install(time=timezone.now() + FAST_BY)

        # when: the tournament's page is opened
        page.goto(self.url(f"/tournaments/{tournament_id}/"))

        # then: it starts in two hours, not in one hour ten
        expect(page.locator("[data-testid=starts-in]")).to_have_text(
            re.compile(r"^starts in (1 h 59|2 h 00) min$")
        )

    def test_a_board_shows_no_clock_running_before_both_players_came(self) -> None:
        # given: a timed match whose first turn has started, Bruno not at the board yet
        alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
        timed = {"kind": "move", "move_seconds": 12, "reserve_seconds": 60}
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=3, clock=timed))
        page = self.new_page()
        self.log_in(page, "alice", PASSWORD)

        # when: Alice opens the board
        page.goto(self.url(f"/matches/{match_id}/"))
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()

        # then: both clocks stand at their full reserve, neither counting down
        for seat in (0, 1):
            clock = page.locator(f"[data-testid=clock-{seat}]")
            expect(clock).to_have_text("reserve 1:00")
            expect(clock).not_to_have_class(re.compile(r"\bis-running\b"))
