"""A newcomer presses "Play now" with nobody waiting and plays a demo player at once: the
lobby says the computer plays them, the board opens on a play-money match to 5 points, and
the computer moves for the demo player on a real Celery worker, as in practice."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import Action, Match, MatchKind
from tests.browser.test_practice import Practice
from tests.factories import PASSWORD, UserFactory


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class PlayNowAgainstADemoPlayer(Practice):
    seed = "04" * 32

    def test_play_now_opens_a_board_against_a_demo_player_the_computer_plays(self) -> None:
        # given a demo player with a seek in the lobby, and a newcomer
        UserFactory(
            username="nikos", display_name="Nikos Papadakis", bot_strength="casual", rating=1421
        )
        UserFactory(username=self.learner, display_name="Lena")
        page = self.new_page(width=390, height=844)
        page.set_default_timeout(20_000)
        self.log_in(page, self.learner, PASSWORD)

        # when the newcomer presses "Play now"
        page.goto(self.url("/play/"))
        page.click("[data-testid=play-now]")

        # then the board opens on a 5-point match against Nikos, without a stake
        page.wait_for_url(re.compile(r"/matches/\d+/$"))
        match_id = int(page.url.rstrip("/").rsplit("/", 1)[-1])
        match = Match.objects.get(pk=match_id)
        assert (match.kind, match.length, match.stake_cents) == (MatchKind.MATCH, 5, 0)
        assert match.engine_strength == "casual"
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()

        # and the computer plays Nikos's turns while the newcomer plays theirs
        state = self.to_my_roll(page, match_id, rolls_before=1)
        assert state["names"] == ["Lena", "Nikos Papadakis"]
        assert Action.objects.filter(match_id=match_id, actor__username="nikos").exists()

        # and Nikos's profile says the computer plays him
        page.goto(self.url("/players/nikos/"))
        expect(page.locator("[data-testid=computer-played]")).to_contain_text(
            "Computer-played demo player, casual"
        )
