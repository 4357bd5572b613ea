"""In real browsers: a Sit & Go fills and each entrant is sent to their board by a "your
match is ready" notice; a seek posted by one player appears in another's lobby and is
taken with one click, and its creator is told; seeks come and go on every viewer's lobby,
each as that viewer may take it, without any page asking the server for the list."""

from __future__ import annotations

import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, Request, expect

from accounts import ledger
from accounts.models import BlockKind
from accounts.standing import block_set
from lobby import seeks
from lobby.models import Seek
from lobby.selectors import SEEKS_SHOWN
from matches.models import Match, MatchStatus
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.factories import PASSWORD, UserFactory
from tests.integration.disputes.helpers import staff
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments import services

PHONE = {"width": 390, "height": 844}
# What a viewer's list shows, row by row: enough to tell one viewer's rows from another's.
ROWS = """root => [...root.querySelectorAll("[data-testid=seeks] > li")]
  .filter(row => !row.hidden)
  .map(row => [
    row.dataset.seek,
    row.classList.contains("seek-own"),
    row.textContent.replace(/\\s+/g, " ").trim(),
    [...row.querySelectorAll("form")].map(form =>
      [form.getAttribute("action"), !!form.querySelector("[name=csrfmiddlewaretoken]")]),
  ])"""
# Rows added to the list while the page is open, by seek id.
WATCH_ROWS = """root => {
  window.rowsAdded = [];
  new MutationObserver(changes => changes.forEach(change => change.addedNodes.forEach(
    node => node.dataset?.seek && window.rowsAdded.push(Number(node.dataset.seek)))))
    .observe(root, { childList: true, subtree: true });
}"""


@pytest.mark.browser
@pytest.mark.usefixtures("celery_worker_process")
class LobbyInTheBrowser(BrowserTestCase):
    def open_as(self, username: str, path: str, **size: int) -> Page:
        page = self.new_page(**size)
        self.log_in(page, username, PASSWORD)
        page.goto(self.url(path))
        page.wait_for_selector("[data-notices][data-live=on]")
        return page

    def test_a_sit_and_go_fills_and_each_entrant_is_sent_to_their_board(self) -> None:
        # given a two-seat Sit & Go with Alice registered, waiting on the home page
        alice = UserFactory(username="alice", display_name="Alice Adams")
        UserFactory(username="bruno", display_name="Bruno Costa")

        def one_seat_left() -> int:
            tournament = open_tournament(
                organizer(),
                name="Friday Sit & Go",
                format="sit_and_go",
                seats=2,
                buy_in_cents=500,
                fee_cents=35,
                round_lengths=(3,),
                show_up_seconds=300,
            )
            services.entry_register(tournament_id=tournament.pk, user=alice)
            return tournament.pk

        tournament_id = beside_the_browser(one_seat_left)
        waiting = self.open_as("alice", "/")
        joining = self.open_as("bruno", f"/tournaments/{tournament_id}/", **PHONE)

        # when Bruno takes the last seat
        joining.click("[data-testid=register]")

        # then each is told their match is ready, with the show-up countdown
        for page, opponent in ((waiting, "Bruno Costa"), (joining, "Alice Adams")):
            ready = page.locator("[data-testid=notice-card][data-kind=match_ready]")
            expect(ready).to_contain_text(
                f"Your 3-point match against {opponent} in Friday Sit & Go is ready.",
                timeout=20_000,
            )
            expect(ready.locator(".notice-countdown")).to_contain_text(
                re.compile(r"Be at the board within [45]:\d\d\.")
            )
        self.screenshot(waiting, "sit-and-go-1-ready-desktop")
        self.screenshot(joining, "sit-and-go-2-ready-phone")

        # and one click takes each to the same board
        match = beside_the_browser(lambda: Match.objects.get(tournament_id=tournament_id))
        for page in (waiting, joining):
            card = page.locator("[data-testid=notice-card][data-kind=match_ready]")
            card.locator("[data-testid=notice-open]").click()
            expect(page).to_have_url(self.url(f"/matches/{match.pk}/"))
            expect(page.locator("[data-testid=board]")).to_be_visible()
        self.screenshot(joining, "sit-and-go-3-board-phone")
        assert match.status == MatchStatus.PLAYING

    def test_a_seek_is_taken_from_the_lobby_and_its_creator_is_told(self) -> None:
        UserFactory(username="alice", display_name="Alice Adams")
        UserFactory(username="bruno", display_name="Bruno Costa")
        lobby = self.open_as("bruno", "/play/")
        phone = self.open_as("alice", "/play/", **PHONE)
        expect(lobby.locator("[data-testid=no-seeks]")).to_be_visible()
        lobby.wait_for_selector("[data-seeks-live][data-live=on]")

        # when Alice posts a seek for a blitz 3-point match from her phone
        phone.click("[data-testid=post-seek-toggle]")
        phone.fill("#id_seek-length", "3")
        phone.select_option("#id_seek-clock", "blitz")
        self.screenshot(phone, "seeks-1-post-phone")
        phone.click("[data-testid=seek-submit]")
        expect(phone.locator(".message")).to_contain_text("Your seek is posted")
        expect(phone.locator("[data-testid=seeks] .seek-own")).to_contain_text("Your seek")
        self.screenshot(phone, "seeks-2-waiting-phone")

        # then it appears in Bruno's lobby without a reload
        seek = beside_the_browser(lambda: Seek.objects.get())
        row = lobby.locator(f"[data-testid=seek-{seek.pk}]")
        expect(row).to_contain_text("Alice Adams")
        expect(row).to_contain_text("3-point match · rated")
        expect(row).to_contain_text("8 s a move, 30 s a point")
        assert lobby.evaluate("performance.getEntriesByType('navigation').length") == 1
        self.screenshot(lobby, "seeks-3-listed-desktop")

        # when he takes it with one click
        row.locator("[data-testid=seek-take]").click()

        # then he is at the board, and Alice is told, and sent there with one click
        expect(lobby).to_have_url(re.compile(r"/matches/\d+/$"))
        taken = phone.locator("[data-testid=notice-card][data-kind=seek_taken]")
        expect(taken).to_contain_text("Bruno Costa took your seek: your 3-point match is ready.")
        expect(phone.locator("[data-testid=no-seeks]")).to_be_visible()
        self.screenshot(phone, "seeks-4-taken-phone")
        taken.locator("[data-testid=notice-open]").click()
        expect(phone).to_have_url(lobby.url)

    def test_seeks_come_and_go_on_each_viewers_lobby_as_they_may_take_them_with_no_fetch(
        self,
    ) -> None:
        # given Alice (1600) and Erin, who post seeks; Bruno (1550), who may take Alice's;
        # Chloe (1200), out of its range; Dana, who blocked Alice; and a visitor
        alice = UserFactory(username="alice", display_name="Alice Adams", rating=1600.0)
        erin = UserFactory(username="erin", display_name="Erin Ek", rating=1500.0)
        UserFactory(username="bruno", display_name="Bruno Costa", rating=1550.0)
        UserFactory(username="chloe", display_name="Chloe Dumas", rating=1200.0)
        dana = UserFactory(username="dana", display_name="Dana Fox")
        block_set(owner=dana, other=alice, kind=BlockKind.BLOCK)
        pages = {
            "alice": self.open_as("alice", "/play/"),
            "bruno": self.open_as("bruno", "/play/", **PHONE),
            "chloe": self.open_as("chloe", "/play/"),
            "dana": self.open_as("dana", "/play/"),
            "visitor": self.new_page(**PHONE),
        }
        pages["visitor"].goto(self.url("/play/"))
        fetched: dict[str, int] = dict.fromkeys(pages, 0)
        for name, page in pages.items():
            page.wait_for_selector("[data-seeks-live][data-live=on]")
            page.eval_on_selector("[data-seeks-live]", WATCH_ROWS)

            def counted(request: Request, name: str = name) -> None:
                if urlparse(request.url).path == "/play/seeks/":
                    fetched[name] += 1

            page.on("request", counted)

        # when Alice posts a 3-point match for 10.00 FUN for players rated 1500 and up
        first = beside_the_browser(
            lambda: (
                seeks.seek_post(
                    user=alice,
                    terms=seeks.SeekTerms(length=3, stake_cents=1000, min_rating=1500),
                ).pk
            )
        )

        # then each viewer sees it as they may take it, and Dana not at all
        rows = {name: pages[name].locator(f"[data-testid=seek-{first}]") for name in pages}
        expect(rows["alice"].locator("[data-testid=seek-cancel]")).to_be_visible()
        expect(rows["alice"]).to_contain_text("Your seek: waiting")
        expect(rows["bruno"].locator("[data-testid=seek-take]")).to_be_visible()
        expect(rows["chloe"]).to_contain_text(
            "This seek is for players rated 1500 and up; your rating is 1200"
        )
        expect(rows["visitor"]).to_contain_text("Log in to take a seek")
        for name in ("alice", "bruno", "chloe", "visitor"):
            expect(rows[name]).to_contain_text("3-point match for 10.00 FUN · rated")
        self.screenshot(pages["bruno"], "seeks-live-1-posted-phone")

        # and each row is the one the server would have drawn for that viewer
        for name, page in pages.items():
            served = page.request.get(self.url("/play/seeks/")).text()
            drawn = page.evaluate(
                f"html => {{ const t = document.createElement('template'); t.innerHTML = html;"
                f" return ({ROWS})(t.content); }}",
                served,
            )
            assert page.eval_on_selector("[data-seeks-live]", ROWS) == drawn, name

        # when Alice cancels it and posts 5.00 REAL, which Bruno cannot cover
        def cancel_and_post_real() -> int:
            seeks.seek_cancel(seek_id=first, user=alice)
            ledger.deposit(
                user=alice,
                currency="REAL",
                amount_cents=2000,
                reason="test",
                staff=staff(),
                key="alice-real",
            )
            return seeks.seek_post(
                user=alice, terms=seeks.SeekTerms(length=5, stake_cents=500, currency="REAL")
            ).pk

        second = beside_the_browser(cancel_and_post_real)

        # then the first is gone everywhere and Bruno is told why not the second
        for page in pages.values():
            expect(page.locator(f"[data-testid=seek-{first}]")).to_have_count(0)
        expect(pages["bruno"].locator(f"[data-testid=seek-{second}]")).to_contain_text(
            "This seek needs 5.00 REAL; you have 0.00 REAL"
        )

        # when Erin posts a seek anyone may take, and Bruno takes it with one click
        third = beside_the_browser(
            lambda: seeks.seek_post(user=erin, terms=seeks.SeekTerms(length=3)).pk
        )
        row = pages["bruno"].locator(f"[data-testid=seek-{third}]")
        for page in pages.values():
            expect(page.locator(f"[data-testid=seek-{third}]")).to_contain_text("Erin Ek")
        self.screenshot(pages["bruno"], "seeks-live-2-two-seeks-phone")
        self.screenshot(pages["chloe"], "seeks-live-2-two-seeks-desktop")
        row.locator("[data-testid=seek-take]").click()

        # then he is at the board, and the seek leaves every other lobby
        expect(pages["bruno"]).to_have_url(re.compile(r"/matches/\d+/$"))
        for name in ("alice", "chloe", "dana", "visitor"):
            expect(pages[name].locator(f"[data-testid=seek-{third}]")).to_have_count(0)
        self.screenshot(pages["visitor"], "seeks-live-3-taken-phone")

        # and Dana never had Alice's seeks, and no page asked for the list
        assert pages["dana"].evaluate("window.rowsAdded") == [third]
        assert pages["alice"].evaluate("window.rowsAdded") == [first, second, third]
        assert fetched == dict.fromkeys(pages, 0)

    def test_a_seek_gone_from_a_full_list_brings_the_next_older_in_with_one_fetch(self) -> None:
        # given 51 open seeks: a visitor's lobby shows the newest 50
        def many_seeks() -> list[int]:
            return [
                seeks.seek_post(user=UserFactory(username=f"p{n}"), terms=seeks.SeekTerms()).pk
                for n in range(SEEKS_SHOWN + 1)
            ]

        posted = beside_the_browser(many_seeks)
        oldest, newest = posted[0], posted[-1]
        page = self.new_page()
        page.goto(self.url("/play/"))
        page.wait_for_selector("[data-seeks-live][data-live=on]")
        fetches: list[str] = []
        page.on(
            "request",
            lambda request: (
                fetches.append(request.url)
                if urlparse(request.url).path == "/play/seeks/"
                else None
            ),
        )
        expect(page.locator("[data-testid=seeks] > li")).to_have_count(SEEKS_SHOWN)
        expect(page.locator(f"[data-testid=seek-{oldest}]")).to_have_count(0)

        # when the newest is cancelled
        creator = beside_the_browser(lambda: Seek.objects.get(pk=newest).creator)
        beside_the_browser(lambda: seeks.seek_cancel(seek_id=newest, user=creator))

        # then the page fetches the list once, and the oldest takes the last place
        expect(page.locator(f"[data-testid=seek-{oldest}]")).to_be_visible()
        expect(page.locator(f"[data-testid=seek-{newest}]")).to_have_count(0)
        expect(page.locator("[data-testid=seeks] > li")).to_have_count(SEEKS_SHOWN)
        assert len(fetches) == 1
