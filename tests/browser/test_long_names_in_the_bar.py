"""However long a player's username and display name, the navigation bar keeps every
control on the screen, at every width from a tablet's to a wide screen's (a newcomer's
15-character username pushed "Log out" 5 px off a 1280-px screen)."""

from __future__ import annotations

import pytest

from accounts.services import profile_update
from tests.browser.base import BrowserTestCase
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.slow

WIDTHS = (721, 900, 1241, 1280, 1440)


@pytest.mark.browser
class LongNamesInTheBar(BrowserTestCase):
    def test_no_width_pushes_a_control_off_the_screen(self) -> None:
        player = UserFactory.create(username="newbie1280x9670")
        profile_update(
            profile=player.profile, display_name="Maximilian Alexander von Hohenzollern-S"
        )
        wide = []
        for width in WIDTHS:
            page = self.new_page(width=width)
            self.log_in(page, player.username, PASSWORD)
            for path in ("/", "/play/", "/tournaments/"):
                page.goto(self.url(path))
                if page.evaluate("document.documentElement.scrollWidth") > width:
                    wide.append((width, path))
            logout = page.locator(".nav-logout button").bounding_box()
            assert logout is not None
            assert logout["x"] + logout["width"] <= width, width
            page.context.close()

        assert wide == []
