"""Standings by points and published tiebreaks, for Swiss and round-robin play.

Points are matches won, a bye counting as one. The tiebreaks, applied in the order a format
lists them (``SWISS_TIEBREAKS`` for a Swiss):

- **Buchholz**: the sum of the opponents' points.
- **Median Buchholz**: the same without the highest and the lowest.
- **Sonneborn-Berger**: the sum of the points of the opponents beaten.
- **Points margin**: over the entrant's matches, the points they scored less the points scored
  against them (from the match scores the caller passes in; a match missing counts 0).

A bye counts, for its holder's tiebreaks, as a win over a dummy opponent whose points are the
holder's own, capped at half the rounds (FIDE Handbook C.07, Tie-Break Regulations, 16.4;
rounded down here, as backgammon has no half points); for the opponents of the bye's holder
it is the won match it is (16.3.1). Entrants equal on points and every tiebreak share a rank.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats.base import Draw, Flight, PairingKey, Placing, entrant_of


class Tiebreak(StrEnum):
    """A tiebreak, named as the ``StandingRow`` field that holds it."""

    BUCHHOLZ = "buchholz"
    MEDIAN_BUCHHOLZ = "median_buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    POINTS_MARGIN = "points_margin"


SWISS_TIEBREAKS = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.MEDIAN_BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.POINTS_MARGIN,
)


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One entrant's line in the standings; entrants equal on points and every tiebreak used
    share a ``rank``."""

    entrant: int
    rank: int
    points: int
    wins: int
    losses: int
    byes: int
    buchholz: int
    median_buchholz: int
    sonneborn_berger: int
    points_margin: int


def standings(
    draw: Draw,
    entrants: Sequence[int],
    margins: Mapping[PairingKey, tuple[int, int]] | None = None,
    *,
    tiebreaks: Sequence[Tiebreak] = SWISS_TIEBREAKS,
    bye_is_a_win: bool = True,
) -> tuple[StandingRow, ...]:
    """``entrants`` ranked on the decided matches of the draw's ``main`` flight.

    ``entrants`` are ids in seed order; that order lists tied entrants but never separates
    them. Entrants are ranked on points, then on ``tiebreaks`` in order; by default:

    1. Buchholz: the sum of the opponents' points.
    2. Median Buchholz: the same without the highest and the lowest of those opponents.
    3. Sonneborn-Berger: the sum of the points of the opponents beaten.
    4. Points margin: game points won minus game points lost over all matches, from
       ``margins`` (pairing key to the (top, bottom) score of its match); a match missing
       from it counts 0.

    A bye counts, for its holder's Buchholz and Sonneborn-Berger, as a win over a dummy whose
    points are the holder's own, capped at half the rounds (FIDE Handbook C.07, Tie-Break
    Regulations, article 16.4; the cap, there the score of all draws, is rounded down as
    backgammon has no half points). The holder's opponents see the bye as the win it is
    (article 16.3.1). With ``bye_is_a_win`` False (a round robin's sit-out) a bye scores
    nothing and counts for no tiebreak.
    """
    rounds = len(draw.rounds(Flight.MAIN))
    opponents: dict[int, list[int]] = {}
    beaten: dict[int, list[int]] = {}
    byes: dict[int, int] = {}
    margin: dict[int, int] = {}
    for pairing in draw.pairings:
        if pairing.key.flight is not Flight.MAIN or pairing.winner is None:
            continue
        winner, loser = pairing.winner, pairing.loser
        if not isinstance(loser, int):
            byes[winner] = byes.get(winner, 0) + 1
            continue
        opponents.setdefault(winner, []).append(loser)
        opponents.setdefault(loser, []).append(winner)
        beaten.setdefault(winner, []).append(loser)
        if margins is not None and pairing.key in margins:
            top_points, bottom_points = margins[pairing.key]
            top_margin = top_points - bottom_points
            top, bottom = entrant_of(pairing.top), entrant_of(pairing.bottom)
            margin[top] = margin.get(top, 0) + top_margin
            margin[bottom] = margin.get(bottom, 0) - top_margin

    def points(entrant: int) -> int:
        won = len(beaten.get(entrant, ()))
        return won + byes.get(entrant, 0) if bye_is_a_win else won

    def row(entrant: int) -> StandingRow:
        own = points(entrant)
        bye_count = byes.get(entrant, 0)
        dummy = [min(own, rounds // 2)] * bye_count if bye_is_a_win else []
        faced = sorted([points(opponent) for opponent in opponents.get(entrant, ())] + dummy)
        won = len(beaten.get(entrant, ()))
        return StandingRow(
            entrant=entrant,
            rank=0,
            points=own,
            wins=won,
            losses=len(opponents.get(entrant, ())) - won,
            byes=bye_count,
            buchholz=sum(faced),
            median_buchholz=sum(faced[1:-1]),
            sonneborn_berger=sum(points(o) for o in beaten.get(entrant, ())) + sum(dummy),
            points_margin=margin.get(entrant, 0),
        )

    def merit(row: StandingRow) -> tuple[int, ...]:
        return (row.points, *(getattr(row, tiebreak.value) for tiebreak in tiebreaks))

    rows = sorted((row(entrant) for entrant in entrants), key=merit, reverse=True)
    ranked: list[StandingRow] = []
    for i, current in enumerate(rows):
        tied_above = i > 0 and merit(rows[i - 1]) == merit(current)
        rank = ranked[-1].rank if tied_above else i + 1
        ranked.append(dataclasses.replace(current, rank=rank))
    return tuple(ranked)


def placings_from(rows: Sequence[StandingRow], *, after: int = 0) -> tuple[Placing, ...]:
    """Places from ranked rows, ``after`` places already given; tied ranks share places."""
    size: dict[int, int] = {}
    for row in rows:
        size[row.rank] = size.get(row.rank, 0) + 1
    return tuple(
        Placing(row.entrant, after + row.rank, after + row.rank + size[row.rank] - 1)
        for row in rows
    )
