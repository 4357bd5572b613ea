"""Swiss: every entrant plays every round, each time against someone on the same score.

Terms:

- **Points**: matches won, a bye counting as a win. Backgammon has no drawn matches.
- **Score group**: the entrants on the same points before a round.
- **Float**: an entrant paired outside their score group, against someone on fewer points.
- **Rematch**: two entrants meeting a second time. A Swiss never pairs one.
- **Bye**: in an odd field, the entrant left over in a round. It goes to the lowest-ranked
  entrant who has not had one and counts as a won match.
- **Seed order**: the field ranked by rating before round 0 (hand-set seeds first, as in a
  knockout). Round 0 lays it out as top half against bottom half (1 v 5, 2 v 6, 3 v 7, 4 v 8),
  the bye last, so ``advance`` reads it back from the draw and needs nothing else.
- **Top cut**: an optional knockout among the best ``top_cut`` entrants once the Swiss rounds
  are over, in the ``final`` flight, seeded by the standings (1 v N, 2 v N-1, ...).
- **Tiebreaks**: what separates entrants on the same points; see
  ``tournaments.formats.standings``.

Pairing a round (the ``main`` flight, round = Swiss round, pairings from the top of the
standings down, the bye last):

The entrants are ranked by points, then seed order. The bye, in an odd field, goes to the
lowest-ranked entrant without one whose absence leaves the rest pairable. Then the top-ranked
entrant still unpaired takes the first opponent, in this order of preference, who is not a
rematch and leaves the rest pairable: in their own score group, the one half-way down (which
gives top half against bottom half, as the Dutch system of FIDE C.04.3 pairs a score group),
then further down the group, then back up it; then the lower score groups, each from its top,
so a floater drops the fewest score groups the pairings above allow.

"Leaves the rest pairable" is decided exactly, so the search never takes a step it must undo
and always succeeds when a pairing without rematches exists. While at least 2m + 2 entrants
are left, m being the most opponents anyone has had, each can still meet at least half of the
others, and by Dirac's theorem (1952: a graph of n >= 3 vertices whose every degree is at least
n/2 has a Hamiltonian cycle, and so, n being even, a perfect matching) they can be paired. Only
the last few (at most 2m + 2) are checked with Edmonds' blossom algorithm (1965), keeping one
perfect matching up to date and looking for a single augmenting path per candidate. Pairing
a round costs about one pass down the standings plus a small matching problem at the bottom:
a thousand entrants pair in a few hundredths of a second.

Which rounds can always be paired: Dirac's bound holds before every round as long as the Swiss
has at most half as many rounds as entrants, rounded up (with the bye counted as an extra
entrant whom each bye has "met"). A longer Swiss can paint itself into a corner (six entrants
after three rounds may be left with two triangles of unplayed pairs and no fourth round), so a
Swiss of more rounds than that, up to entrants - 1, is paired from a Berger table
(``tournaments.formats.stages.berger_table``) laid over round 0: each round plays whichever
unplayed table round pairs the standings best (least sum of squared point differences, the
earliest table round on a tie). It is then a round robin cut short, in the order the scores
suggest, and it always completes; the table, not the standings, decides who has the bye.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.base import (
    BYE,
    Draw,
    DrawInvariantError,
    Entrant,
    Flight,
    FormatError,
    Pairing,
    PairingKey,
    Placing,
    Result,
    Side,
    build_draw,
    check_match_lengths,
    entrant_of,
    gettext_noop,
    record_results,
)
from tournaments.formats.knockout import Seeding, seed_order
from tournaments.formats.matching import NotMetMatching
from tournaments.formats.stages import (
    berger_table,
    knockout_stage,
    knockout_stage_placings,
    round_length,
)
from tournaments.formats.standings import StandingRow, placings_from, standings


@dataclass(frozen=True)
class SwissOptions:
    """What the organizer chooses.

    ``match_lengths`` are the Swiss rounds' lengths, first round first; a shorter list repeats
    its last length ((5,) plays every round to 5 points). ``top_cut_match_lengths`` are the top
    cut's, read as a knockout reads them (aligned on the final); left empty, every top-cut
    match is as long as the last Swiss round.
    """

    rounds: int
    match_lengths: tuple[int, ...]
    top_cut: int | None = None
    top_cut_match_lengths: tuple[int, ...] = ()


@dataclass(frozen=True)
class Swiss:
    """A Swiss of ``rounds`` rounds in the ``main`` flight, with an optional top cut."""

    options: SwissOptions

    def __post_init__(self) -> None:
        if self.options.rounds < 1:
            raise FormatError(
                gettext_noop("A Swiss needs at least 1 round, not %(rounds)s."),
                rounds=self.options.rounds,
            )
        check_match_lengths(self.options.match_lengths, required_for="the Swiss rounds")
        check_match_lengths(self.options.top_cut_match_lengths)
        cut = self.options.top_cut
        if cut is not None and (cut < 2 or cut & (cut - 1)):
            raise FormatError(
                gettext_noop(
                    "The top cut must be a power of two, at least 2 (2, 4, 8, ...), not %(cut)s."
                ),
                cut=cut,
            )

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        count = len(entrants)
        if len({entrant.id for entrant in entrants}) != count:
            raise DrawInvariantError("An entrant is registered twice")
        if count < 2:
            raise FormatError(
                gettext_noop("A Swiss needs at least 2 entrants; it has %(count)s."), count=count
            )
        if self.options.rounds > count - 1:
            raise FormatError(
                gettext_noop(
                    "%(count)s entrants can play at most %(most)s rounds without meeting twice; "
                    "%(rounds)s were asked for."
                ),
                count=count,
                most=count - 1,
                rounds=self.options.rounds,
            )
        cut = self.options.top_cut
        if cut is not None and cut > count:
            raise FormatError(
                gettext_noop(
                    "A top cut of %(cut)s needs at least %(cut)s entrants; %(count)s came."
                ),
                cut=cut,
                count=count,
            )
        seeds = [entrant.id for entrant in seed_order(entrants, Seeding.RATING, rng)]
        pairs, bye = _pair_by_score(
            seeds, dict.fromkeys(seeds, 0), {e: set() for e in seeds}, set()
        )
        return build_draw(self._round(0, pairs, bye))

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        """Record ``results``; once every match so far is decided, lay out what comes next."""
        draw = record_results(draw, results)
        if any(pairing.winner is None for pairing in draw.pairings):
            return draw
        played = len(draw.rounds(Flight.MAIN))
        if played < self.options.rounds:
            pairs, bye = _pair_next_round(draw, self.options.rounds)
            return build_draw(draw.pairings + self._round(played, pairs, bye))
        if self.options.top_cut is not None and not draw.rounds(Flight.FINAL):
            qualifiers = [row.entrant for row in self.standings(draw)[: self.options.top_cut]]
            lengths = self.options.top_cut_match_lengths or self.options.match_lengths[-1:]
            return build_draw(draw.pairings + knockout_stage(qualifiers, lengths))
        return draw

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        return draw.ready()

    def is_finished(self, draw: Draw) -> bool:
        if any(pairing.winner is None for pairing in draw.pairings):
            return False
        if len(draw.rounds(Flight.MAIN)) < self.options.rounds:
            return False
        return self.options.top_cut is None or bool(draw.rounds(Flight.FINAL))

    def standings(
        self, draw: Draw, margins: Mapping[PairingKey, tuple[int, int]] | None = None
    ) -> tuple[StandingRow, ...]:
        """The Swiss rounds' standings (the top cut is not counted)."""
        return standings(draw, seed_order_of(draw), margins)

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """By the standings, ties on every tiebreak sharing places; with a top cut under way or
        played, its entrants take the top places as in a knockout (those still in share them,
        losers of the same round share theirs) and the rest follow in the Swiss order."""
        top_cut = knockout_stage_placings(draw)
        cut = {placing.entrant for placing in top_cut}
        rest = standings(draw, [entrant for entrant in seed_order_of(draw) if entrant not in cut])
        return (*top_cut, *placings_from(rest, after=len(top_cut)))

    def _round(
        self, round_: int, pairs: list[tuple[int, int]], bye: int | None
    ) -> tuple[Pairing, ...]:
        length = round_length(self.options.match_lengths, round_)
        sides: list[tuple[int, Side]] = [*pairs, *([(bye, BYE)] if bye is not None else [])]
        return tuple(
            Pairing(PairingKey(Flight.MAIN, round_, position), top, bottom, length)
            for position, (top, bottom) in enumerate(sides)
        )


def seed_order_of(draw: Draw) -> tuple[int, ...]:
    """The Swiss's seed order, read back from round 0 (top half, bottom half, the bye)."""
    first = draw.rounds(Flight.MAIN)[0]
    played = [pairing for pairing in first if not pairing.is_bye]
    byes = [pairing.winner for pairing in first if pairing.is_bye]
    seeds = [pairing.top for pairing in played] + [pairing.bottom for pairing in played] + byes
    return tuple(entrant_of(side) for side in seeds)


def _pair_next_round(draw: Draw, rounds: int) -> tuple[list[tuple[int, int]], int | None]:
    seeds = seed_order_of(draw)
    points = dict.fromkeys(seeds, 0)
    met: dict[int, set[int]] = {entrant: set() for entrant in seeds}
    had_bye: set[int] = set()
    for pairing in draw.pairings:
        if pairing.key.flight is not Flight.MAIN:
            continue
        winner = entrant_of(pairing.winner)
        points[winner] += 1
        if pairing.is_bye:
            had_bye.add(winner)
        else:
            top, bottom = entrant_of(pairing.top), entrant_of(pairing.bottom)
            met[top].add(bottom)
            met[bottom].add(top)
    seed = {entrant: i for i, entrant in enumerate(seeds)}
    ranked = sorted(seeds, key=lambda entrant: (-points[entrant], seed[entrant]))
    if rounds <= (len(seeds) + 1) // 2:
        return _pair_by_score(ranked, points, met, had_bye)
    return _pair_from_table(draw, ranked, points, met)


def _pair_by_score(
    ranked: Sequence[int],
    points: Mapping[int, int],
    met: Mapping[int, set[int]],
    had_bye: set[int],
) -> tuple[list[tuple[int, int]], int | None]:
    """The round's pairings, best-ranked first, and the bye (see the module docstring)."""
    most_met = max(len(opponents) for opponents in met.values())
    remaining = list(ranked)
    bye = None
    if len(remaining) % 2:
        for candidate in reversed(remaining):
            rest = [entrant for entrant in remaining if entrant != candidate]
            if candidate not in had_bye and _pairable(rest, met, most_met):
                bye, remaining = candidate, rest
                break
        else:
            raise DrawInvariantError("Nobody can take the bye without leaving a rematch")
    elif not _pairable(remaining, met, most_met):
        raise DrawInvariantError("This round cannot be paired without a rematch")
    matching: NotMetMatching | None = None
    pairs = []
    while remaining:
        leader = remaining.pop(0)
        for opponent in _by_preference(leader, remaining, points):
            if opponent in met[leader]:
                continue
            if matching is None and _many_enough(len(remaining) - 1, most_met):
                break
            if matching is None:
                matching = NotMetMatching([leader, *remaining], met)
            if matching.take(leader, opponent):
                break
        else:
            raise DrawInvariantError(f"{leader} has no opponent left, though a pairing existed")
        remaining.remove(opponent)
        pairs.append((leader, opponent))
    return pairs, bye


def _by_preference(
    leader: int, remaining: Sequence[int], points: Mapping[int, int]
) -> Iterator[int]:
    """The leader's possible opponents, most wanted first: half-way down the leader's score
    group, then on down it, then back up it, then the lower groups from the top."""
    group = 0
    while group < len(remaining) and points[remaining[group]] == points[leader]:
        group += 1
    half_way = max((group + 1) // 2 - 1, 0)
    for i in (*range(half_way, group), *range(half_way - 1, -1, -1)):
        yield remaining[i]
    for i in range(group, len(remaining)):
        yield remaining[i]


def _many_enough(count: int, most_met: int) -> bool:
    """Whether ``count`` entrants can be paired whoever has met whom (Dirac's bound)."""
    return count == 0 or most_met <= count // 2 - 1


def _pairable(entrants: Sequence[int], met: Mapping[int, set[int]], most_met: int) -> bool:
    return _many_enough(len(entrants), most_met) or NotMetMatching(entrants, met).is_perfect


def _pair_from_table(
    draw: Draw, ranked: Sequence[int], points: Mapping[int, int], met: Mapping[int, set[int]]
) -> tuple[list[tuple[int, int]], int | None]:
    """The unplayed round of the Swiss's Berger table that best fits the standings."""
    table = _table_over_round_zero(draw)
    unplayed = [
        boards for boards in table if not any(isinstance(b, int) and b in met[a] for a, b in boards)
    ]

    def misfit(boards: list[tuple[int, int | None]]) -> int:
        return sum((points[a] - points[b]) ** 2 for a, b in boards if b is not None)

    best = min(unplayed, key=misfit)
    rank = {entrant: i for i, entrant in enumerate(ranked)}
    pairs = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in best if b is not None]
    pairs.sort(key=lambda pair: rank[pair[0]])
    bye = next((a for a, b in best if b is None), None)
    return pairs, bye


def _table_over_round_zero(draw: Draw) -> list[list[tuple[int, int | None]]]:
    """The Berger table for the field, numbered so that its round 1 is the draw's round 0.

    Each board is (entrant, entrant) or (entrant, None) for the bye.
    """
    first = draw.rounds(Flight.MAIN)[0]
    boards: list[tuple[int, int | None]] = [
        (entrant_of(pairing.winner), None) for pairing in first if pairing.is_bye
    ]
    boards += [(entrant_of(p.top), entrant_of(p.bottom)) for p in first if not p.is_bye]
    table = berger_table(2 * len(boards))
    number: dict[int, int | None] = {}
    for (a, b), (top, bottom) in zip(table[0], boards, strict=True):
        number[a], number[b] = top, bottom
    return [[_board(number[a], number[b]) for a, b in table_round] for table_round in table]


def _board(first: int | None, second: int | None) -> tuple[int, int | None]:
    """A board with its entrant first and the bye, if any, second."""
    if first is None:
        first, second = second, first
    return entrant_of(first), second
