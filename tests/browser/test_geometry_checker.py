"""The geometry checker (tests/browser/geometry.py) names each fault it measures, and finds
none on a page that has none: each fault drawn on a page of its own, in Chromium."""

from __future__ import annotations

import pytest

from tests.browser.base import BrowserTestCase
from tests.browser.geometry import misfits

FAULTS = {
    "sideways": (
        '<div class="card" style="width: 600px">A card wider than the phone</div>',
        "the page is 6",
    ),
    "overlap": (
        '<button style="position: absolute; left: 10px; top: 10px">Resign</button>'
        '<button style="position: absolute; left: 30px; top: 15px">Confirm</button>',
        'button "Resign" and button "Confirm" overlap',
    ),
    "menu": (
        '<div role="menu" style="position: absolute; left: -69px; width: 200px">'
        "<button>A single game</button></div>",
        "is outside the 390×844 window: left -69",
    ),
    "cut": (
        '<p style="width: 100px; overflow: hidden; white-space: nowrap">'
        "Maximiliana-Konstantinopoulou-Wolfeschle</p>",
        'p "Maximiliana-Konstantinopoulou-Wolfeschle" cuts its text',
    ),
    "spill": (
        '<h1 style="width: 100px">Maximiliana-Konstantinopoulou-Wolfeschle</h1>',
        "lets its text run out",
    ),
    "radio": (
        '<label style="display: block"><input type="radio" name="c" '
        'style="display: block; width: 100%"> Dice</label>',
        "is not on the line of its words",
    ),
}
CLEAN = (
    '<div class="card" style="width: 300px"><h1 style="overflow-wrap: anywhere">'
    "Maximiliana-Konstantinopoulou-Wolfeschle</h1>"
    '<label><input type="radio" name="c"> Dice</label> <button>Resign</button> '
    '<button>Confirm</button><div role="menu"><button>A gammon</button></div></div>'
)


@pytest.mark.browser
class TheGeometryChecker(BrowserTestCase):
    def test_each_fault_is_named_and_a_sound_page_has_none(self) -> None:
        page = self.new_page(width=390, height=844)
        missed = {}
        for fault, (html, said) in FAULTS.items():
            page.set_content(f"<!doctype html><body style='margin: 0'>{html}</body>")
            found = misfits(page)
            if not any(said in line for line in found):
                missed[fault] = found
        assert not missed, missed

        page.set_content(f"<!doctype html><body>{CLEAN}</body>")
        assert misfits(page) == []
