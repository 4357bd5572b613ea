"""On a 390-px phone no page scrolls sideways, the navigation folds behind a menu button,
the score and clocks sit above the board, and what a thumb presses is at least 40 px tall
(the bell and a notice card's "×", icons, 40 px wide too).

A player in a running knockout, with a rated result behind them, opens every page they use;
a staff member opens the dispute pages.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from lobby.notifications import notify
from matches.models import Match
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.disputes.helpers import file, finished_match, staff
from tests.integration.tournaments.helpers import open_tournament, organizer, players, register_all
from tournaments import scheduler, services

PHONE = {"width": 390, "height": 844}
SMALLEST_TARGET_PX = 40

SIDEWAYS = "() => document.documentElement.scrollWidth"
# Buttons, links styled as buttons and the navigation's links, as they are laid out now.
SMALL_TARGETS = """(least) => [...document.querySelectorAll(
        '.btn, .nav-links a, .nav-menu, .nav-bell, .action-bar button, .chat-form button')]
    .filter((element) => element.offsetParent !== null)
    .map((element) => ({
        text: element.textContent.trim(), height: element.getBoundingClientRect().height,
    }))
    .filter((target) => target.height < least)"""


# Targets drawn as an icon, whose width matters as much as their height.
ICON_TARGETS = {
    "the bell": "[data-testid=nav-bell]",
    "a notice card's dismiss button": "[data-testid=notice-card] .notice-close",
}


@dataclass(frozen=True)
class Scene:
    player: str
    match_id: int
    tournament_id: int
    dispute_id: int
    finished_id: int


def _scene() -> Scene:
    owner = organizer()
    entrants = players(4)
    tournament = open_tournament(
        owner,
        name="Harbour Knockout",
        round_lengths=(3, 5),
        clock={"kind": "move", "move_seconds": 60, "reserve_seconds": 600},
    )
    register_all(tournament, entrants)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    player = entrants[0]
    live = Match.objects.filter(tournament_id=tournament.pk).filter(player_0=player).first()
    live = live or Match.objects.get(tournament_id=tournament.pk, player_1=player)
    staff("sam")
    rival = UserFactory(username="rosa", display_name="Rosa Rinaldi-Montgomery")
    earlier = finished_match(player, rival, stake_cents=250)
    dispute = file(rival, earlier).json()
    return Scene(player.username, live.pk, tournament.pk, dispute["id"], earlier.pk)


@pytest.mark.browser
class PagesOnAPhone(BrowserTestCase):
    def phone(self) -> Page:
        return self.new_page(**PHONE)

    def misfits(self, page: Page, path: str, name: str) -> list[str]:
        """What is wrong with ``path`` on a phone, in words; nothing when it fits."""
        page.goto(self.url(path))
        page.wait_for_load_state("networkidle")
        self.screenshot(page, f"phone-{name}")
        wrong = []
        width = page.evaluate(SIDEWAYS)
        if width > PHONE["width"]:
            wrong.append(f"{path} is {width} px wide")
        small = page.evaluate(SMALL_TARGETS, SMALLEST_TARGET_PX)
        if small:
            wrong.append(f"{path} has targets under {SMALLEST_TARGET_PX} px: {small}")
        return wrong

    def test_no_page_a_player_or_staff_member_opens_scrolls_sideways(self) -> None:
        scene = beside_the_browser(_scene)
        guest = self.phone()
        wrong = self.misfits(guest, "/", "home-guest") + self.misfits(guest, "/login/", "login")
        page = self.phone()
        self.log_in(page, scene.player, PASSWORD)
        for path, name in (
            ("/", "home"),
            ("/play/", "lobby"),
            (f"/matches/{scene.match_id}/", "board"),
            (f"/matches/{scene.finished_id}/", "board-finished"),
            (f"/matches/{scene.finished_id}/dice/", "dice-check"),
            (f"/tournaments/{scene.tournament_id}/bracket/", "bracket"),
            (f"/tournaments/{scene.tournament_id}/", "tournament"),
            ("/tournaments/", "tournaments"),
            ("/wallet/", "wallet"),
            ("/profile/", "profile"),
            (f"/players/{scene.player}/", "player"),
            ("/ratings/", "ratings"),
            ("/disputes/mine/", "my-disputes"),
        ):
            wrong += self.misfits(page, path, name)

        desk = self.phone()
        self.log_in(desk, "sam", PASSWORD)
        for path, name in (
            ("/disputes/", "dispute-queue"),
            (f"/disputes/{scene.dispute_id}/", "dispute"),
            ("/disputes/audit/", "dispute-audit"),
            (f"/wallet/{scene.player}/", "staff-wallet"),
        ):
            wrong += self.misfits(desk, path, name)
        assert not wrong, "\n".join(wrong)

    def test_the_board_puts_the_score_and_clocks_above_it(self) -> None:
        scene = beside_the_browser(_scene)
        page = self.phone()
        self.log_in(page, scene.player, PASSWORD)
        page.goto(self.url(f"/matches/{scene.match_id}/"))
        expect(page.locator("[data-testid=gnubg-id]")).not_to_be_empty()
        score = page.locator("[data-testid=score]").bounding_box()
        board = page.locator("[data-testid=board]").bounding_box()
        assert score is not None
        assert board is not None
        assert score["y"] + score["height"] <= board["y"]
        expect(page.locator("[data-testid=clock-0]")).to_be_visible()

    def test_the_bell_and_a_notice_cards_dismiss_button_are_big_enough_for_a_thumb(self) -> None:
        # given a player on the home page of a phone
        nina = UserFactory(username="nina", display_name="Nina Novak")
        page = self.phone()
        self.log_in(page, "nina", PASSWORD)
        page.wait_for_selector("[data-notices][data-live=on]")

        # when a challenge arrives as a notice card
        beside_the_browser(
            lambda: notify(
                user_id=nina.pk,
                kind="challenge",
                key="phone:challenge",
                text="Rosa Rinaldi challenges you to a 3-point match.",
                url="/play/",
            )
        )
        expect(page.locator("[data-testid=notice-card]")).to_be_visible()
        self.screenshot(page, "phone-notice-card")

        # then the bell and the card's "×" are at least 40 px each way
        small = {}
        for name, selector in ICON_TARGETS.items():
            box = page.locator(selector).bounding_box()
            assert box is not None, f"{name} is not shown"
            if min(box["width"], box["height"]) < SMALLEST_TARGET_PX:
                small[name] = f"{box['width']:.0f}×{box['height']:.0f} px"
        assert not small, f"under {SMALLEST_TARGET_PX}×{SMALLEST_TARGET_PX} px: {small}"

    def test_the_navigation_opens_from_a_menu_button_on_a_phone_only(self) -> None:
        UserFactory(username="nina", display_name="Nina Novak")
        page = self.phone()
        self.log_in(page, "nina", PASSWORD)
        links = page.locator(".nav-links")
        menu = page.locator("[data-testid=nav-menu]")
        expect(links).to_be_hidden()
        expect(page.locator("[data-testid=nav-balance]")).to_be_visible()

        menu.click()
        expect(menu).to_have_attribute("aria-expanded", "true")
        expect(links).to_be_visible()
        expect(page.locator(".nav-logout button")).to_be_visible()
        self.screenshot(page, "phone-navigation-open")
        page.keyboard.press("Escape")
        expect(links).to_be_hidden()
        expect(menu).to_be_focused()

        menu.click()
        links.get_by_role("link", name="Tournaments").click()
        page.wait_for_url("**/tournaments/")
        expect(links).to_be_hidden()

        desk = self.new_page()
        self.log_in(desk, "nina", PASSWORD)
        expect(desk.locator("[data-testid=nav-menu]")).to_be_hidden()
        expect(desk.locator(".nav-links")).to_be_visible()
