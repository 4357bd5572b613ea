"""A tournament's standings as players read them: rank, points, wins, losses, byes and the
tiebreaks, from the stored draw and the matches' scores.

A Swiss is ranked on points, then Buchholz, median Buchholz, Sonneborn-Berger and the points
margin (``tournaments.formats.standings``); a round robin per group, on points, then
Sonneborn-Berger and the points margin. Other formats list the places the format gives
(final once the tournament ends), with each player's wins and losses; they have no
tiebreaks. The points margin counts the points scored in the matches less those conceded,
from each match's score.

The standings page shows the rows as tables (one per round-robin group, lettered A, B, ...)
whose headings explain each tiebreak, beside each round's pairings, the latest round first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.models import User
from matches.models import Match
from tournaments import draw_rows
from tournaments.formats.base import BYE, Draw, Flight, PairingKey, Placing
from tournaments.formats.round_robin import ROUND_ROBIN_TIEBREAKS, RoundRobin
from tournaments.formats.standings import StandingRow, Tiebreak, standings
from tournaments.formats.swiss import Swiss
from tournaments.models import Pairing, Tournament, TournamentState
from tournaments.settings.pure import tournament_format

if TYPE_CHECKING:
    # Types alone: the bracket reads round names from this package.
    from tournaments.bracket import BracketRound, BracketSlot


def tournament_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Rows of ``username``, ``display_name``, ``group`` (a round robin's, from 1; else
    null), ``rank``, ``points``, ``wins``, ``losses``, ``byes`` and ``tiebreaks`` (by name);
    empty before the draw."""
    draw, rows = draw_rows.stored_draw(tournament)
    if not draw.pairings:
        return []
    fmt = tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    margins = _margins(tournament, rows)
    table: list[tuple[int | None, StandingRow, tuple[Tiebreak, ...]]] = []
    if isinstance(fmt, Swiss):
        table = [(None, row, SWISS) for row in fmt.standings(draw, margins)]
    elif isinstance(fmt, RoundRobin) and not fmt.tiebreaks:
        # truncated: wins, mutual results and tie-break matches, none of them a column
        table = [(1, row, ()) for row in fmt.standings(draw, fmt.groups(draw)[0])]
    elif isinstance(fmt, RoundRobin):
        for number, group in enumerate(fmt.groups(draw), start=1):
            ranked = standings(
                draw, group, margins, tiebreaks=ROUND_ROBIN_TIEBREAKS, bye_is_a_win=False
            )
            table.extend((number, row, ROUND_ROBIN_TIEBREAKS) for row in ranked)
    else:
        table = [(None, row, ()) for row in _by_place(fmt.placings(draw), draw)]
    names = {
        pk: (username, display_name)
        for pk, username, display_name in User.objects.filter(
            pk__in=[row.entrant for _, row, _ in table]
        ).values_list("pk", "username", "profile__display_name")
    }
    return [
        {
            "username": names[row.entrant][0],
            "display_name": names[row.entrant][1] or "",
            "group": group,
            "rank": row.rank,
            "points": row.points,
            "wins": row.wins,
            "losses": row.losses,
            "byes": row.byes,
            "tiebreaks": {tiebreak.value: getattr(row, tiebreak.value) for tiebreak in used},
        }
        for group, row, used in table
    ]


def ties_waiting(tournament: Tournament, draw: Draw | None = None) -> list[list[int]]:
    """The groups of players (user ids, table order) a running truncated round robin waits
    on its organizer to break with tie-break matches or let stand; empty otherwise
    (``tournaments.tiebreaks``)."""
    if tournament.state != TournamentState.RUNNING or tournament.ties_shared:
        return []
    fmt = tournament_format(tournament, pool_cents=tournament.prize_pool_cents)
    if not isinstance(fmt, RoundRobin) or fmt.options.rounds is None:
        return []
    if draw is None:
        draw, _ = draw_rows.stored_draw(tournament)
    return [list(tied) for tied in fmt.ties_to_break(draw)]


def ties_waiting_names(tournament: Tournament) -> list[str]:
    """``ties_waiting`` as the organizer's page names them: "Ann Lee, Bo Park" per group."""
    groups = ties_waiting(tournament)
    names = dict(
        User.objects.filter(pk__in=[pk for group in groups for pk in group]).values_list(
            "pk", "profile__display_name"
        )
    )
    return [", ".join(names[pk] for pk in group) for group in groups]


SWISS = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.MEDIAN_BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.POINTS_MARGIN,
)


def _margins(
    tournament: Tournament, rows: dict[PairingKey, Pairing]
) -> dict[PairingKey, tuple[int, int]]:
    """Each played pairing's score as (top, bottom): the match seats its top player first."""
    scores = {
        pk: (score_0, score_1)
        for pk, score_0, score_1 in Match.objects.filter(tournament_id=tournament.pk).values_list(
            "pk", "score_0", "score_1"
        )
    }
    return {key: scores[row.match_id] for key, row in rows.items() if row.match_id in scores}


def _by_place(placings: Sequence[Placing], draw: Draw) -> list[StandingRow]:
    """The format's places as rows, with each player's wins, losses and byes in the draw."""
    wins: dict[int, int] = {}
    losses: dict[int, int] = {}
    byes: dict[int, int] = {}
    for pairing in draw.pairings:
        if pairing.winner is None:
            continue
        loser = pairing.loser
        if loser is BYE:
            byes[pairing.winner] = byes.get(pairing.winner, 0) + 1
            continue
        wins[pairing.winner] = wins.get(pairing.winner, 0) + 1
        if isinstance(loser, int):
            losses[loser] = losses.get(loser, 0) + 1
    return [
        StandingRow(
            entrant=placing.entrant,
            rank=placing.place,
            points=wins.get(placing.entrant, 0),
            wins=wins.get(placing.entrant, 0),
            losses=losses.get(placing.entrant, 0),
            byes=byes.get(placing.entrant, 0),
            buchholz=0,
            median_buchholz=0,
            sonneborn_berger=0,
            points_margin=0,
        )
        for placing in placings
    ]


# ---------------------------------------------------------------- the standings page

# Each tiebreak's short heading and what it counts, for the table's header.
TIEBREAK_WORDS = {
    Tiebreak.BUCHHOLZ: (
        pgettext_lazy("tiebreak heading: Buchholz", "Bu"),
        gettext_lazy("Buchholz: the sum of the opponents' points"),
    ),
    Tiebreak.MEDIAN_BUCHHOLZ: (
        pgettext_lazy("tiebreak heading: median Buchholz", "MBu"),
        gettext_lazy("Median Buchholz: the opponents' points without the highest and the lowest"),
    ),
    Tiebreak.SONNEBORN_BERGER: (
        pgettext_lazy("tiebreak heading: Sonneborn-Berger", "SB"),
        gettext_lazy("Sonneborn-Berger: the sum of the points of those beaten"),
    ),
    Tiebreak.POINTS_MARGIN: (
        "+/−",
        gettext_lazy("Points margin: points scored less points conceded"),
    ),
}


@dataclass(frozen=True)
class StandingsTable:
    """One table of the standings: a Swiss's whole field, or one round-robin group."""

    group: str  # "A", "B", ... when a round robin plays in groups; else ""
    tiebreaks: list[tuple[str, str, str]]  # name, heading, explanation
    rows: list[dict[str, Any]]  # as ``tournament_standings`` gives them

    @property
    def lines(self) -> list[tuple[dict[str, Any], list[int]]]:
        """Each row with its tiebreaks' values in the headings' order."""
        return [
            (row, [row["tiebreaks"][name] for name, _, _ in self.tiebreaks]) for row in self.rows
        ]


def standings_tables(rows: list[dict[str, Any]]) -> list[StandingsTable]:
    """``tournament_standings`` rows as the page's tables, one per group."""
    by_group: dict[int | None, list[dict[str, Any]]] = {}
    for row in rows:
        by_group.setdefault(row["group"], []).append(row)
    return [
        StandingsTable(
            group_letter(group) if len(by_group) > 1 and group is not None else "",
            [
                (name, *(str(words) for words in TIEBREAK_WORDS[Tiebreak(name)]))
                for name in grouped[0]["tiebreaks"]
            ],
            grouped,
        )
        for group, grouped in by_group.items()
    ]


def group_letter(group: int) -> str:
    return chr(ord("A") + group - 1)


@dataclass(frozen=True)
class PairingRound:
    """A Swiss or round-robin round as its pairings table lists it: each slot with its board
    ("3", or "B2" for group B's second board when a round robin plays in groups)."""

    round: BracketRound
    boards: list[str]

    @property
    def rows(self) -> list[tuple[str, BracketSlot]]:
        return list(zip(self.boards, self.round.slots, strict=True))

    @property
    def played(self) -> int:
        """The pairings decided, byes included."""
        return sum(slot.top.won or slot.bottom.won for slot in self.round.slots)


def pairing_rounds(rounds: list[BracketRound], rows: list[dict[str, Any]]) -> list[PairingRound]:
    """The main flight's rounds, the latest first; the groups are read from the standings
    ``rows``."""
    grouped = len({row["group"] for row in rows}) > 1
    group_of = {row["username"]: group_letter(row["group"]) for row in rows if grouped}
    shown = []
    for r in reversed(rounds):
        if r.flight != Flight.MAIN:
            continue
        boards = []
        counted: dict[str, int] = {}
        for slot in r.slots:
            group = group_of.get(slot.top.username or slot.bottom.username, "")
            counted[group] = counted.get(group, 0) + 1
            boards.append(f"{group}{counted[group]}")
        shown.append(PairingRound(r, boards))
    return shown
