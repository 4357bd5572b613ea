"""The organizer's form's rounds: a flight's match lengths as rows, each with its clock.

Terms:

* *row*: one line of a flight's table, first round to final: the points of a round (a row
  may list several, "5, 5", each a round) and the clock those rounds are played on.
* *clock code*: how a row's choice of clock travels in the form, ``kind:move:delay:reserve:
  timeout`` ("delay:12:12:120:match", the standard clock), or empty for the tournament's
  clock (the form's clock fields). The named clocks of ``matches.clock.CLOCK_PRESETS`` are
  offered; a stored clock that is none of them is offered as itself, so editing keeps it.

A flight's rows become its ``round_lengths`` (the main flight's) or ``flight_lengths``, and
its ``flight_clocks``: nothing when every row plays the tournament's clock, one clock when
all rows share it, else one per length (``tournaments.settings.clocks``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from matches.clock import CLOCK_PRESETS, clock_words
from matches.models import ClockSettings

Row = tuple[int, str]
SPARE_ROWS = 2  # blank rows under the given ones, to add rounds without a script
MOST_ROWS = 16


def clock_code(clock: Mapping[str, Any]) -> str:
    settings = ClockSettings.from_json(clock)
    return ":".join(
        str(value)
        for value in (
            settings.kind,
            settings.move_seconds,
            settings.delay_seconds,
            settings.reserve_seconds,
            settings.timeout_loses,
        )
    )


def clock_of_code(code: str) -> dict[str, Any]:
    """The stored clock a code names; ValidationError when it names none."""
    parts = code.split(":")
    try:
        kind, move, delay, reserve, timeout = parts
        return {
            "kind": kind,
            "move_seconds": int(move),
            "delay_seconds": int(delay),
            "reserve_seconds": int(reserve),
            "timeout_loses": timeout,
        }
    except ValueError:
        raise forms.ValidationError(
            _("%(code)s is not a clock: choose one from the list.") % {"code": repr(code)}
        ) from None


def lengths_of(text: str) -> tuple[int, ...]:
    """The points typed in one row (or the whole list), "5, 5, 7"."""
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError:
        raise forms.ValidationError(
            _("Write whole numbers of points separated by commas, e.g. 5, 5, 7.")
        ) from None


def flight_clocks_of(rows: Sequence[Row], tournament_clock: dict[str, Any]) -> Any:
    """A flight's stored clocks for its rows: None when all play the tournament's clock."""
    codes = [code for _length, code in rows]
    if not any(codes):
        return None
    if len(set(codes)) == 1:
        return clock_of_code(codes[0])
    return [clock_of_code(code) if code else dict(tournament_clock) for code in codes]


def rows_of(
    listed: Sequence[tuple[int, Mapping[str, Any]]], tournament_clock: Mapping[str, Any]
) -> list[Row]:
    """A stored flight's rows; a clock that is the tournament's shows as it."""
    same = clock_code(tournament_clock)
    return [(length, "" if clock_code(c) == same else clock_code(c)) for length, c in listed]


class RoundsWidget(forms.Widget):
    """A table, one row per round: its points and its clock. The first points box carries
    the field's id (and ``data-shown-for``), so the label points at the first round."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[tuple[str, str]]:
        points = data.getlist(name) if hasattr(data, "getlist") else [data.get(name) or ""]
        clocks = data.getlist(f"{name}_clock") if hasattr(data, "getlist") else []
        clocks = [*clocks, *[""] * (len(points) - len(clocks))]
        return [(str(p or ""), str(c or "")) for p, c in zip(points, clocks, strict=False)]

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        rows = [(text, code) for text, code in _typed(value) if text]
        rows += [("", "")] * min(SPARE_ROWS, max(0, MOST_ROWS - len(rows)))
        attrs = {**self.attrs, **(attrs or {})}
        body = format_html_join(
            "",
            '<tr><th scope="row">{}</th><td>{}</td><td>{}</td></tr>',
            (
                (
                    number,
                    _points_box(name, text, number, attrs if number == 1 else {}),
                    _clock_select(name, code, number),
                )
                for number, (text, code) in enumerate(rows, start=1)
            ),
        )
        return format_html(
            '<table class="round-rows" data-testid="rounds-{}"><thead><tr><th scope="col">{}'
            '</th><th scope="col">{}</th><th scope="col">{}</th></tr></thead><tbody>{}</tbody>'
            "</table>",
            name,
            _("Round"),
            _("Points"),
            _("Clock"),
            body,
        )


def _typed(value: Any) -> list[tuple[str, str]]:
    """The rows as text, from what was typed, the initial rows or a plain "5, 7"."""
    if value is None:
        return []
    if isinstance(value, str):
        return [(value, "")]
    return [(str(text), str(code)) for text, code in value]


def _points_box(name: str, text: str, number: int, attrs: dict[str, Any]) -> SafeString:
    extra = format_html_join(" ", '{}="{}"', ((k, v) for k, v in attrs.items() if k != "id"))
    return format_html(
        '<input type="text" name="{}" value="{}" inputmode="numeric" autocomplete="off" '
        'aria-label="{}" {}{}>',
        name,
        text,
        _("Round %(number)s: points") % {"number": number},
        format_html('id="{}" ', attrs["id"]) if "id" in attrs else "",
        extra,
    )


def _clock_select(name: str, code: str, number: int) -> SafeString:
    choices = [("", _("Tournament clock"))]
    for label, preset in CLOCK_PRESETS.values():
        choices.append((clock_code(dataclasses.asdict(preset)), str(label)))
    if code and code not in {value for value, _label in choices}:
        try:
            shown = clock_words(ClockSettings.from_json(clock_of_code(code)))
        except (forms.ValidationError, TypeError):
            shown = code
        choices.append((code, shown))
    options = format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((value, " selected" if value == code else "", label) for value, label in choices),
    )
    return format_html(
        '<select name="{}_clock" aria-label="{}">{}</select>',
        name,
        _("Round %(number)s: clock") % {"number": number},
        options,
    )


class RoundsField(forms.Field):
    """A flight's rounds, cleaned to ``(points, clock code)`` per round, first to final."""

    widget = RoundsWidget

    def to_python(self, value: Any) -> tuple[Row, ...]:
        rows: list[Row] = []
        for text, code in _typed(value):
            lengths = lengths_of(text)
            if code:
                clock_of_code(code)
            rows.extend((length, code) for length in lengths)
        return tuple(rows)

    def validate(self, value: Any) -> None:
        if self.required and not value:
            raise forms.ValidationError(
                _("Give at least one match length: the length of the final.")
            )
