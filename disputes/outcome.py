"""What a decision changed, in sentences each reader reads in their own language.

The code writes these lines, not staff (whose reason is kept as typed): "The match is awarded
to Bruno.", "Both stakes (10.00 FUN each) are refunded.". Each is kept in the dispute's
``outcome`` as its English message and its named blanks (``said``), and written in the
reader's language when a page or the API shows it; ``summary`` keeps the same lines in
English, as decisions made before kept only those. A blank is a number, a text, an amount
(``{"cents", "currency"}``, written as the reader's language writes money), or a list of
payments (``{"name", "cents", "currency"}``, "Alice 10.00 FUN; Bruno 0.00 FUN").
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, override

from accounts.templatetags.money import money


def line(message: str, **blanks: Any) -> dict[str, Any]:
    """One line: ``message`` is its English, marked with ``gettext_noop`` where written."""
    return {"say": message, "with": blanks}


def amount(cents: int, currency: str) -> dict[str, Any]:
    """An amount as a blank."""
    return {"cents": cents, "currency": currency}


def said(kept: dict[str, Any]) -> str:
    """The line in the active language."""
    blanks = {key: _written(value) for key, value in kept.get("with", {}).items()}
    return gettext(kept["say"]) % blanks


def in_english(lines: list[dict[str, Any]]) -> list[str]:
    with override("en"):
        return [said(kept) for kept in lines]


def summary_lines(outcome: dict[str, Any]) -> list[str]:
    """The decision's lines in the active language (an older decision's, as written)."""
    if "said" in outcome:
        return [said(kept) for kept in outcome["said"]]
    return list(outcome.get("summary", []))


def _written(value: Any) -> Any:
    if isinstance(value, list):
        return "; ".join(str(_written(part)) for part in value)
    if isinstance(value, dict):
        written = f"{money(value['cents'])} {value['currency']}"
        return f"{value['name']} {written}" if "name" in value else written
    return value
