"""The analysis page's script speaks the page's language: an Italian reader steps through
the decisions with the title, the move played, the best one, the luck and the count in
Italian, and the errors list names its marks in Italian."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from analysis.match_analysis import match_analysis
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.results import result_of
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.disputes.helpers import finished_match

pytestmark = pytest.mark.slow

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "mat" / "crawford_3pt.analysis.json"


def analysed_match() -> int:
    """A finished match between Alice and Bruno with GNU Backgammon's saved analysis."""
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
    match = finished_match(alice, bruno)
    Analysis.objects.create(
        match=match,
        source=AnalysisSource.PLAYED,
        mat="(stored)",
        players=["alice", "bruno"],
        match_length=3,
        plies=0,
        status=AnalysisStatus.DONE,
        result=result_of(match_analysis(json.loads(SAMPLE.read_text())), ["alice", "bruno"]),
        finished_at=timezone.now(),
    )
    return match.pk


@pytest.mark.browser
class AnalysisInItalian(BrowserTestCase):
    def test_an_italian_reader_steps_through_the_decisions_in_italian(self) -> None:
        # given an analysed match, read by Alice in a browser that asks for Italian
        match_id = beside_the_browser(analysed_match)
        page = self.new_page(locale="it-IT")
        self.log_in(page, "alice", PASSWORD)

        # when she opens its analysis
        page.goto(self.url(f"/matches/{match_id}/analysis/"))

        # then the replay's first decision and the course of the match speak Italian
        expect(page.locator("#decision-title")).to_contain_text(re.compile(r"^Partita 1 · "))
        expect(page.locator("#decision-count")).to_contain_text(re.compile(r"^1 di \d+$"))
        expect(page.locator("#decision-played")).to_contain_text(re.compile(r"^Giocata "))
        expect(page.locator("#course text").first).to_have_text("Partita 1")

        # and the first error, reached with Shift+→, is told with its mark in Italian
        page.keyboard.press("Shift+ArrowRight")
        expect(page.locator("#decision-best")).to_contain_text(re.compile(r"^Migliore: "))
        expect(page.locator("#decision-played")).to_contain_text(
            re.compile(r"\((dubbia|errore|errore grave)\)$")
        )
        marks = page.locator("[data-testid=blunders] td.mark").all_text_contents()
        assert marks
        assert set(marks) <= {"dubbia", "errore", "errore grave"}, marks
        english = {"very bad", "bad", "doubtful", "Game", "Played", "Best", " of "}
        shown = page.locator("#decision").inner_text()
        assert not any(word in shown for word in english), shown
