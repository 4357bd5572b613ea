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
from django.utils.formats import date_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.money import money_text
from matches.models import FinishReason

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
# What staff read for each key a detector writes (PR, z, p, cv and sd are the same in any
# language).
LABELS = {
    "accounts": _("Accounts"),
    "agreement": _("Agreement"),
    "at": _("At"),
    "author": _("Author"),
    "best": _("Best"),
    "chance": _("Chance for their ratings"),
    "checker_best": _("Checker best"),
    "checker_plays": _("Checker plays"),
    "cooldown_hours": _("Cooldown hours"),
    "cooldown_until": _("Cooldown until"),
    "counted": _("Counted"),
    "counted_matches": _("Counted matches"),
    "cube_agreement": _("Cube agreement"),
    "cube_best": _("Cube best"),
    "cube_decisions": _("Cube decisions"),
    "currency": _("Currency"),
    "cv": "Cv",
    "decision_sd": _("Decision sd"),
    "decisions": _("Decisions"),
    "digest": _("Digest"),
    "early_resignation": _("Resigned early"),
    "early_resignations": _("Early resignations"),
    "equity": _("Equity"),
    "error": _("Error"),
    "expected_pr": _("Expected PR"),
    "finished_at": _("Ended"),
    "first_seen": _("First seen"),
    "fit": _("Fit"),
    "formula": _("Formula"),
    "game": _("Game"),
    "id": _("Id"),
    "intercept": _("Intercept"),
    "joined": _("Joined"),
    "kind": _("Kind"),
    "last_seen": _("Last seen"),
    "length": _("Length"),
    "loser": _("Loser"),
    "lost": _("Lost"),
    "match": _("Match"),
    "match_id": _("Match id"),
    "matches": _("Matches"),
    "matches_lost": _("Matches lost"),
    "matches_played": _("Matches played"),
    "mean_seconds": _("Mean seconds"),
    "median_seconds": _("Median seconds"),
    "message": _("Message"),
    "min_decisions": _("Min decisions"),
    "min_plays": _("Min plays"),
    "money_cents": _("Money"),
    "money_to_newer": _("Money to newer"),
    "money_to_winner": _("Money to the winner"),
    "name": _("Name"),
    "near_constant": _("Near constant"),
    "near_constant_below_cv": _("Near constant below cv"),
    "newer": _("Newer"),
    "note": _("Note"),
    "number": _("Number"),
    "older": _("Older"),
    "one_way_chance": _("One way chance"),
    "one_way_matches": _("One way matches"),
    "one_way_series": _("One-way series"),
    "opponent": _("Opponent"),
    "p": "P",
    "player_sd": _("Player sd"),
    "players": _("Players"),
    "plays": _("Plays"),
    "plies": _("Plies"),
    "points": _("Points"),
    "position_id": _("Position id"),
    "pr": "PR",
    "prior": _("Prior"),
    "rated": _("Rated"),
    "rating": _("Rating"),
    "rating_delta": _("Rating"),
    "rating_lost": _("Rating lost"),
    "reason": _("Reason"),
    "reported": _("Reported"),
    "reporters": _("Reporters"),
    "reports": _("Reports"),
    "resigned_winning": _("Resigned winning"),
    "room": _("Room"),
    "score": _("Score"),
    "sd": "Sd",
    "sd_seconds": _("Sd seconds"),
    "shared": _("Shared"),
    "signed_up_together": _("Signed up together"),
    "signs": _("Signs"),
    "since": _("Since"),
    "slope": _("Slope"),
    "staff": _("Staff"),
    "stake_cents": _("Stake"),
    "stalls": _("Stalls"),
    "started_at": _("Started at"),
    "status": _("Status"),
    "summary": _("Summary"),
    "text": _("Text"),
    "think_times": _("Think times"),
    "threshold": _("Threshold"),
    "thresholds": _("Thresholds"),
    "times": _("Times"),
    "tournament": _("Tournament"),
    "username": _("Username"),
    "win_chance": _("Chance to win"),
    "window": _("Window"),
    "window_days": _("Window (days)"),
    "winner": _("Winner"),
    "winning_resignation_equity": _("Winning resignation equity"),
    "winning_resignations": _("Winning resignations"),
    "wrong_drop_error": _("Wrong drop error"),
    "wrong_drops": _("Wrong drops"),
    "z": "z",
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
    return [{"title": gettext("Facts"), "facts": facts}, *tables] if facts else tables


def _ordered(mapping: dict[str, Any]) -> list[str]:
    known = [key for key in ORDER if key in mapping]
    return known + sorted(key for key in mapping if key not in ORDER)


def _label(key: str) -> str:
    return str(LABELS.get(key) or key.replace("_", " ").capitalize())


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
    if key == "reason" and value in FinishReason.values:
        return gettext(FinishReason(value).label)
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, float) and key == "chance":
        return f"{value:.2g}"  # a small probability keeps its digits
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".")
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and "T" in value:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
        return date_format(timezone.localtime(moment), "d M Y H:i")
    if isinstance(value, list):
        if key in HIDDEN_IN_CELLS or any(isinstance(item, dict) for item in value):
            return f"{len(value)}"
        return ", ".join(_text(key, item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{_label(k).lower()} {_text(k, v)}" for k, v in value.items())
    return str(value)
