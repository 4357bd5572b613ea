"""The bracket as the page draws it: each flight's rounds as columns of cells, a slot's
cell level with the slots its players come from, with the lines between them, and in
words each side's source and each slot's way on ("Loser of Winners' quarter-finals,
match 3"). Made from the rounds ``tournaments.bracket.reads`` read; it runs no query."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.bracket.reads import BracketRound, BracketSlot
from tournaments.draw_rows import key_text, source_text
from tournaments.formats.base import Flight, LoserOf, PairingKey, WinnerOf
from tournaments.models import TournamentFormat
from tournaments.reads.rounds import slot_words

# The flights side by side (or stacked on a phone) in the order a player follows them: the
# main event, its second chance, the final, then the side events.
SHOWN_ORDER = [
    Flight.MAIN,
    Flight.LOSERS,
    Flight.SECOND_LOSERS,
    Flight.FINAL,
    Flight.CONSOLATION,
    Flight.LAST_CHANCE,
]


def _flight_names(format_: str) -> dict[str, tuple[str, str]]:
    """Each flight's heading and the code its slots are labelled with ("W R1 M3")."""
    losers = (_("Losers' flight"), pgettext("bracket code: losers' flight", "L"))
    if format_ == TournamentFormat.DOUBLE_ELIMINATION:
        main = (_("Winners' flight"), pgettext("bracket code: winners' flight", "W"))
        final = (_("Final"), pgettext("bracket code: grand final", "GF"))
    elif format_ == TournamentFormat.TRIPLE_ELIMINATION:
        main = (_("Winners' flight"), pgettext("bracket code: winners' flight", "W"))
        losers = (
            _("First losers' flight"),
            pgettext("bracket code: first losers' flight", "L1"),
        )
        final = (_("Finals"), pgettext("bracket code: finals", "F"))
    elif format_ == TournamentFormat.SWISS:
        main = (_("Swiss rounds"), pgettext("bracket code: rounds", "R"))
        final = (_("Top cut"), pgettext("bracket code: knockout", "KO"))
    elif format_ == TournamentFormat.ROUND_ROBIN:
        main = (_("Round robin"), pgettext("bracket code: rounds", "R"))
        final = (_("Knockout stage"), pgettext("bracket code: knockout", "KO"))
    else:
        main = (_("Main flight"), pgettext("bracket code: main flight", "M"))
        final = (_("Final"), pgettext("bracket code: final", "F"))
    return {
        Flight.MAIN: main,
        Flight.LOSERS: losers,
        Flight.SECOND_LOSERS: (
            _("Second losers' flight"),
            pgettext("bracket code: second losers' flight", "L2"),
        ),
        Flight.CONSOLATION: (_("Consolation"), pgettext("bracket code: consolation", "C")),
        Flight.LAST_CHANCE: (_("Last chance"), pgettext("bracket code: last chance", "LC")),
        Flight.FINAL: final,
    }


@dataclass(frozen=True)
class SideSource:
    """Where a side's player comes from, as the page says it: ``text`` as stored
    ("loser:main:0:2", for the script that lights the slots), ``short`` ("L of W R1 M3") on
    the slot, ``words`` ("Loser of Winners' quarter-finals, match 3") for a title.
    ``shown`` when the bracket's lines do not already say it: a loser, or another flight's
    player."""

    text: str
    short: str
    words: str
    shown: bool


@dataclass(frozen=True)
class Cell:
    """One place in a round's column: a slot, or an empty place (a pairing never laid out)
    that keeps the later rounds' slots level with those they come from.

    ``line_in``: a line joins it to the round before in its flight. ``line_out``: where its
    line to the next round goes: "down" or "up" to meet its neighbour's, "across" to a slot
    level with it, "" for none."""

    slot: BracketSlot | None
    key: str = ""
    code: str = ""
    top_from: SideSource | None = None
    bottom_from: SideSource | None = None
    line_in: bool = False
    line_out: str = ""
    route: str = ""  # the slot and where its players go, in words, for a screen reader

    @property
    def sources(self) -> str:
        return " ".join(s.text for s in (self.top_from, self.bottom_from) if s)


@dataclass(frozen=True)
class Column:
    round: BracketRound
    code: str
    cells: list[Cell]


@dataclass(frozen=True)
class FlightLayout:
    flight: str
    title: str
    columns: list[Column]


def flights(rounds: list[BracketRound], format_: str) -> list[FlightLayout]:
    """The rounds as each flight's columns of cells, with every side's source in words and
    every slot's way on: what the bracket page draws."""
    reading = _Reading(rounds, _flight_names(format_))
    layouts = []
    for flight in SHOWN_ORDER:
        own = [r for r in rounds if r.flight == flight]
        if own:
            layouts.append(reading.flight(flight, own))
    return layouts


class _Reading:
    """The bracket's rounds by key, and where each slot's winner and loser go."""

    def __init__(self, rounds: list[BracketRound], names: dict[str, tuple[str, str]]) -> None:
        self.names = names
        # One reading is in one language, and its few sentences and codes are asked for
        # again and again: a slot's words by the slot, by the sides it feeds and by the
        # slots it sends its players to. Each is translated and written once.
        self.gettext = cache(_)
        self.pgettext = cache(pgettext)
        self.code = cache(self._code)
        self.match_code = cache(self._match_code)
        self.words: dict[tuple[str, int, int], str] = {}
        self.by_key = {(r.flight, r.number): r for r in rounds}
        self.goes_to: dict[PairingKey, list[tuple[str, BracketSlot]]] = {}
        for r in rounds:
            for slot in r.slots:
                for side in (slot.top_from, slot.bottom_from):
                    if side is not None:
                        self.goes_to.setdefault(side.key, []).append((_which(side), slot))

    def flight(self, flight: str, own: list[BracketRound]) -> FlightLayout:
        counts = _cell_counts(own)
        columns = []
        for index, r in enumerate(own):
            later = own[index + 1] if index + 1 < len(own) else None
            merges = later is not None and counts[index] > counts[index + 1]
            at = {slot.position: slot for slot in r.slots}
            cells = [
                self.cell(at[position], later, merges) if position in at else Cell(None)
                for position in range(counts[index])
            ]
            columns.append(Column(r, self.code(flight, r.number), cells))
        return FlightLayout(flight, self.names[flight][0], columns)

    def cell(self, slot: BracketSlot, later: BracketRound | None, merges: bool) -> Cell:
        goes_to = self.goes_to.get(slot.key, [])
        onward = later is not None and any(
            which == "winner" and (s.flight, s.round) == (later.flight, later.number)
            for which, s in goes_to
        )
        line_out = ""
        if onward:
            line_out = ("down" if slot.position % 2 == 0 else "up") if merges else "across"
        top, bottom = (
            self.source(slot.top_from, slot.flight),
            self.source(slot.bottom_from, slot.flight),
        )
        ways = [
            (
                self.gettext("winner goes to %(match)s")
                if which == "winner"
                else self.gettext("loser goes to %(match)s")
            )
            % {"match": self.match_words(self.by_key[s.flight, s.round], s.position)}
            for which, s in goes_to
        ]
        here = self.match_words(self.by_key[slot.flight, slot.round], slot.position)
        return Cell(
            slot,
            key_text(slot.key),
            self.match_code(slot.position),
            top,
            bottom,
            line_in=any(side is not None and not side.shown for side in (top, bottom)),
            line_out=line_out,
            route="; ".join([here, *ways]) + ".",
        )

    def match_words(self, r: BracketRound, position: int) -> str:
        key = (r.flight, r.number, position)
        if key not in self.words:
            self.words[key] = slot_words(
                r.name, matches=len(r.slots), position=position, gettext=self.gettext
            )
        return self.words[key]

    def _code(self, flight: str, round_: int) -> str:
        return self.pgettext("bracket code: a flight's round", "%(flight)s R%(number)s") % {
            "flight": self.names[flight][1],
            "number": round_ + 1,
        }

    def source(self, side: WinnerOf | LoserOf | None, flight: str) -> SideSource | None:
        if side is None:
            return None
        which, key = _which(side), side.key
        feeding = self.by_key.get((key.flight.value, key.round))
        where = (
            self.match_words(feeding, key.position)
            if feeding
            else self.gettext("round %(number)s") % {"number": key.round + 1}
        )
        match = f"{self.code(key.flight.value, key.round)} {self.match_code(key.position)}"
        if which == "winner":
            short = self.pgettext("bracket code: the winner of a match", "W of %(match)s")
            words = self.gettext("Winner of %(match)s")
        else:
            short = self.pgettext("bracket code: the loser of a match", "L of %(match)s")
            words = self.gettext("Loser of %(match)s")
        short, words = short % {"match": match}, words % {"match": where}
        shown = which == "loser" or key.flight != flight
        return SideSource(source_text(side), short, words, shown)

    def _match_code(self, position: int) -> str:
        return self.pgettext("bracket code: a round's match", "M%(number)s") % {
            "number": position + 1
        }


def _which(side: WinnerOf | LoserOf) -> str:
    return "winner" if isinstance(side, WinnerOf) else "loser"


def match_words(r: BracketRound, position: int) -> str:
    """ "Winners' semi-finals, match 2", or "Grand final" for a round of one match."""
    return slot_words(r.name, matches=len(r.slots), position=position)


def _cell_counts(own: list[BracketRound]) -> list[int]:
    """How many places each round's column has: from the flight's last round back, a round
    whose pairs meet in the next has twice its places, one whose players meet newcomers has
    as many (a losers' flight's drop rounds); never fewer than its slots need."""
    counts = [0] * len(own)
    for index in reversed(range(len(own))):
        needed = max(slot.position for slot in own[index].slots) + 1
        if index + 1 < len(own):
            factor = 2 if _pairs_meet(own[index], own[index + 1]) else 1
            needed = max(needed, counts[index + 1] * factor)
        counts[index] = needed
    return counts


def _pairs_meet(earlier: BracketRound, later: BracketRound) -> bool:
    """Whether two slots of ``earlier`` send their winners to one slot of ``later``."""
    for slot in later.slots:
        fed = {
            side.key
            for side in (slot.top_from, slot.bottom_from)
            if side is not None
            and (side.key.flight, side.key.round) == (earlier.flight, earlier.number)
        }
        if len(fed) == 2:
            return True
    return False
