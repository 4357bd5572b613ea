"""A live match on Italian pages: the scripts write the turn line, the buttons, the clocks,
the score panel, the move list and the result in Italian, and leave no English behind that
the English page of the same player at the same moment shows.

The dice come from a known seed: Alice opens with 5-4.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import LiveTable
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import start_match
from tests.untranslated import untranslated

pytestmark = pytest.mark.slow

NAMES = ["alice", "bruno", "Alice Adams", "Bruno Bianchi"]
# Words Italian players write as English does: a backgammon term, a badge's name and a key.
SAME = ["Raccoon", "Post-Crawford", "Esc"]


@pytest.mark.browser
class AMatchInItalian(BrowserTestCase):
    def _open(self, username: str, match_id: int, locale: str) -> Page:
        page = self.new_page(locale=locale)
        self.log_in(page, username, PASSWORD)
        page.goto(self.url(f"/matches/{match_id}/"))
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        return page

    def test_the_board_the_clocks_and_the_move_list_speak_italian(self) -> None:
        # given a 1-point match between Alice and Bruno, both reading Italian
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id = beside_the_browser(lambda: start_match(alice, bruno, length=1))
        pages = {name: self._open(name, match_id, "it-IT") for name in ("alice", "bruno")}
        table = LiveTable(match_id, pages)

        # then the turn line, the buttons and the scoreboard are Italian
        expect(pages["alice"].locator("#turn-text")).to_have_text("Tocca a te: gioca 5-4")
        expect(pages["bruno"].locator("#turn-text")).to_have_text("Alice Adams sta giocando 5-4")
        expect(pages["alice"].locator("[data-testid=confirm]")).to_have_text("Conferma")
        expect(pages["alice"].locator("[data-testid=undo]")).to_have_text("Annulla")
        expect(pages["alice"].locator("#hint")).to_have_text("Prendi una pedina per muoverla")
        expect(pages["bruno"].locator("#game-number")).to_have_text("Partita 1")
        expect(pages["bruno"].locator("#match-kind")).to_contain_text("a 1")
        expect(pages["bruno"].locator("[data-testid=spectators]")).to_have_text("0 spettatori")
        expect(pages["bruno"].locator("[data-testid=clock-0]")).to_have_attribute(
            "aria-label", re.compile("riserva")
        )
        moves = pages["bruno"].locator("[data-testid=move-list]")
        expect(moves).to_contain_text("Partita 1")
        expect(moves).to_contain_text("Lancio iniziale 5-4")
        expect(pages["bruno"].locator("#board [data-testid=dice]")).to_have_attribute(
            "aria-label", "Dadi: 5 e 4"
        )

        # and the page of the same player in English shows no word the Italian one kept
        english = self._open("bruno", match_id, "en-GB")
        expect(english.locator("#turn-text")).to_have_text("Alice Adams is playing 5-4")
        expect(english.locator("[data-testid=move-list]")).to_contain_text("Opening roll 5-4")
        assert untranslated(english.content(), pages["bruno"].content(), NAMES + SAME) == []

        # when Alice plays, Bruno is told so and asked to roll, in Italian
        table.play("alice")
        expect(pages["bruno"].locator("#hint")).to_have_text(
            f"Alice Adams ha giocato 54: {table.plays[0]}"
        )
        expect(pages["bruno"].locator("[data-testid=roll]")).to_have_text("Tira i dadi")
        expect(pages["bruno"].locator("#turn-text")).to_have_text(
            re.compile(r"^Tocca a te: tira i dadi")
        )

        # when Bruno resigns and Alice accepts, the result and the move list are Italian
        table.resign("bruno")
        expect(pages["alice"].locator("#turn-text")).to_have_text(
            "Bruno Bianchi offre di abbandonare una partita semplice (1 punto)"
        )
        expect(pages["alice"].locator("[data-testid=accept-resign]")).to_have_text(
            "Accetta l'abbandono"
        )
        table.press("alice", "accept-resign")
        expect(pages["alice"].locator("#result-title")).to_have_text("Hai vinto il match")
        expect(pages["bruno"].locator("#result-title")).to_have_text("Alice Adams vince il match")
        expect(pages["bruno"].locator("#result-score")).to_have_text(
            "Alice Adams 1 – 0 Bruno Bianchi in un match a 1 punto, per abbandono"
        )
        finished = pages["bruno"].locator("[data-testid=move-list]")
        expect(finished).to_contain_text("Abbandona (semplice)")
        expect(finished).to_contain_text("Vince 1 punto")
        expect(pages["bruno"].locator("#dice-seed")).not_to_have_text(
            "rivelato alla fine del match"
        )
