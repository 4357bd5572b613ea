"""On the embedded set-up (``make run``), a player at the board watches their move clock run
down, and the board says the match was lost on time, without a reload.

The server here is the embedded one on a SQLite file of its own (``tests.embedded``), not
the live server of the other browser tests: this test needs no test database.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from tests.browser.base import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS
from tests.embedded import embedded_env, embedded_server, prepare

PASSWORD = "embedded-pass-1"
MOVE_SECONDS = 8

# Alice and Bruno start a match with a move timer and no reserve; whoever won the opening
# roll plays it. The other has not come to the board yet, so no clock runs: it starts
# when they open the board (``matches.clock.end_show_up``).
SET_UP = f"""
from accounts.services import user_create
from backgammon import legal_plays
from backgammon.notation import format_play
from matches.actions import PlayerAction
from matches.creation import match_accept, match_challenge
from matches.models import ClockSettings
from matches.play import action_submit
from matches.state import current_game, game_state
alice = user_create(username="alice", password="{PASSWORD}")
bruno = user_create(username="bruno", password="{PASSWORD}")
clock = ClockSettings(kind="move", move_seconds={MOVE_SECONDS}, reserve_seconds=0)
match = match_challenge(challenger=alice, opponent=bruno, length=3, clock_settings=clock)
match_accept(match_id=match.pk, user=bruno)
state = game_state(current_game(match))
mover = match.player(state.to_act)
play = format_play(legal_plays(state.board, state.dice)[0], state.board)
action_submit(match_id=match.pk, user=mover, action=PlayerAction.PLAY, play=play)
waiting = 1 - state.to_act
print(match.pk, waiting, match.player(waiting).username, mover.username)
"""

SECONDS_SHOWN = """(selector) => {
    const shown = document.querySelector(selector).querySelector(".move-time");
    if (!shown) return null;
    const [minutes, seconds] = shown.textContent.split(":").map(Number);
    return minutes * 60 + seconds;
}"""


@pytest.mark.browser
def test_a_player_watches_their_clock_run_out_on_the_embedded_board(tmp_path: Path) -> None:
    # given the embedded set-up: a match whose first move is played, Bruno or Alice to roll
    env = embedded_env(tmp_path / "db.sqlite3")
    match_id, seat, username, opponent = prepare(env, SET_UP).split()[-4:]
    clock = f"[data-testid=clock-{seat}]"

    with embedded_server(env) as server, sync_playwright() as playwright:
        server.wait_until_answering()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.set_default_timeout(15_000)

        # when the player logs in through the login page and comes to the board
        log_in(page, server.url, username)
        page.goto(f"{server.url}/matches/{match_id}/")
        page.evaluate("window.loadedOnce = true")

        # then their clock runs, counting down from the move time
        expect(page.locator(clock)).to_have_class(re.compile(r"\bis-running\b"))
        first = page.evaluate(SECONDS_SHOWN, clock)
        assert first is not None
        assert 0 < first <= MOVE_SECONDS
        page.wait_for_function(f"(clock) => ({SECONDS_SHOWN})(clock) < {first}", arg=clock)
        expect(page.locator("#turn-text")).to_have_text(re.compile(r"^Your turn: roll the dice"))
        screenshot(page, "embedded-clock-running")

        # and when nobody rolls, the match ends on time, on the board itself
        result = page.locator("[data-testid=result]")
        expect(result).to_be_visible(timeout=MOVE_SECONDS * 1000 + 20_000)
        expect(page.locator("#result-title")).to_have_text(f"{opponent} wins the match")
        expect(page.locator("#result-score")).to_have_text(re.compile(r", on time$"))
        expect(page.locator("#turn-text")).to_have_text(
            re.compile(rf"^{opponent} wins the match on time, at \d+–\d+$")
        )
        expect(page.locator(clock)).not_to_have_class(re.compile(r"\bis-running\b"))
        expect(page.locator("[data-testid=roll]")).to_be_hidden()
        timeout_row = page.locator("[data-testid=move-list] li.kind-timeout")
        expect(timeout_row).to_have_count(1)
        expect(timeout_row).to_contain_text(f"{username}Time ran out")
        assert page.evaluate("window.loadedOnce === true"), "the page was reloaded"
        screenshot(page, "embedded-clock-ran-out")
        browser.close()


def log_in(page: Page, base_url: str, username: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("[data-testid=nav-user]")


def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(autouse=True)
def _no_database() -> None:
    """This test talks to a server of its own, on a SQLite file of its own."""
