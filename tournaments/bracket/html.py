"""A bracket slot's markup, written in Python: the page of a 4,096-player knockout draws
thousands of them and the live frames carry a few, and the template language took about a
millisecond a slot where this takes a few microseconds.

``cell_html`` is a place in a round's column (``.bracket-cell``, with the lines that join it
to the rounds beside it); ``slot_html`` the match inside it (``.slot``, keyed by
``data-key``), which is what a live frame replaces. ``many``: the page shows several flights,
so each slot carries its code ("W R1 M3") and its way on in words for a screen reader.
"""

from __future__ import annotations

from functools import cache
from html import escape

from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.bracket.layout import Cell, SideSource
from tournaments.bracket.reads import BracketSide, BracketSlot

EMPTY_CELL = '<div class="bracket-cell bracket-cell-empty"></div>'
# Statuses after which the slot shows no badge of its state (a finished match shows its
# winner instead); a late slot still shows that it was late.
QUIET = ("waiting", "bye", "finished")


def _e(value: object) -> str:
    return escape(str(value), quote=True)


@cache
def _slug(status: str) -> str:
    return slugify(status)


@cache
def _match_url_prefix() -> str:
    # Every match's page is the same path but for its id: reversed once, not per slot.
    return reverse("match", args=[1]).removesuffix("1/")


def cell_html(cell: Cell, *, many: bool) -> str:
    """A place in a round's column: its slot, or an empty place kept for the lines."""
    if cell.slot is None:
        return EMPTY_CELL
    lines = (" line-in" if cell.line_in else "") + (
        f" line-{cell.line_out}" if cell.line_out else ""
    )
    return f'<div class="bracket-cell{lines}">{slot_html(cell, many=many)}</div>'


def slot_html(cell: Cell, *, many: bool) -> str:
    """One match of the bracket: its players or where they come from, score, state."""
    slot = cell.slot
    assert slot is not None
    status = slot.status
    flight = "" if slot.flight == "main" else f"{slot.flight}-"
    testid = f"slot-{flight}{slot.round}-{slot.position}"
    common = (
        f' data-testid="{testid}" data-status="{_e(status)}" data-flight="{slot.flight}"'
        f' data-key="{_e(cell.key)}" data-from="{_e(cell.sources)}"'
    )
    if slot.match_id:
        late = " slot-late" if slot.late else ""
        title = _e(_("Open the board"))
        head = (
            f'<a class="slot slot-{_slug(status)}{late}"'
            f' href="{_match_url_prefix()}{slot.match_id}/"{common} title="{title}">'
        )
        tail = "</a>"
    else:
        head = f'<div class="slot slot-{_slug(status)}"{common} tabindex="0">'
        tail = "</div>"
    parts = [head]
    if many:
        parts.append(f'<span class="slot-code" aria-hidden="true">{_e(cell.code)}</span>')
    score = slot.score
    parts.append(_side_html(slot.top, cell.top_from, None if score is None else score[0]))
    parts.append(_side_html(slot.bottom, cell.bottom_from, None if score is None else score[1]))
    parts.append(_meta_html(slot))
    if many:
        parts.append(f'<span class="visually-hidden">{_e(cell.route)}</span>')
    parts.append(tail)
    return "".join(parts)


def _meta_html(slot: BracketSlot) -> str:
    status = slot.status
    if status in QUIET and not slot.late:
        return ""
    late, watch = _e(_("late")), _e(_("Watch →"))
    badges = f'<span class="badge badge-late">{late}</span>' if slot.late else ""
    if status != "finished":
        badges += f'<span class="badge badge-{_slug(status)}">{_e(slot.status_words)}</span>'
    if status == "live":
        badges += f'<span class="watch">{watch}</span>'
    return f'<span class="slot-meta">{badges}</span>'


def _side_html(side: BracketSide, source: SideSource | None, score: int | None) -> str:
    state = " side-won" if side.won else " side-lost" if side.lost else ""
    if side.bye:
        bye = _e(_("bye"))
        body = f'<span class="side-name bye">{bye}</span>'
    elif side.pending:
        if source is not None and source.shown:
            body = (
                f'<abbr class="side-name pending side-from" title="{_e(source.words)}">'
                f"{_e(source.short)}</abbr>"
            )
        else:
            title = f' title="{_e(source.words)}"' if source is not None else ""
            body = f'<span class="side-name pending"{title}>—</span>'
    else:
        seed = ""
        if side.seed:
            title = _e(_("Seed %(seed)s") % {"seed": side.seed})
            seed = f'<span class="side-seed" title="{title}">{side.seed}</span>'

        came_from = (
            f'<abbr class="side-from" title="{_e(source.words)}">{_e(source.short)}</abbr>'
            if source is not None and source.shown
            else ""
        )
        body = (
            f'{seed}<span class="side-name" data-username="{_e(side.username)}">'
            f"{_e(side.name)}</span>{came_from}"
        )
    points = f'<span class="side-score">{score}</span>' if score is not None else ""
    return f'<span class="side{state}">{body}{points}</span>'
