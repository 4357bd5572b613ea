"""Practice against the computer in a real browser: a player starts a match from the play
lobby, resigns or doubles on the board, and sees the computer's answer there.

The computer plays on a real Celery worker (the analysis queue), as in production. The
dice are known: each class's live server is forked with ``matches.dice.new_seed`` giving
a fixed seed, and the computer's choices depend only on the position and the match's
sequence number (its noise is seeded with it), so every answer below is the one GNU
Backgammon gives in that position on every run. The player plays ``quick_play`` (no hits,
back checkers first) and takes every double, which soon leaves them behind.
"""

from __future__ import annotations

import re
import time
from typing import Any
from unittest import mock

import pytest
from playwright.sync_api import Page, expect

from tests.browser.base import BrowserTestCase
from tests.browser.match_helpers import (
    SHOWS_POSITION,
    fetch_state,
    mark_loaded,
    pick_and_put,
    was_not_reloaded,
)
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import quick_play

ANSWER_SECONDS = 60  # the worker's first evaluation starts GNU Backgammon


class Practice(BrowserTestCase):
    """A learner's practice match, played through the board."""

    seed: str
    learner = "lena"

    @classmethod
    def setUpClass(cls) -> None:
        # Patched before the live server is forked from this process, so it is patched there.
        cls.enterClassContext(mock.patch("matches.dice.new_seed", return_value=cls.seed))
        super().setUpClass()

    def start_practice(self, strength: str, *, length: int = 3) -> tuple[Page, int]:
        """Log in, start a practice match from the play lobby; the board and the match id."""
        UserFactory(username=self.learner, display_name="Lena")
        page = self.new_page()
        page.set_default_timeout(20_000)
        self.log_in(page, self.learner, PASSWORD)
        page.goto(self.url("/play/"))
        form = page.locator("[data-testid=practice-form]")
        form.locator("select[name=strength]").select_option(strength)
        form.locator("input[name=length]").fill(str(length))
        form.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r"/matches/\d+/$"))
        match_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        mark_loaded(page)
        return page, match_id

    def my_turn(self, page: Page, match_id: int, *, after_seq: int = 0) -> dict[str, Any]:
        """Wait until the match has moved on past ``after_seq``, the computer has done all
        it had to, and the board shows the learner what to do; returns the match as the
        learner sees it."""
        deadline = time.monotonic() + ANSWER_SECONDS
        while True:
            state = fetch_state(page, match_id)
            game = state["game"]
            waiting = state["status"] != "playing" or game["turn"] == self.learner
            if state["last_seq"] > after_seq and waiting:
                page.wait_for_function(SHOWS_POSITION, arg=game["gnubg_id"])
                expect(page.locator("#match-page")).not_to_have_class(re.compile(r"\bis-busy\b"))
                return state
            assert time.monotonic() < deadline, f"the computer never answered: {game}"
            page.wait_for_timeout(200)

    def act(self, page: Page, match_id: int, *clicks: str) -> dict[str, Any]:
        """Click through ``clicks`` (selectors) and wait for the computer's answer.

        An answer may leave the game as it was (a resignation rejected), so what says the
        action was taken is the match's sequence number, not the position."""
        before = fetch_state(page, match_id)["last_seq"]
        for selector in clicks:
            page.click(selector)
        return self.my_turn(page, match_id, after_seq=before)

    def to_my_roll(self, page: Page, match_id: int, *, rolls_before: int) -> dict[str, Any]:
        """Play on until the learner is to roll after ``rolls_before`` rolls of their own."""
        state = self.my_turn(page, match_id)
        rolled = 0
        while True:
            game = state["game"]
            if game["phase"] == "roll":
                if rolled == rolls_before:
                    return state
                rolled += 1
                state = self.act(page, match_id, "[data-testid=roll]")
            elif game["phase"] == "doubled":
                state = self.act(page, match_id, "[data-testid=take]")
            else:
                chosen = quick_play(game["legal_plays"])
                pick_and_put(page, next(p for p in game["legal_plays"] if p["text"] == chosen))
                state = self.act(page, match_id, "[data-testid=confirm]")

    def resign(self, page: Page, match_id: int, level: str) -> dict[str, Any]:
        return self.act(page, match_id, "[data-testid=resign]", f"[data-testid=resign-{level}]")

    def expect_between_games(self, page: Page, *, winner: str, how: str, score: str) -> None:
        """The result panel over the next game's board, as the player reads it."""
        panel = page.locator("[data-testid=between-games]")
        expect(panel).to_be_visible()
        expect(panel.locator("[data-game]")).to_have_text("Game 1")
        expect(panel.locator("[data-winner]")).to_have_text(winner)
        expect(panel.locator("[data-how]")).to_have_text(how)
        expect(panel.locator("[data-score]")).to_have_text(score)
        expect(panel.locator("[data-next]")).to_have_text("Game 2")


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class ResigningToTheComputer(Practice):
    # The learner wins the opening roll (6-1) and soon falls behind.
    seed = "04" * 32

    def test_the_beginner_accepts_a_single_game_resigned_at_the_start(self) -> None:
        # given a 3-point match against the beginner, the learner to roll in an even game
        page, match_id = self.start_practice("beginner")
        state = self.to_my_roll(page, match_id, rolls_before=0)
        assert state["names"] == ["Lena", "GNU Backgammon (Beginner)"]
        assert state["game"]["number"] == 1

        # when the learner resigns a single game
        state = self.resign(page, match_id, "single")

        # then the computer accepts: the game is its, and the next game is on the board
        assert state["score"] == [0, 1]
        assert state["game"]["number"] == 2
        self.expect_between_games(
            page,
            winner="GNU Backgammon (Beginner) wins 1 point",
            how="Lena resigned a single game",
            score="Lena 0 – 1 GNU Backgammon (Beginner) · match to 3",
        )
        expect(page.locator("#turn-text")).not_to_contain_text("deciding")
        expect(page.locator("[data-testid=move-list] li.kind-accept_resign")).to_have_count(1)
        expect(page.locator("#game-number")).to_have_text("Game 2")
        expect(page.locator("#player-rows .player-row[data-seat='1'] .points")).to_have_text("1")
        assert was_not_reloaded(page)
        self.screenshot(page, "practice-beginner-accepts-a-single-game")

    def test_the_expert_rejects_a_single_game_then_accepts_a_gammon(self) -> None:
        # given a 3-point match against the expert, which is well ahead after three rolls
        page, match_id = self.start_practice("world_class")
        self.to_my_roll(page, match_id, rolls_before=2)

        # when the learner resigns a single game
        state = self.resign(page, match_id, "single")

        # then the computer rejects it: the game goes on, the learner to roll as before
        assert state["score"] == [0, 0]
        assert state["game"]["phase"] == "roll"
        assert state["game"]["resignation"] is None
        expect(page.locator("#turn-text")).to_have_text("Your turn: roll the dice or double")
        expect(page.locator("[data-testid=roll]")).to_be_visible()
        expect(page.locator("[data-testid=move-list] li.kind-reject_resign")).to_have_count(1)
        expect(page.locator("[data-testid=between-games]")).to_be_hidden()
        expect(page.locator("#game-number")).to_have_text("Game 1")
        self.screenshot(page, "practice-expert-rejects-a-single-game")

        # when the learner offers a gammon instead (nothing of theirs is borne off)
        assert state["game"]["board"]["off"][0] == 0
        state = self.resign(page, match_id, "gammon")

        # then the computer accepts: two points, and the next game is the Crawford game
        assert state["score"] == [0, 2]
        self.expect_between_games(
            page,
            winner="GNU Backgammon (Expert) wins 2 points",
            how="Lena resigned a gammon",
            score=("Lena 0 – 2 GNU Backgammon (Expert) · match to 3 · the Crawford game is next"),
        )
        expect(page.locator("[data-testid=crawford]")).to_be_visible()
        expect(page.locator("[data-testid=move-list] li.kind-accept_resign")).to_have_count(1)
        assert was_not_reloaded(page)
        self.screenshot(page, "practice-expert-accepts-a-gammon")

    def test_the_expert_takes_a_double_in_an_even_game(self) -> None:
        # given the learner to roll in an even game against the expert
        page, match_id = self.start_practice("world_class")
        self.to_my_roll(page, match_id, rolls_before=0)

        # when the learner doubles
        state = self.act(page, match_id, "[data-testid=double]")

        # then the computer takes: the cube is on its side at 2, and the learner rolls
        assert state["game"]["cube"]["value"] == 2
        assert state["game"]["cube"]["owner_seat"] == 1
        cube = page.locator("#board [data-testid=cube]")
        expect(cube).to_have_attribute("data-value", "2")
        expect(cube).to_have_attribute("data-place", "top")
        expect(page.locator("#turn-text")).to_have_text("Your turn: roll the dice")
        expect(page.locator("[data-testid=double]")).to_be_hidden()
        expect(page.locator("[data-testid=move-list] li.kind-take")).to_have_count(1)
        assert was_not_reloaded(page)
        self.screenshot(page, "practice-expert-takes")


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class DoublingTheComputerOut(Practice):
    # The learner wins the opening roll (4-1) and is well ahead after three rolls.
    seed = "47" * 32

    def test_the_beginner_drops_a_double_when_far_behind(self) -> None:
        # given the learner well ahead of the beginner
        page, match_id = self.start_practice("beginner")
        state = self.to_my_roll(page, match_id, rolls_before=2)
        pips = state["game"]["pips"]
        assert pips[0] < pips[1] - 20, pips

        # when the learner doubles
        state = self.act(page, match_id, "[data-testid=double]")

        # then the computer drops: the game is the learner's, at the cube's old value
        assert state["score"] == [1, 0]
        self.expect_between_games(
            page,
            winner="You win 1 point",
            how="GNU Backgammon (Beginner) dropped the double",
            score="Lena 1 – 0 GNU Backgammon (Beginner) · match to 3",
        )
        expect(page.locator("[data-testid=move-list] li.kind-drop")).to_have_count(1)
        assert was_not_reloaded(page)
        self.screenshot(page, "practice-beginner-drops")
