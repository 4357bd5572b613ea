"""In a real browser: a double elimination with a consolation, its flights drawn side by side
on a desktop and one above the other on a phone; pointing at or tabbing to a match lights
the matches its players come from and go to; a result moves its loser into the losers'
flight without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from matches.models import Match
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.integration.tournaments.helpers import concede, open_tournament, organizer, players
from tournaments import scheduler, services
from tournaments.models import Pairing, Tournament, TournamentFormat

PHONE = {"width": 375, "height": 740}
SIDEWAYS = "() => document.documentElement.scrollWidth"
FLIGHTS = ("main", "losers", "final", "consolation")


def running_double_elimination(count: int) -> int:
    """A double elimination of ``count`` with a grand-final reset and a consolation for
    those out in the first two losers' rounds, its first matches made."""
    owner = organizer()
    tournament = open_tournament(owner, name="Club Night Double", buy_in_cents=0, fee_cents=0)
    Tournament.objects.filter(pk=tournament.pk).update(
        format=TournamentFormat.DOUBLE_ELIMINATION,
        grand_final_reset=True,
        consolation_through_round=1,
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
class DoubleEliminationInTheBrowser(BrowserTestCase):
    def test_the_flights_show_their_drop_lines_and_the_losers_flight_fills_live(self) -> None:
        # given: a running 8-player double elimination, its bracket open on a desktop
        tournament_id = beside_the_browser(lambda: running_double_elimination(8))
        page = self.new_page(width=1440, height=900)
        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")
        for flight in FLIGHTS:
            expect(page.locator(f".flight[data-flight={flight}] .flight-title")).to_be_visible()
        winners, losers = (
            box(page, ".flight[data-flight=main]"),
            box(page, ".flight[data-flight=losers]"),
        )
        assert losers["x"] >= winners["x"] + winners["width"]  # side by side
        drop_in = page.locator("[data-testid=slot-losers-0-0] abbr.side-from").first
        expect(drop_in).to_have_text("L of W R1 M1")
        expect(drop_in).to_have_attribute("title", "Loser of Winners' quarter-finals, match 1")

        # when: the pointer rests on the losers' first match
        page.hover("[data-testid=slot-losers-0-0]")

        # then: the two winners' matches whose losers meet there light up
        for feeder in ("slot-0-0", "slot-0-1"):
            expect(page.locator(f"[data-testid={feeder}]")).to_have_class(
                "slot slot-waiting-for-players slot-feeds"
            )
        self.screenshot(page, "double-elimination-hover")

        # when: the keyboard reaches the winners' first match
        page.mouse.move(0, 0)
        page.locator("[data-testid=slot-0-0]").focus()

        # then: where its winner and its loser go light up, and nothing else stays lit
        expect(page.locator("[data-testid=slot-1-0]")).to_contain_class("slot-winner-to")
        expect(page.locator("[data-testid=slot-losers-0-0]")).to_contain_class("slot-loser-to")
        expect(page.locator(".slot-feeds")).to_have_count(0)
        self.screenshot(page, "double-elimination-focus")

        # when: the winners' first match ends, its bottom player resigning
        row = Pairing.objects.get(tournament_id=tournament_id, flight="main", round=0, position=0)
        match = Match.objects.get(pk=row.match_id)
        loser = User.objects.get(pk=match.player_1_id)
        beside_the_browser(lambda: concede(match, loser))

        # then: the loser appears in the losers' flight, without a reload
        page.wait_for_selector(
            f"[data-testid=slot-losers-0-0] [data-username={loser.username}]", timeout=20_000
        )
        expect(page.locator("[data-testid=slot-0-0]")).to_have_attribute("data-status", "finished")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        self.screenshot(page, "double-elimination-live")

    def test_on_a_phone_the_flights_stack_and_only_the_bracket_scrolls_sideways(self) -> None:
        tournament_id = beside_the_browser(lambda: running_double_elimination(8))
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
        self.screenshot(page, "double-elimination-phone")
