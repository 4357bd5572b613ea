"""A case's evidence laid out for staff to read: facts first, then a table per list of rows.

Detectors store evidence as JSON (PostgreSQL keeps its keys in its own order), so the
order and the words are set here: known keys come in a reading order with their labels,
money in cents reads as money, times as times, and a match number links to its page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone

from accounts.money import money_text

# Facts and columns in the order a reader wants them; anything else follows, A to Z.
ORDER = [
    "summary",
    "window_days",
    "window",
    "matches_played",
    "matches_lost",
    "early_resignations",
    "one_way_series",
    "money_to_winner",
    "rating_lost",
    "agreement",
    "pr",
    "expected_pr",
    "z",
    "decisions",
    "threshold",
    "thresholds",
    "cooldown_until",
    "cooldown_hours",
    "match",
    "finished_at",
    "opponent",
    "reason",
    "length",
    "rated",
    "currency",
    "stake_cents",
    "lost",
    "win_chance",
    "early_resignation",
    "money_cents",
    "rating_delta",
]
LABELS = {
    "window_days": "Window (days)",
    "money_to_winner": "Money to the winner",
    "rating_lost": "Rating lost",
    "early_resignation": "Resigned early",
    "money_cents": "Money",
    "stake_cents": "Stake",
    "rating_delta": "Rating",
    "finished_at": "Ended",
    "pr": "PR",
    "expected_pr": "Expected PR",
    "z": "z",
    "one_way_series": "One-way series",
    "win_chance": "Chance to win",
    "chance": "Chance for their ratings",
}
# Lists too long to read in a cell are counted instead.
HIDDEN_IN_CELLS = {"candidates"}


@dataclass(frozen=True)
class Cell:
    text: str
    url: str = ""


def sections(evidence: dict[str, Any]) -> list[dict[str, Any]]:
    facts: list[tuple[str, Cell]] = []
    tables = []
    for key in _ordered(evidence):
        value = evidence[key]
        if isinstance(value, list) and value and all(isinstance(row, dict) for row in value):
            columns = _ordered({column: None for row in value for column in row})
            tables.append(
                {
                    "title": _label(key),
                    "columns": [_label(column) for column in columns],
                    "rows": [[_cell(c, row.get(c)) for c in columns] for row in value[:200]],
                    "more": max(0, len(value) - 200),
                }
            )
        elif isinstance(value, dict) and not _is_money(key):
            facts.extend(
                (f"{_label(key)}: {_label(inner).lower()}", _cell(inner, value[inner]))
                for inner in _ordered(value)
            )
        else:
            facts.append((_label(key), _cell(key, value)))
    return [{"title": "Facts", "facts": facts}, *tables] if facts else tables


def _ordered(mapping: dict[str, Any]) -> list[str]:
    known = [key for key in ORDER if key in mapping]
    return known + sorted(key for key in mapping if key not in ORDER)


def _label(key: str) -> str:
    return LABELS.get(key) or key.replace("_", " ").capitalize()


def _is_money(key: str) -> bool:
    return key.endswith("_cents") or key.startswith("money")


def _cell(key: str, value: Any) -> Cell:
    if key == "match" and isinstance(value, int):
        return Cell(f"#{value}", reverse("match", kwargs={"match_id": value}))
    if _is_money(key):
        return Cell(_money(value))
    return Cell(_text(key, value))


def _money(value: Any) -> str:
    if isinstance(value, int):
        return money_text(value)
    if isinstance(value, dict):
        amounts = [f"{money_text(cents)} {currency}" for currency, cents in value.items()]
        return ", ".join(amounts) or "–"
    return _text("", value)


def _text(key: str, value: Any) -> str:
    if value is None or value == [] or value == {}:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and key == "chance":
        return f"{value:.2g}"  # a small probability keeps its digits
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and "T" in value:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        return timezone.localtime(moment).strftime("%d %b %Y %H:%M")
    if isinstance(value, list):
        if key in HIDDEN_IN_CELLS or any(isinstance(item, dict) for item in value):
            return f"{len(value)}"
        return ", ".join(_text(key, item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{_label(k).lower()} {_text(k, v)}" for k, v in value.items())
    return str(value)
