"""No template holds what the Content-Security-Policy would refuse to run: inline
scripts, event-handler attributes or style attributes. Data for the page's modules goes
in <script type="application/json">, which browsers never run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
SCRIPT = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)
HANDLER_OR_STYLE = re.compile(r"<[a-z][^>]*\s(on[a-z]+|style)\s*=", re.IGNORECASE)


def templates() -> list[Path]:
    return sorted(TEMPLATES.rglob("*.html"))


@pytest.mark.parametrize("template", templates(), ids=lambda path: str(path.relative_to(TEMPLATES)))
def test_a_template_has_no_inline_script_handler_or_style(template: Path) -> None:
    text = template.read_text()

    inline_scripts = [
        attributes
        for attributes in SCRIPT.findall(text)
        if "src=" not in attributes and 'type="application/json"' not in attributes
    ]
    assert inline_scripts == []
    assert HANDLER_OR_STYLE.findall(text) == []


def test_the_check_finds_what_it_looks_for() -> None:
    assert SCRIPT.findall("<script>alert(1)</script>") == [""]
    assert HANDLER_OR_STYLE.findall('<select name="f" onchange="this.form.submit()">') == [
        "onchange"
    ]
    assert HANDLER_OR_STYLE.findall('<p class="x" style="color: red">') == ["style"]
