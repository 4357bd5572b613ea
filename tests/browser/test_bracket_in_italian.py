"""The bracket's scripts speak the page's language: on an Italian page the flights' tabs and
the fit button read in Italian, a result arriving over the socket redraws its slots from
the frame's Italian markup, and the start's countdown counts in Italian."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import User
from matches.models import Match, MatchStatus
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.integration.tournaments.helpers import (
    concede,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tests.untranslated import untranslated
from tournaments import scheduler, services

pytestmark = pytest.mark.slow


def running(name: str, count: int, **settings: object) -> tuple[int, list[str]]:
    """A tournament started among ``count`` players; its id and the names shown."""
    owner = organizer()
    tournament = open_tournament(owner, name=name, **settings)
    field = players(count)
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    names = [
        name,
        *(
            value
            for user in (owner, *field)
            for value in (user.username, user.profile.display_name)
        ),
    ]
    return tournament.pk, names


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class BracketInItalian(BrowserTestCase):
    def test_the_flights_bar_reads_in_italian_and_nothing_is_left_in_english(self) -> None:
        tournament_id, names = beside_the_browser(
            lambda: running("Coppa Doppia", 6, format="double_elimination")
        )
        pages = {}
        for locale in ("en-GB", "it-IT"):
            page = self.new_page(locale=locale)
            page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
            page.wait_for_selector("[data-testid=bracket-view]")
            pages[locale] = page

        italian = pages["it-IT"]
        expect(italian.locator("[data-testid=flight-tab-all]")).to_have_text("Tutti i tabelloni")
        expect(italian.locator(".bracket-tabs")).to_have_attribute("aria-label", "Tabelloni")
        fit = italian.locator("[data-testid=bracket-fit]")
        expect(fit).to_have_text("Dimensione reale")  # fitted to the width at first
        fit.click()
        expect(fit).to_have_text("Adatta alla larghezza")
        fit.click()
        left = untranslated(pages["en-GB"].content(), italian.content(), [*names, "Swing"])
        assert left == []
        self.screenshot(italian, "bracket-in-italian")

    def test_a_result_redraws_its_slots_in_italian(self) -> None:
        tournament_id, _names = beside_the_browser(
            lambda: running("Coppa Italia", 4, round_lengths=(1,))
        )
        match = Match.objects.filter(tournament_id=tournament_id).order_by("pk").first()
        assert match is not None
        page = self.new_page(locale="it-IT")
        page.goto(self.url(f"/tournaments/{tournament_id}/bracket/"))
        page.wait_for_selector("[data-bracket-live][data-live=on]")

        loser = User.objects.get(pk=match.player_1_id)
        winner = User.objects.get(pk=match.player_0_id)
        beside_the_browser(lambda: concede(match, loser))
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED

        # the final's slot and the semi-final's, put in place from the frame (no fetch)
        page.wait_for_selector(
            f"[data-testid=slot-1-0] [data-username={winner.username}]", timeout=20_000
        )
        expect(page.locator("[data-bracket-live]")).to_have_attribute("data-updated", "1")
        expect(page.locator("[data-testid=slot-0-0]")).to_have_attribute(
            "title", "Apri il tavoliere"
        )
        waiting = page.locator("[data-testid=slot-1-0] [title^='Vincitore di']")
        expect(waiting).to_have_attribute("title", "Vincitore di Semifinali, match 2")
        assert "Open the board" not in page.content()

    def test_the_start_counts_down_in_italian(self) -> None:
        owner = beside_the_browser(organizer)
        tournament = beside_the_browser(
            lambda: open_tournament(
                owner, name="Coppa Sera", starts_at=timezone.now() + timezone.timedelta(hours=2)
            )
        )
        page = self.new_page(locale="it-IT")
        page.goto(self.url(f"/tournaments/{tournament.pk}/"))

        expect(page.locator("[data-testid=starts-in]")).to_have_text(
            re.compile(r"^inizia tra (1 h 59 min|2 h 00 min)$")
        )
