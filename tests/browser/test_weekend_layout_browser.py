"""In a real browser: a weekend's knockout with a last chance and a consolation together.
At 1280 px and on a 390 px phone the three flights are drawn under their names, one road
each: the main flight, the last chance its early losers drop into, the consolation fed by
the last chance. A main result moves its loser into the last chance without a reload, and
nothing but the bracket itself scrolls sideways on the phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from matches.models import Match
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.integration.tournaments.helpers import concede, open_tournament, organizer, players
from tournaments import scheduler, services
from tournaments.models import Pairing, Tournament

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIDEWAYS = "() => document.documentElement.scrollWidth"
FLIGHTS = {"main": "Main flight", "last_chance": "Last chance", "consolation": "Consolation"}


def running_weekend(count: int) -> int:
    """A knockout of ``count`` whose last chance brings its winner back among the last 4
    and whose consolation takes those out in the last chance's first round; first
    matches made."""
    owner = organizer()
    tournament = open_tournament(owner, name="Weekend Main", buy_in_cents=0, fee_cents=0)
    Tournament.objects.filter(pk=tournament.pk).update(
        consolation_through_round=0, last_chance_reenters_at=4
    )
    for player in players(count):
        services.entry_register(tournament_id=tournament.pk, user=player)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    return tournament.pk


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not drawn"
    return found


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class TheWeekendLayoutInTheBrowser(BrowserTestCase):
    def test_on_a_desktop_every_flight_is_named_and_a_loser_drops_into_the_last_chance(
        self,
    ) -> None:
        tournament_id = beside_the_browser(lambda: running_weekend(12))
        page = self.new_page(**DESKTOP)
        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")

        for flight, title in FLIGHTS.items():
            expect(page.locator(f".flight[data-flight={flight}] .flight-title")).to_have_text(title)
        assert page.evaluate(SIDEWAYS) <= DESKTOP["width"]
        self.screenshot(page, "weekend-layout-desktop")

        # when a main match of the first round ends (not a bye), its bottom player resigning
        row = (
            Pairing.objects.filter(
                tournament_id=tournament_id, flight="main", round=0, match_id__isnull=False
            )
            .order_by("position")
            .first()
        )
        assert row is not None
        match = Match.objects.get(pk=row.match_id)
        loser = User.objects.get(pk=match.player_1_id)
        beside_the_browser(lambda: concede(match, loser))

        # then the loser appears in the last chance, without a reload
        page.wait_for_selector(
            f".flight[data-flight=last_chance] [data-username={loser.username}]", timeout=20_000
        )
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        self.screenshot(page, "weekend-layout-live")

    def test_on_a_phone_the_flights_stack_and_only_the_bracket_scrolls_sideways(self) -> None:
        tournament_id = beside_the_browser(lambda: running_weekend(12))
        page = self.new_page(**PHONE)

        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")

        tops = [box(page, f".flight[data-flight={flight}]")["y"] for flight in FLIGHTS]
        assert tops[0] == min(tops)  # the main flight first
        assert len(set(tops)) == len(FLIGHTS)  # one above the other
        assert page.evaluate(SIDEWAYS) <= PHONE["width"]
        scroller = box(page, ".bracket-scroll")
        assert scroller["x"] >= 0
        assert scroller["x"] + scroller["width"] <= PHONE["width"]
        self.screenshot(page, "weekend-layout-phone")
