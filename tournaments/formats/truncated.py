"""A truncated round robin's standings and its tie-break matches.

Terms:

- **Truncated round robin**: a round robin that plays only the first N rounds of its Berger
  table (``RoundRobinOptions.rounds``), as online leagues run one: not everyone meets
  everyone, so points from strength of schedule (Sonneborn-Berger) say little, and places are
  settled between the tied players themselves.
- **Wins**: matches won; a sit-out scores nothing.
- **Mutual result**: the result of a table match between two of the tied players. A
  **mini-table** ranks tied players by their wins in the matches among themselves; it is
  used only when every one of them met every other (for two players it is their
  head-to-head match). Players the mini-table leaves level are put through it again among
  themselves; when it separates nobody, or some of them never met, they stay tied.
- **Tie-break match**: a 1-point match (DMP, double match point) the organizer schedules
  between players still tied for a place that matters (first, or a paid place) once the table
  is played out. Three or more tied players play a **stepladder**: the two lowest seeds meet,
  the winner meets the next seed up, and so on until the winner of the top seed's match takes
  the highest place; each match's loser takes the lowest place still open. Seeds are the
  table numbers (by rating), so the better-rated wait, as the table gave them no say.
  Stepladder k (from 0) is laid out in the ``final`` flight at position k, one step a round.
- **Tie that matters**: entrants sharing a rank at or above the last paid place once every
  table match is decided and no stepladder among them is scheduled yet.

Until a stepladder is played, its players share the place: the tournament does not finish
(prizes wait in escrow) unless the organizer chose to let the ties stand, in which case the
tied players share the places and split their prizes as any shared place does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from itertools import combinations

from tournaments.formats.base import Draw, Flight, Pairing, PairingKey, WinnerOf, entrant_of
from tournaments.formats.standings import StandingRow, standings

TIEBREAK_MATCH_LENGTH = 1


def truncated_standings(draw: Draw, entrants: Sequence[int]) -> tuple[StandingRow, ...]:
    """``entrants`` (in table-number order) ranked by wins, then the mini-table of the tied,
    then their stepladder; entrants still level share a rank."""
    rows = {row.entrant: row for row in standings(draw, entrants, tiebreaks=(), bye_is_a_win=False)}
    mutual = _mutual_results(draw)
    scheduled = ladders(draw)
    by_wins: dict[int, list[int]] = {}
    for entrant in entrants:
        by_wins.setdefault(rows[entrant].points, []).append(entrant)
    tiers: list[list[int]] = []
    for _, level in sorted(by_wins.items(), reverse=True):
        tiers.extend(_split(level, mutual, scheduled))
    ranked: list[StandingRow] = []
    for tier in tiers:
        rank = len(ranked) + 1
        ranked.extend(dataclasses.replace(rows[entrant], rank=rank) for entrant in tier)
    return tuple(ranked)


def ties_that_matter(rows: Sequence[StandingRow], places: int) -> tuple[tuple[int, ...], ...]:
    """The groups of entrants sharing a rank no lower than ``places``, best first."""
    shared: dict[int, list[int]] = {}
    for row in rows:
        shared.setdefault(row.rank, []).append(row.entrant)
    return tuple(
        tuple(group) for rank, group in sorted(shared.items()) if len(group) > 1 and rank <= places
    )


def stepladder(tied: Sequence[int], position: int) -> tuple[Pairing, ...]:
    """The stepladder among ``tied`` (best seed first) at ``position`` of the ``final``
    flight: step 0 is the two lowest seeds, each next step the next seed up against the
    winner of the step before."""
    steps = []
    waiting: int | WinnerOf = tied[-1]
    for round_, seed in enumerate(reversed(tied[:-1])):
        key = PairingKey(Flight.FINAL, round_, position)
        steps.append(Pairing(key, seed, waiting, TIEBREAK_MATCH_LENGTH))
        waiting = WinnerOf(key)
    return tuple(steps)


def _mutual_results(draw: Draw) -> dict[frozenset[int], int]:
    """The winner of each decided table match, by its two players."""
    return {
        frozenset((entrant_of(p.top), entrant_of(p.bottom))): p.winner
        for p in draw.pairings
        if p.key.flight is Flight.MAIN and p.winner is not None and not p.is_bye
    }


def ladders(draw: Draw) -> list[tuple[Pairing, ...]]:
    """The stepladders scheduled so far, each its steps in order."""
    by_position: dict[int, list[Pairing]] = {}
    for pairing in draw.pairings:
        if pairing.key.flight is Flight.FINAL:
            by_position.setdefault(pairing.key.position, []).append(pairing)
    return [
        tuple(sorted(steps, key=lambda p: p.key.round)) for _, steps in sorted(by_position.items())
    ]


def ladder_players(steps: Sequence[Pairing]) -> frozenset[int]:
    """Everyone a stepladder was laid out among."""
    return frozenset([entrant_of(steps[0].bottom), *(entrant_of(step.top) for step in steps)])


def _split(
    level: list[int], mutual: dict[frozenset[int], int], scheduled: list[tuple[Pairing, ...]]
) -> list[list[int]]:
    """Entrants level on wins as tiers, best first: by their mini-table while it separates
    them, then by their stepladder."""
    if len(level) == 1:
        return [level]
    pairs = [frozenset(pair) for pair in combinations(level, 2)]
    if all(pair in mutual for pair in pairs):
        mini = dict.fromkeys(level, 0)
        for pair in pairs:
            mini[mutual[pair]] += 1
        by_mini: dict[int, list[int]] = {}
        for entrant in level:
            by_mini.setdefault(mini[entrant], []).append(entrant)
        if len(by_mini) > 1:
            return [
                tier
                for _, group in sorted(by_mini.items(), reverse=True)
                for tier in _split(group, mutual, scheduled)
            ]
    for steps in scheduled:
        if ladder_players(steps) == frozenset(level):
            return _ladder_tiers(level, steps)
    return [level]


def _ladder_tiers(level: list[int], steps: Sequence[Pairing]) -> list[list[int]]:
    """The stepladder's order: each decided step's loser below the steps after it, the
    players still in sharing the places above."""
    losers = [entrant_of(step.loser) for step in steps if step.winner is not None]
    still_in = [entrant for entrant in level if entrant not in losers]
    return [still_in, *([loser] for loser in reversed(losers))]
