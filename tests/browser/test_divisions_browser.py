"""In a real browser, at 390 px and at 1280 px: a division's page lists its event (the main
event, the other divisions and the jackpot beside it), says who may enter, and tells a
player the limits keep out why, in place of the button; the organizer adds a jackpot from
the main event's page with the form, which fits a phone. Neither width spills sideways
(``tests.browser.geometry.misfits``)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import RatingChange
from tests.browser.base import BrowserTestCase, beside_the_browser
from tests.browser.geometry import misfits
from tests.factories import PASSWORD, UserFactory
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments import services
from tournaments.divisions.services import side_event_create

REFUSAL = "Novice is for players with at most 50 rated matches; you have played 212."


def an_event() -> dict[str, int]:
    """Spring Open's Championship (1600 and up) with a Novice division and a jackpot beside
    it, all open, and a veteran of 212 rated matches rated 1500."""
    owner = organizer()
    main = open_tournament(
        owner, name="Spring Open Backgammon Weekend", division="Championship", min_rating=1600
    )
    novice = side_event_create(
        main_id=main.pk,
        user=owner,
        kind="division",
        changes={"division": "Novice", "max_rated_matches": 50},
    )
    jackpot = side_event_create(main_id=main.pk, user=owner, kind="jackpot", changes={})
    for side in (novice, jackpot):
        services.tournament_open(tournament_id=side.pk, user=owner)
    veteran = UserFactory(username="veteran", display_name="Vera Veteran", rating=1500.0)
    opponent = UserFactory(username="opponent", display_name="Otto Opponent")
    RatingChange.objects.bulk_create(
        RatingChange(
            user=veteran,
            opponent=opponent,
            match_length=5,
            won=True,
            rating_before=1500.0,
            rating_after=1500.0,
            experience_after=5,
        )
        for _ in range(212)
    )
    return {"main": main.pk, "novice": novice.pk, "jackpot": jackpot.pk}


@pytest.mark.slow
@pytest.mark.browser
class DivisionsInTheBrowser(BrowserTestCase):
    def check_division_page(self, page: Page, ids: dict[str, int], name: str) -> None:
        page.goto(self.url(f"/tournaments/{ids['novice']}/"))
        event = page.locator("[data-testid=event]")
        expect(event).to_be_visible()
        for member in ("main", "novice", "jackpot"):
            expect(event.locator(f"[data-testid=event-member-{ids[member]}]")).to_be_visible()
        expect(event).to_contain_text("Jackpot")
        expect(page.locator("[data-testid=entry-limits]")).to_contain_text(
            "at most 50 rated matches played"
        )
        expect(page.locator("[data-testid=entry-refusal]")).to_have_text(REFUSAL)
        expect(page.locator("[data-testid=register]")).to_have_count(0)
        assert misfits(page) == []
        self.screenshot(page, name)

    def test_a_division_page_and_the_jackpot_form_on_a_phone_and_a_desktop(self) -> None:
        ids = beside_the_browser(an_event)

        # a player the Novice division keeps out is told why, at both widths
        for width, height in ((390, 844), (1280, 900)):
            page = self.new_page(width=width, height=height)
            self.log_in(page, "veteran", PASSWORD)
            self.check_division_page(page, ids, f"division-page-{width}")

        # the list shows the division and the jackpot indented under the main event
        phone = self.new_page(width=390, height=844)
        phone.goto(self.url("/tournaments/?show=open"))
        expect(phone.locator("[data-testid=side-event-row]")).to_have_count(2)
        assert misfits(phone) == []
        self.screenshot(phone, "event-list-390")

        # the organizer adds a jackpot from the main event's page, on a phone
        self.log_in(phone, "orla", PASSWORD)
        phone.goto(self.url(f"/tournaments/{ids['main']}/"))
        phone.click("[data-testid=add-jackpot]")
        form = phone.locator("[data-testid=side-event-form]")
        expect(form).to_be_visible()
        expect(phone.locator("#id_buy_in")).to_have_value("20.00")
        assert misfits(phone) == []
        self.screenshot(phone, "jackpot-form-390")
        phone.fill("#id_name", "Saturday Night Jackpot")
        phone.check("input[name=places][value='2']")
        phone.click("[data-testid=side-event-create]")
        expect(phone.locator("h1")).to_have_text("Saturday Night Jackpot")
        expect(phone.locator("[data-testid=event]")).to_contain_text("Spring Open")
        assert misfits(phone) == []
        self.screenshot(phone, "jackpot-made-390")

        desktop = self.new_page(width=1280, height=900)
        self.log_in(desktop, "orla", PASSWORD)
        desktop.goto(self.url(f"/tournaments/{ids['main']}/beside/division/"))
        expect(desktop.locator("#id_division")).to_be_visible()
        assert misfits(desktop) == []
        self.screenshot(desktop, "division-form-1280")
