"""The bracket as the page sends it: whole for a small field; for a big one (a 4,096-player
knockout has 4,095 matches, 2.5 MB of markup) the viewer's own path, each flight's current
round and its last rounds, and every other round as a heading the page fills in when asked
(``round_html``: one round's column).

The current round of a flight is the first that still has a match to decide; once every
match is decided, the last.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tournaments.bracket.html import cell_html
from tournaments.bracket.layout import Cell, Column, FlightLayout

# Up to a 128-player knockout (127 matches) the whole bracket is drawn at once.
WHOLE_BRACKET_SLOTS = 127
# Rounds of this many matches or fewer (from the quarter-finals on) are always drawn.
SMALL_ROUND = 4
UNDECIDED_DONE = ("bye", "not played")


@dataclass(frozen=True)
class ShownColumn:
    column: Column
    current: bool
    html: str | None  # the cells' markup; None: drawn when the page asks for it

    @property
    def matches(self) -> int:
        return sum(1 for cell in self.column.cells if cell.slot is not None)


@dataclass(frozen=True)
class ShownFlight:
    layout: FlightLayout
    columns: list[ShownColumn]


@dataclass(frozen=True)
class BracketPage:
    flights: list[ShownFlight]
    many: bool  # several flights: each slot carries its code
    whole: bool  # every round is drawn
    own_path: str  # the viewer's own slots' markup, "" for someone not in the draw


def bracket_page(
    layouts: list[FlightLayout], *, viewer_id: int | None, opened: set[tuple[str, int]]
) -> BracketPage:
    """The page of these flights for ``viewer_id``, with the rounds the page ``opened``
    (flight, round number) drawn too."""
    many = len(layouts) > 1
    slots = sum(
        1 for layout in layouts for column in layout.columns for cell in column.cells if cell.slot
    )
    whole = slots <= WHOLE_BRACKET_SLOTS
    shown = []
    for layout in layouts:
        now = current_round(layout)
        shown.append(
            ShownFlight(
                layout,
                [
                    ShownColumn(
                        column,
                        index == now,
                        column_html(column, many=many)
                        if whole
                        or index == now
                        or len(column.round.slots) <= SMALL_ROUND
                        or (layout.flight, column.round.number) in opened
                        else None,
                    )
                    for index, column in enumerate(layout.columns)
                ],
            )
        )
    own = "" if whole or viewer_id is None else own_path_html(layouts, viewer_id, many=many)
    return BracketPage(shown, many, whole, own)


def current_round(layout: FlightLayout) -> int:
    """The index of the flight's first column with a match still to decide, else its last."""
    for index, column in enumerate(layout.columns):
        for slot in column.round.slots:
            if slot.status in UNDECIDED_DONE or slot.top.won or slot.bottom.won:
                continue
            return index
    return len(layout.columns) - 1


def column_html(column: Column, *, many: bool) -> str:
    return "".join(cell_html(cell, many=many) for cell in column.cells)


def find_column(layouts: list[FlightLayout], flight: str, number: int) -> Column | None:
    for layout in layouts:
        if layout.flight == flight:
            for column in layout.columns:
                if column.round.number == number:
                    return column
    return None


def own_path_html(layouts: list[FlightLayout], viewer_id: int, *, many: bool) -> str:
    """The viewer's slots in every flight, in the order they were played, without the lines
    that join a slot to its column's neighbours."""
    own: list[Cell] = [
        replace(cell, line_in=False, line_out="")
        for layout in layouts
        for column in layout.columns
        for cell in column.cells
        if cell.slot is not None and viewer_id in (cell.slot.top.user_id, cell.slot.bottom.user_id)
    ]
    return "".join(cell_html(cell, many=many) for cell in own)
