"""Swiss: every entrant plays every round, each time against someone on the same score.

Terms:

- **Points**: matches won, a bye counting as a win. Backgammon has no drawn matches.
- **Score group**: the entrants on the same points before a round.
- **Float**: an entrant paired outside their score group, against someone on fewer points.
- **Rematch**: two entrants meeting a second time. A Swiss pairs one only when no pairing of
  the round avoids it.
- **Bye**: in an odd field, the entrant left over in a round. It goes to the lowest-ranked
  entrant on the lowest score who has not had one and counts as a won match.
- **Seed order**: the field ranked by rating before round 0 (hand-set seeds first, as in a
  knockout). Round 0 lays it out as top half against bottom half (1 v 5, 2 v 6, 3 v 7, 4 v 8),
  the bye last, so ``advance`` reads it back from the draw and needs nothing else.
- **Top cut**: an optional knockout among the best ``top_cut`` entrants once the Swiss rounds
  are over, in the ``final`` flight, seeded by the standings (1 v N, 2 v N-1, ...).
- **Tiebreaks**: what separates entrants on the same points; see
  ``tournaments.formats.standings``.

Pairing a round (the ``main`` flight, round = Swiss round, pairings from the top of the
standings down, the bye last): every round, however long the Swiss, is paired from the
standings by ``tournaments.formats.pairing`` (its docstring and README.md's "Swiss pairing"
give the rules). In short: the entrants are ranked by points, then seed order; the bye goes
to the lowest-ranked entrant on the lowest score who has not had one (a second bye only once
everyone has had one); then, from the top, each entrant takes an opponent in their own score
group, half-way down it first (top half against bottom half, as the Dutch system of FIDE
C.04.3 pairs a score group), floating down to the next group when theirs runs out. No pair
meets twice while a pairing without a rematch exists; when none does (a Swiss of more rounds
than half the field can paint itself into a corner: six entrants after three rounds may be
left with two triangles of unplayed pairs), the round has the fewest rematches the field
allows, between entrants who met as long ago as possible.

A thousand entrants pair in a few hundredths of a second a round: the search checks its
steps exactly but only at the bottom of the standings, where few are left.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
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
from tournaments.formats.pairing import RoundPairing, pair_round
from tournaments.formats.stages import knockout_stage, knockout_stage_placings, round_length
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
        first = pair_round(seeds, dict.fromkeys(seeds, 0), {e: {} for e in seeds}, set(), 0)
        return build_draw(self._round(0, first.pairs, first.bye))

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        """Record ``results``; once every match so far is decided, lay out what comes next."""
        draw = record_results(draw, results)
        if any(pairing.winner is None for pairing in draw.pairings):
            return draw
        played = len(draw.rounds(Flight.MAIN))
        if played < self.options.rounds:
            next_round = _pair_next_round(draw)
            return build_draw(draw.pairings + self._round(played, next_round.pairs, next_round.bye))
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


def _pair_next_round(draw: Draw) -> RoundPairing:
    """The next Swiss round, paired from the standings of the rounds played."""
    seeds = seed_order_of(draw)
    points = dict.fromkeys(seeds, 0)
    history: dict[int, dict[int, tuple[int, int]]] = {entrant: {} for entrant in seeds}
    had_bye: set[int] = set()
    rounds = draw.rounds(Flight.MAIN)
    for round_, pairings in enumerate(rounds):
        for pairing in pairings:
            winner = entrant_of(pairing.winner)
            points[winner] += 1
            if pairing.is_bye:
                had_bye.add(winner)
                continue
            top, bottom = entrant_of(pairing.top), entrant_of(pairing.bottom)
            times = history[top].get(bottom, (0, 0))[0] + 1
            history[top][bottom] = history[bottom][top] = (times, round_)
    seed = {entrant: i for i, entrant in enumerate(seeds)}
    ranked = sorted(seeds, key=lambda entrant: (-points[entrant], seed[entrant]))
    return pair_round(ranked, points, history, had_bye, len(rounds))
