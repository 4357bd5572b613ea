"""In a real browser: the tournament pages, the organizer's form, and a bracket that shows
which matches are live and updates by itself when one is finished through the API."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from matches import presence
from matches.models import Match, MatchStatus
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD
from tests.integration.tournaments.helpers import (
    concede,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import scheduler, services


def running_knockout(name: str, count: int, **settings: object) -> int:
    owner = organizer()
    tournament = open_tournament(owner, name=name, **settings)
    register_all(tournament, players(count))
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    return tournament.pk


def come_to_the_board(match: Match) -> None:
    """Both players open the match's board, so it is under way."""
    for seat in (0, 1):
        presence.connection_open(
            match_id=match.pk, user=match.player(seat), channel=f"board-{match.pk}-{seat}"
        )


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class TournamentInTheBrowser(BrowserTestCase):
    def test_the_bracket_shows_a_winner_without_reloading(self) -> None:
        # given: a running 4-player knockout whose first semi-final both players came to,
        # its bracket open in the browser
        tournament_id = beside_the_browser(
            lambda: running_knockout("Thursday Knockout", 4, round_lengths=(3, 5))
        )
        match = Match.objects.filter(tournament_id=tournament_id).order_by("pk").first()
        assert match is not None
        beside_the_browser(lambda: come_to_the_board(match))
        page = self.new_page()
        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")
        expect(page.locator("[data-testid=slot-0-0]")).to_have_attribute("data-status", "live")
        expect(page.locator("[data-testid=slot-0-1]")).to_have_attribute(
            "data-status", "waiting for players"
        )
        self.screenshot(page, "tournament-bracket-live-before")

        # when: the first semi-final ends through the match API
        loser = User.objects.get(pk=match.player_1_id)
        winner = User.objects.get(pk=match.player_0_id)
        for _ in range(3):  # a 3-point match: three single games conceded
            match.refresh_from_db()
            if match.status != MatchStatus.PLAYING:
                break
            beside_the_browser(lambda: concede(match, loser))

        # then: the winner appears in the final, without a reload
        page.wait_for_selector(
            f"[data-testid=slot-1-0] [data-username={winner.username}]", timeout=20_000
        )
        won = page.locator("[data-testid=slot-0-0] .side-won")
        assert won.locator(".side-name").inner_text() == winner.profile.display_name
        assert won.locator(".side-seed").inner_text().isdigit()  # seeds are shown
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
        self.screenshot(page, "tournament-bracket-live-after")

    def test_an_organizer_creates_a_tournament_with_errors_beside_the_fields(self) -> None:
        beside_the_browser(organizer)
        page = self.new_page()
        self.log_in(page, "orla", PASSWORD)
        page.goto(self.url("/tournaments/"))
        page.click("[data-testid=new-tournament]")
        page.fill("#id_name", "Saturday Sit & Go")
        page.select_option("#id_format", "sit_and_go")
        page.fill("#id_round_lengths", "3, five")
        page.fill("#id_seats", "65")
        page.click("text=Create the tournament")
        page.wait_for_selector(".field-invalid")
        self.screenshot(page, "tournament-form-errors")

        # every error in one pass, each beside its own field
        invalid = page.locator(".field-invalid")
        expect(invalid).to_have_count(2)
        expect(invalid.filter(has=page.locator("#id_round_lengths"))).to_contain_text(
            "Write whole numbers of points"
        )
        expect(invalid.filter(has=page.locator("#id_seats"))).to_contain_text(
            "less than or equal to 64"
        )
        page.fill("#id_round_lengths", "3, 5")
        page.fill("#id_seats", "8")
        page.click("text=Create the tournament")
        page.wait_for_selector("[data-testid=open]")
        page.click("[data-testid=open]")
        page.wait_for_selector("text=Registration is open.")
        assert page.inner_text("[data-testid=buy-in]").split() == ["10.00", "+", "0.65", "FUN"]
        assert page.inner_text("[data-testid=seats]") == "0 / 8"
        self.screenshot(page, "tournament-page-open")

    def test_a_player_registers_and_finds_it_under_my_tournaments(self) -> None:
        def club() -> None:
            tournament = open_tournament(organizer(), name="Club Knockout", max_entrants=16)
            register_all(tournament, players(5, prefix="club"))
            players(1, prefix="me")

        beside_the_browser(club)
        page = self.new_page()
        self.log_in(page, "me00", PASSWORD)

        page.goto(self.url("/tournaments/"))
        page.wait_for_selector("[data-testid=tournament-list]")
        self.screenshot(page, "tournament-lobby")
        page.click("text=Club Knockout")
        page.click("[data-testid=register]")
        page.wait_for_selector("text=You are in. Good luck!")
        assert page.inner_text("[data-testid=seats]") == "6 / 16"
        assert page.inner_text("[data-testid=prize-pool]").split() == ["60.00", "FUN"]
        self.screenshot(page, "tournament-page-registered")
        page.goto(self.url("/tournaments/mine/"))
        assert "Club Knockout" in page.inner_text("[data-testid=tournament-list]")
        page.goto(self.url("/"))
        filling = page.locator("[data-testid=home-filling-tournaments]")
        assert "Club Knockout" in filling.inner_text()
        assert filling.locator("[data-testid=seats]").inner_text() == "6 / 16"
        self.screenshot(page, "home-tournaments-filling")

    def test_a_bracket_of_256_players_draws_the_round_being_played_and_the_last_rounds(
        self,
    ) -> None:
        tournament_id = beside_the_browser(
            lambda: running_knockout("Grand Open", 256, buy_in_cents=0, fee_cents=0)
        )
        page = self.new_page()

        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))

        # every round is there; the first (being played) and the last three drawn, the
        # others a "Show" away (tests/browser/test_big_bracket_browser.py opens one)
        assert page.locator(".bracket-round").count() == 8
        assert page.locator(".slot").count() == 128 + 4 + 2 + 1
        final = page.locator("[data-testid=slot-7-0]").bounding_box()
        first = page.locator("[data-testid=slot-0-0]").bounding_box()
        assert final is not None
        assert first is not None
        assert final["x"] > first["x"]
        self.screenshot(page, "tournament-bracket-256")
