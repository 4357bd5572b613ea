"""Play a live match through its board, as a player does: roll, pick up, put down, confirm.

The board only offers steps that lead to a legal play. Which play to make is read from the
match state the page itself may fetch (GET /api/matches/<id>/ with its session), and
chosen as the REST tests choose (`quick_play`: no hits if possible, back checkers first).
After every action each page at the table must show the new position without reloading.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playwright.sync_api import Page, expect

from tests.integration.matches.helpers import quick_play

FETCH_STATE = """async (path) => {
    const response = await fetch(path, {
        credentials: "same-origin", headers: {Accept: "application/json"},
    });
    return response.json();
}"""

BOARD_ON_SCREEN = """() => {
    const count = (selector) => Number(document.querySelector(`#board ${selector}`).dataset.count);
    const points = [];
    for (let point = 1; point <= 24; point += 1) points.push(count(`[data-point="${point}"]`));
    return {
        points,
        bar: [count('[data-point="25"]'), count('[data-bar="opponent"]')],
        off: [count('[data-point="0"]'), count('[data-tray="opponent"]')],
    };
}"""

SHOWS_POSITION = """(id) => document.querySelector('[data-testid="gnubg-id"]').textContent === id"""
MOVED_ON_FROM = """(id) => document.querySelector('[data-testid="gnubg-id"]').textContent !== id"""


def fetch_state(page: Page, match_id: int) -> dict[str, Any]:
    """The match as the page's user sees it, fetched with the page's own session."""
    return page.evaluate(FETCH_STATE, f"/api/matches/{match_id}/")


def board_on_screen(page: Page) -> dict[str, list[int]]:
    """What the drawn board holds, from the viewer's side, in the snapshot's shape."""
    return page.evaluate(BOARD_ON_SCREEN)


def mark_loaded(page: Page) -> None:
    """Leave a mark in the page that a reload would wipe."""
    page.evaluate("window.loadedOnce = true")


def was_not_reloaded(page: Page) -> bool:
    return page.evaluate("window.loadedOnce === true")


def pick_and_put(page: Page, play: dict[str, Any]) -> None:
    """Move each checker of ``play`` on the board: click it, then the point it goes to."""
    expect(page.locator("#board.is-interactive")).to_be_visible()
    for source, destination in play["moves"]:
        page.click(f'#board [data-point="{source}"]')
        page.click(f'#board [data-point="{destination}"]')


def from_the_other_side(board: dict[str, list[int]]) -> dict[str, list[int]]:
    """The same board as the player across the table sees it."""
    return {
        "points": [-count for count in reversed(board["points"])],
        "bar": board["bar"][::-1],
        "off": board["off"][::-1],
    }


class LiveTable:
    """The pages following one match: each player's (by username) and any onlookers'.

    In pass and play one page holds both seats: ``players`` maps the one username to it.
    """

    def __init__(self, match_id: int, players: dict[str, Page], watchers: Sequence[Page] = ()):
        self.match_id = match_id
        self.players = players
        self.watchers = list(watchers)
        self.plays: list[str] = []
        self.last = self.state()

    def state(self, username: str | None = None) -> dict[str, Any]:
        page = self.players[username] if username else next(iter(self.players.values()))
        return fetch_state(page, self.match_id)

    def roll(self, username: str) -> dict[str, Any]:
        self.players[username].click("[data-testid=roll]")
        return self.settle()

    def play(self, username: str) -> dict[str, Any]:
        """Make the quick play through the board and confirm it."""
        page = self.players[username]
        plays = self.state(username)["game"]["legal_plays"]
        chosen = quick_play(plays)
        pick_and_put(page, next(play for play in plays if play["text"] == chosen))
        confirm = page.locator("[data-testid=confirm]")
        expect(confirm).to_be_enabled()
        confirm.click()
        self.plays.append(chosen)
        return self.settle()

    def press(self, username: str, testid: str) -> dict[str, Any]:
        """Press one of the action buttons (double, take, accept-resign, …)."""
        self.players[username].click(f"[data-testid={testid}]")
        return self.settle()

    def resign(self, username: str, level: str = "single") -> dict[str, Any]:
        page = self.players[username]
        page.click("[data-testid=resign]")
        page.click(f"[data-testid=resign-{level}]")
        return self.settle()

    def take_turn(self) -> dict[str, Any]:
        """Whoever is to act rolls or plays."""
        game = self.last["game"]
        if game["phase"] == "roll":
            return self.roll(game["turn"])
        if game["phase"] == "move":
            return self.play(game["turn"])
        raise AssertionError(f"nobody can roll or play in phase {game['phase']}")

    def settle(self) -> dict[str, Any]:
        """Wait for the action to be applied; then every page must show the match as it is.

        Every action changes the GNUBG ID (position, dice, cube, offers and turn are all in it).
        """
        before = self.last["game"]["gnubg_id"]
        first = next(iter(self.players.values()))
        first.wait_for_function(MOVED_ON_FROM, arg=before)
        after = self.last = self.state()
        game = after["game"]
        for page, view_seat in self._views(after):
            page.wait_for_function(SHOWS_POSITION, arg=game["gnubg_id"])
            board = game["board"]
            assert board_on_screen(page) == (
                board if view_seat == game["view_seat"] else from_the_other_side(board)
            )
            if game["dice"] and after["status"] == "playing":
                expect(page.locator("[data-testid=dice]")).to_have_attribute(
                    "data-dice", ",".join(map(str, game["dice"]))
                )
        return after

    def _views(self, state: dict[str, Any]) -> list[tuple[Page, int]]:
        """Each page at the table with the seat its board is drawn from."""
        if state["pass_and_play"]:
            return [(page, state["game"]["view_seat"]) for page in self.players.values()]
        seats = [(page, state["players"].index(name)) for name, page in self.players.items()]
        return seats + [(page, 0) for page in self.watchers]
