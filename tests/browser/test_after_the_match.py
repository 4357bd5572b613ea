"""After the match: the rating change on the match page, every roll drawn again from the
revealed seed by the browser's own Web Crypto (and the same rolls as the server's
``verify_dice``), each roll linked to its place in the move list, and rating history rows
that open their match.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from accounts.models import User
from matches import dice as fair_dice
from matches.models import Action, ActionKind, Match
from matches.verification import verify_match_dice
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.match_helpers import fetch_state
from tests.factories import PASSWORD, UserFactory
from tests.integration.matches.helpers import Bot, start_match

PAGE_ROLLS = """() => [...document.querySelectorAll('[data-testid=dice-rolls] tr[data-roll]')]
    .map((row) => ({
        game: Number(row.dataset.game),
        name: row.querySelector('[data-roll-name]').textContent,
        computed: row.querySelector('[data-computed]').textContent,
        wrong: row.classList.contains('is-wrong'),
        href: row.querySelector('[data-roll-name]').getAttribute('href'),
    }))"""


def played_out(alice: User, bruno: User) -> int:
    """A 5-point match of several games, doubled and taken, played to the end."""

    def play() -> int:
        match_id = start_match(alice, bruno, length=5)
        Bot({"alice": alice, "bruno": bruno}, doubles=True).play_out(match_id)
        return match_id

    return beside_the_browser(play)


def server_rolls(match_id: int) -> list[dict[str, object]]:
    """Each logged roll as the server draws it from the seed, numbered as verify_dice does."""
    match = Match.objects.get(pk=match_id)
    rolls: list[dict[str, object]] = []
    counted: dict[tuple[int, str], int] = {}
    for action in Action.objects.filter(
        match=match, kind__in=[ActionKind.OPENING, ActionKind.ROLL]
    ).order_by("seq"):
        game = action.game_number or 0
        number = counted[(game, action.kind)] = counted.get((game, action.kind), 0) + 1
        if action.kind == ActionKind.OPENING:
            drawn = fair_dice.opening_throws(match.dice_seed, game)[number - 1]
            name = f"Opening throw {number}"
        else:
            drawn = fair_dice.turn_dice(match.dice_seed, game, number)
            name = f"Roll {number}"
        rolls.append(
            {"game": game, "name": name, "computed": f"{drawn[0]}-{drawn[1]}", "seq": action.seq}
        )
    return rolls


@pytest.mark.browser
class AfterTheMatch(BrowserTestCase):
    def open_dice_check(self, page: Page, match_id: int) -> list[dict[str, object]]:
        page.goto(self.url(f"/matches/{match_id}/dice/"))
        expect(page.locator("[data-testid=browser-verdict]")).to_be_visible()
        rolls: list[dict[str, object]] = page.evaluate(PAGE_ROLLS)
        return rolls

    def test_the_browser_draws_every_roll_from_the_seed_as_verify_dice_does(self) -> None:
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id = played_out(alice, bruno)
        page = self.new_page()
        self.log_in(page, "alice", PASSWORD)

        # The match page: the result with each rating's change, the seed beside the commitment.
        page.goto(self.url(f"/matches/{match_id}/"))
        expect(page.locator("[data-testid=result]")).to_be_visible()
        state = fetch_state(page, match_id)
        mine = next(c for c in state["rating_changes"] if c["player"] == "alice")
        theirs = next(c for c in state["rating_changes"] if c["player"] == "bruno")
        delta = f"{'+' if mine['change'] >= 0 else '−'}{abs(mine['change']):.2f}"
        changes = page.locator("[data-testid=rating-change] li")
        expect(changes.first).to_have_text(
            f"Your rating: {mine['before']:.1f} → {mine['after']:.1f} {delta}"
        )
        expect(changes.nth(1)).to_contain_text(f"Bruno Bianchi: {theirs['before']:.1f} → ")
        expect(page.locator("[data-testid=dice-commitment]")).to_have_text(
            state["dice_check"]["commitment"]
        )
        expect(page.locator("#dice-seed")).to_have_text(state["dice_check"]["seed"])
        self.screenshot(page, "after-the-match-result")

        # The dice check, drawn in the browser.
        page.click("[data-testid=dice-check-link]")
        expect(page.locator("[data-testid=browser-verdict]")).to_be_visible()
        rolls = page.evaluate(PAGE_ROLLS)
        expected = server_rolls(match_id)
        report = verify_match_dice(Match.objects.get(pk=match_id))
        assert report.ok
        assert report.checked == len(expected) == len(rolls)
        assert {roll["game"] for roll in rolls} != {1}, "a match of one game checks too little"
        assert [(r["game"], r["name"], r["computed"], r["wrong"]) for r in rolls] == [
            (r["game"], r["name"], r["computed"], False) for r in expected
        ]
        out = io.StringIO()
        call_command("verify_dice", str(match_id), stdout=out)
        expect(page.locator("[data-testid=browser-verdict]")).to_have_text(
            f"Your browser: all {len(rolls)} rolls drawn again from the seed match the log,"
            " and the seed matches the commitment."
        )
        assert f"{len(rolls)} rolls match the seed" in out.getvalue()
        self.screenshot(page, "after-the-match-dice-check")

        # A roll links to the row of the move list that played it.
        roll = next(r for r in expected if r["game"] == 2 and r["name"] == "Roll 5")
        moves = self.client_moves(page, match_id)
        played = next(row for row in moves if row["seq"] >= roll["seq"])
        page.click(f"[data-testid=dice-rolls] a[href$='#move-{roll['seq']}']")
        linked = page.locator("[data-testid=move-list] li.is-linked")
        expect(linked).to_have_attribute("data-seq", str(played["seq"]))
        expect(linked).to_be_in_viewport()
        self.screenshot(page, "after-the-match-linked-move")

        # Rating history rows open the match, on the profile and the public page alike.
        for path in ("/profile/", "/players/bruno/"):
            page.goto(self.url(path))
            expect(page.locator("[data-testid=result-match]").first).to_have_attribute(
                "href", f"/matches/{match_id}/"
            )

    def client_moves(self, page: Page, match_id: int) -> list[dict[str, int]]:
        rows: list[dict[str, int]] = page.evaluate(
            """async (path) => (await (await fetch(path, {credentials: "same-origin"})).json())""",
            f"/api/matches/{match_id}/moves/",
        )
        return rows

    def test_a_seed_that_does_not_give_the_logged_rolls_is_caught_in_the_browser(self) -> None:
        alice = UserFactory(username="alice", display_name="Alice Adams")
        bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
        match_id = played_out(alice, bruno)
        # The seed and its commitment replaced after the fact: they agree, the log does not.
        other = "0ddba11" + "5" * 57
        Match.objects.filter(pk=match_id).update(
            dice_seed=other, dice_commitment=fair_dice.commitment(other)
        )
        report = verify_match_dice(Match.objects.get(pk=match_id))
        page = self.new_page()
        self.log_in(page, "bruno", PASSWORD)

        rolls = self.open_dice_check(page, match_id)

        wrong = sum(1 for roll in rolls if roll["wrong"])
        assert wrong == len(report.mismatches) > 0
        expect(page.locator("[data-testid=browser-verdict]")).to_have_text(
            f"Your browser: {wrong} of {len(rolls)} rolls differ from what the seed gives."
        )
        expect(page.locator("[data-testid=browser-verdict]")).to_have_class("dice-verdict bad")
        self.screenshot(page, "after-the-match-dice-check-fails")
