"""In a real browser: a triple elimination's bracket, its winners' flight, two losers'
flights and the finals side by side at 1280 px and one above the other on a 390 px phone,
each named, the second losers' flight's drop-ins saying where they come from; a result
moves its loser into the first losers' flight without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from matches.models import Match
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.integration.tournaments.helpers import concede, open_tournament, organizer, players
from tournaments import scheduler, services
from tournaments.models import Pairing, Tournament, TournamentFormat

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SIDEWAYS = "() => document.documentElement.scrollWidth"
FLIGHTS = {
    "main": "Winners' flight",
    "losers": "First losers' flight",
    "second_losers": "Second losers' flight",
    "final": "Finals",
}


def running_triple_elimination(count: int) -> int:
    """A triple elimination of ``count`` with the finals played until a third loss, its
    first matches made."""
    owner = organizer()
    tournament = open_tournament(owner, name="Nordic Open", buy_in_cents=0, fee_cents=0)
    Tournament.objects.filter(pk=tournament.pk).update(
        format=TournamentFormat.TRIPLE_ELIMINATION, grand_final_reset=True
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
class TripleEliminationInTheBrowser(BrowserTestCase):
    def test_on_a_desktop_the_flights_stand_side_by_side_and_fill_live(self) -> None:
        # given: a running 8-player triple elimination, its bracket open at 1280 px
        tournament_id = beside_the_browser(lambda: running_triple_elimination(8))
        page = self.new_page(**DESKTOP)
        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")

        # then: every flight is drawn under its name, the losers' flights after the winners'
        for flight, title in FLIGHTS.items():
            expect(page.locator(f".flight[data-flight={flight}] .flight-title")).to_have_text(title)
        winners, first = (
            box(page, ".flight[data-flight=main]"),
            box(page, ".flight[data-flight=losers]"),
        )
        assert first["x"] >= winners["x"] + winners["width"]  # side by side
        drop_in = page.locator("[data-testid=slot-second_losers-0-0] abbr.side-from").first
        expect(drop_in).to_have_text("L of L1 R1 M1")
        expect(drop_in).to_have_attribute("title", "Loser of First losers' round 1, match 1")
        self.screenshot(page, "triple-elimination-desktop")

        # when: the winners' first match ends, its bottom player resigning
        row = Pairing.objects.get(tournament_id=tournament_id, flight="main", round=0, position=0)
        match = Match.objects.get(pk=row.match_id)
        loser = User.objects.get(pk=match.player_1_id)
        beside_the_browser(lambda: concede(match, loser))

        # then: the loser appears in the first losers' flight, without a reload
        page.wait_for_selector(
            f"[data-testid=slot-losers-0-0] [data-username={loser.username}]", timeout=20_000
        )
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        self.screenshot(page, "triple-elimination-live")

    def test_on_a_phone_the_flights_stack_and_only_the_bracket_scrolls_sideways(self) -> None:
        tournament_id = beside_the_browser(lambda: running_triple_elimination(8))
        page = self.new_page(**PHONE)

        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")

        tops = [box(page, f".flight[data-flight={flight}]")["y"] for flight in FLIGHTS]
        assert tops == sorted(tops)
        assert len(set(tops)) == len(FLIGHTS)  # one above the other
        assert page.evaluate(SIDEWAYS) <= PHONE["width"]
        scroller = box(page, ".bracket-scroll")
        assert scroller["x"] >= 0
        assert scroller["x"] + scroller["width"] <= PHONE["width"]
        self.screenshot(page, "triple-elimination-phone")
