"""Round robin: everyone meets everyone once, in one table or in groups feeding a knockout.

Terms:

- **Berger table**: the published schedule of a round robin (FIDE Handbook, C.05 Annex 1,
  "Berger Tables for Round-Robin Tournaments"; built by ``stages.berger_table``). Entrant k of
  the table (by rating) plays under number k; in an odd table the highest number is the bye.
- **Sit-out**: a round robin's bye. Every entrant of an odd table sits out once; it scores
  nothing and counts for no tiebreak, so it changes no one's place.
- **Group**: with ``group_size`` G, the field is split into ceil(entrants / G) groups of at most
  G, in snake order by rating (1 to 4 into groups A to D, 5 to 8 into D to A, ...), so groups
  are even in strength and differ in size by at most one. Each group plays its own table.
- **Knockout stage**: with ``advance_per_group`` K, the first K of each group go on to a
  knockout in the ``final`` flight, laid out in standard order with byes to the top seeds. The
  group winners are its top seeds (group A's first); the runners-up, then the thirds, ..., take
  the next seeds, each going to the line where they would meet a group-mate as late as
  possible. So group winners meet runners-up of other groups, and with 2 through from each of
  2, 4, 8, ... groups, group-mates can meet again only in the final. Without groups, K alone
  sends the table's first K to a knockout.
- **Standings**: ``standings.standings`` on the group's matches: points, then Sonneborn-Berger,
  then points margin. Buchholz is left out: in a round robin everyone's opponents are the same
  entrants, and FIDE's tie-break regulations (C.07, article 8) rule it out there. Entrants
  still level after every tiebreak are ordered by rating where an order is needed (who goes
  through, who is seeded first) and share their place otherwise.

Layout: all rounds are in the ``main`` flight at once, round = table round. Group g's boards
sit at positions g x s to g x s + s - 1 of each round, s being the most boards any group plays
in a round, so groups never share a pairing key; sit-outs are pairings against the bye, decided
from the start.

Play order: an entrant's matches come in table order, but nobody waits for the whole field. A
pairing is ready once both its entrants have finished every match of the rounds before, so a
slow match holds up only the two entrants in it and, later, their next opponents, while a club
evening need not wait for its slowest table before starting the next round.

Placings: the knockout stage's entrants first, as in a knockout (those still in, then losers
of the last round, and so on, sharing places). Everyone else is placed by their place in
their group, across groups: every group's third share the places after the knockout, then
every group's fourth, and so on. A single table without a knockout is placed by its standings.
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
    build_draw,
    check_match_lengths,
    entrant_of,
    gettext_noop,
    placings_by_group,
    record_results,
)
from tournaments.formats.knockout import Seeding, bracket_size, seed_order, standard_order
from tournaments.formats.prizes import DEFAULT_SIT_AND_GO_TABLE
from tournaments.formats.stages import (
    berger_table,
    knockout_stage,
    knockout_stage_placings,
    round_length,
)
from tournaments.formats.standings import StandingRow, Tiebreak, standings
from tournaments.formats.truncated import (
    ladder_players,
    ladders,
    stepladder,
    ties_that_matter,
    truncated_standings,
)

ROUND_ROBIN_TIEBREAKS = (Tiebreak.SONNEBORN_BERGER, Tiebreak.POINTS_MARGIN)


@dataclass(frozen=True)
class RoundRobinOptions:
    """What the organizer chooses.

    ``match_lengths`` are the table rounds' lengths, first round first; a shorter list repeats
    its last length. ``knockout_match_lengths`` are the knockout stage's, read as a knockout
    reads them; left empty, every knockout match is as long as the last table round.

    ``rounds`` truncates the table (``tournaments.formats.truncated``): one table, no groups,
    its first ``rounds`` rounds. ``prize_places`` are the places a tie at which waits for a
    tie-break match (None: those the published default table pays for the field; give 1 for
    a free tournament); ``ties_shared`` lets the ties stand instead, and the tied share.
    """

    match_lengths: tuple[int, ...]
    group_size: int | None = None
    advance_per_group: int | None = None
    knockout_match_lengths: tuple[int, ...] = ()
    rounds: int | None = None
    prize_places: int | None = None
    ties_shared: bool = False


@dataclass(frozen=True)
class RoundRobin:
    """One Berger table, or groups of Berger tables feeding a knockout stage."""

    options: RoundRobinOptions

    def __post_init__(self) -> None:
        check_match_lengths(self.options.match_lengths, required_for="the round robin")
        check_match_lengths(self.options.knockout_match_lengths)
        size, through = self.options.group_size, self.options.advance_per_group
        if size is not None and size < 2:
            raise FormatError(
                gettext_noop("A group needs room for at least 2 players, not %(size)s."), size=size
            )
        if size is not None and through is None:
            raise FormatError(
                gettext_noop("Say how many players of each group go through to the knockout.")
            )
        if self.options.rounds is not None and (size is not None or through is not None):
            raise FormatError(
                gettext_noop(
                    "A round robin cut to fewer rounds is one table: it takes no groups and no "
                    "knockout."
                )
            )
        if self.options.rounds is not None and self.options.rounds < 1:
            raise FormatError(
                gettext_noop("A round robin plays at least 1 round, not %(rounds)s."),
                rounds=self.options.rounds,
            )
        if through is not None and through < 1:
            raise FormatError(
                gettext_noop("At least 1 player per group must go through, not %(through)s."),
                through=through,
            )

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        count = len(entrants)
        if len({entrant.id for entrant in entrants}) != count:
            raise DrawInvariantError("An entrant is registered twice")
        if count < 2:
            raise FormatError(
                gettext_noop("A round robin needs at least 2 entrants; it has %(count)s."),
                count=count,
            )
        seeds = [entrant.id for entrant in seed_order(entrants, Seeding.RATING, rng)]
        groups = _snake(seeds, self._group_count(count))
        self._check_knockout(groups)
        slots = _slots(count, len(groups))
        pairings = []
        for group, members in enumerate(groups):
            for round_, boards in enumerate(self._table(len(members))):
                length = round_length(self.options.match_lengths, round_)
                for board, numbers in enumerate(boards):
                    top, bottom = (
                        members[number - 1] if number <= len(members) else BYE for number in numbers
                    )
                    if top is BYE:
                        top, bottom = bottom, top
                    key = PairingKey(Flight.MAIN, round_, group * slots + board)
                    pairings.append(Pairing(key, top, bottom, length))
        return build_draw(sorted(pairings, key=lambda pairing: pairing.key))

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        """Record ``results``, which must be for ready pairings; once every group match is
        decided, lay out the knockout stage."""
        results = list(results)
        ready = {pairing.key for pairing in self.ready_pairings(draw)}
        for result in results:
            if result.key not in ready and draw.pairing(result.key).winner is None:
                raise DrawInvariantError(f"{result.key} is not ready to be played")
        draw = record_results(draw, results)
        through = self.options.advance_per_group
        if through is None or draw.rounds(Flight.FINAL):
            return draw
        if any(pairing.winner is None for pairing in draw.pairings):
            return draw
        by_group = [self.standings(draw, group) for group in self.groups(draw)]
        tiers = [[rows[place].entrant for rows in by_group] for place in range(through)]
        group_of = {row.entrant: g for g, rows in enumerate(by_group) for row in rows}
        seeded = _knockout_seeds(tiers, group_of)
        lengths = self.options.knockout_match_lengths or self.options.match_lengths[-1:]
        return build_draw(draw.pairings + knockout_stage(seeded, lengths))

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        """Ready pairings whose entrants have finished every match of the rounds before."""
        due: dict[int, int] = {}
        for pairing in draw.pairings:
            if pairing.key.flight is Flight.MAIN and pairing.winner is None:
                for side in (pairing.top, pairing.bottom):
                    if isinstance(side, int):
                        due[side] = min(due.get(side, pairing.key.round), pairing.key.round)
        return tuple(
            pairing
            for pairing in draw.ready()
            if pairing.key.flight is not Flight.MAIN
            or due[entrant_of(pairing.top)] == pairing.key.round == due[entrant_of(pairing.bottom)]
        )

    def is_finished(self, draw: Draw) -> bool:
        """Every match decided, and in a truncated table no tie left that matters unless the
        organizer let the ties stand: until then the prizes wait."""
        if any(pairing.winner is None for pairing in draw.pairings):
            return False
        if self.options.rounds is not None:
            return self.options.ties_shared or not self.ties_to_break(draw)
        return self.options.advance_per_group is None or bool(draw.rounds(Flight.FINAL))

    def ties_to_break(self, draw: Draw) -> tuple[tuple[int, ...], ...]:
        """A truncated table's players tied for a place that matters once every table match
        is decided, each group in table-number order, with no stepladder among them yet;
        empty otherwise."""
        if self.options.rounds is None:
            return ()
        if any(p.winner is None for p in draw.pairings if p.key.flight is Flight.MAIN):
            return ()
        table = self.groups(draw)[0]
        places = self.options.prize_places
        if places is None:
            places = len(DEFAULT_SIT_AND_GO_TABLE.shares_for(len(table)))
        scheduled = {ladder_players(steps) for steps in ladders(draw)}
        number = {entrant: i for i, entrant in enumerate(table)}
        return tuple(
            tuple(sorted(tied, key=number.__getitem__))
            for tied in ties_that_matter(self.standings(draw, table), places)
            if frozenset(tied) not in scheduled
        )

    def with_tiebreaks(self, draw: Draw) -> Draw:
        """The draw with a stepladder of 1-point matches for each tie that matters."""
        if self.options.rounds is None:
            raise FormatError(
                gettext_noop("Only a round robin cut to fewer rounds breaks ties with a match.")
            )
        if any(p.winner is None for p in draw.pairings if p.key.flight is Flight.MAIN):
            raise FormatError(
                gettext_noop(
                    "The table is still being played: a tie-break match can be scheduled once "
                    "every table match is decided."
                )
            )
        tied = self.ties_to_break(draw)
        if not tied:
            raise FormatError(gettext_noop("No players are tied for a place that matters."))
        first = len(ladders(draw))
        added = [stepladder(group, first + i) for i, group in enumerate(tied)]
        return build_draw(draw.pairings + tuple(p for steps in added for p in steps))

    def groups(self, draw: Draw) -> tuple[tuple[int, ...], ...]:
        """Each group's entrants by their table number, read back from round 0 (Berger round 1
        reads 1-n, 2-(n-1), ..., so the tops then the bottoms reversed give 1 to n)."""
        first = draw.rounds(Flight.MAIN)[0]
        count = sum(isinstance(side, int) for p in first for side in (p.top, p.bottom))
        slots = _slots(count, self._group_count(count))
        boards: dict[int, list[Pairing]] = {}
        for pairing in first:
            boards.setdefault(pairing.key.position // slots, []).append(pairing)
        groups = []
        for _, group in sorted(boards.items()):
            group.sort(key=lambda pairing: pairing.key.position)
            numbered = [p.top for p in group] + [p.bottom for p in reversed(group)]
            groups.append(tuple(side for side in numbered if isinstance(side, int)))
        return tuple(groups)

    def standings(self, draw: Draw, group: Sequence[int]) -> tuple[StandingRow, ...]:
        """A group's (or the single table's) standings; sit-outs score nothing. A truncated
        table ranks as ``truncated.truncated_standings`` says."""
        if self.options.rounds is not None:
            return truncated_standings(draw, group)
        return standings(draw, group, tiebreaks=ROUND_ROBIN_TIEBREAKS, bye_is_a_win=False)

    @property
    def tiebreaks(self) -> tuple[Tiebreak, ...]:
        """The tiebreaks the standings show; a truncated table's are its own (none shown)."""
        return () if self.options.rounds is not None else ROUND_ROBIN_TIEBREAKS

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """See the module docstring; an unfinished draw is placed as it stands."""
        # A truncated table's ``final`` flight holds its stepladders, not a knockout stage.
        knockout = knockout_stage_placings(draw) if self.options.rounds is None else ()
        placed = {placing.entrant for placing in knockout}
        tiers: dict[int, list[int]] = {}
        for group in self.groups(draw):
            for row in self.standings(draw, group):
                if row.entrant not in placed:
                    tiers.setdefault(row.rank, []).append(row.entrant)
        by_rank = (tier for _, tier in sorted(tiers.items()))
        return (*knockout, *placings_by_group(by_rank, after=len(knockout)))

    def _table(self, count: int) -> tuple[tuple[tuple[int, int], ...], ...]:
        """The Berger table for ``count`` players, cut to ``rounds`` when it is set."""
        table = berger_table(count)
        rounds = self.options.rounds
        if rounds is None:
            return table
        if rounds > len(table):
            raise FormatError(
                gettext_noop(
                    "%(count)s players meet everyone in %(most)s rounds: the round robin cannot "
                    "play %(rounds)s. Play fewer rounds, or wait for more players."
                ),
                count=count,
                most=len(table),
                rounds=rounds,
            )
        return table[:rounds]

    def _group_count(self, entrant_count: int) -> int:
        size = self.options.group_size
        return 1 if size is None else -(-entrant_count // size)

    def _check_knockout(self, groups: Sequence[Sequence[int]]) -> None:
        through = self.options.advance_per_group
        if through is None:
            return
        smallest = min(len(group) for group in groups)
        if through >= smallest:
            raise FormatError(
                gettext_noop(
                    "%(through)s players per group go through, but the smallest group has only "
                    "%(smallest)s: fewer must go through, or the groups must be bigger."
                ),
                through=through,
                smallest=smallest,
            )
        if through * len(groups) < 2:
            raise FormatError(
                gettext_noop("The knockout needs at least 2 players: let 2 go through.")
            )


def _snake(seeds: Sequence[int], group_count: int) -> list[list[int]]:
    """Seeds dealt into groups A to Z, then Z to A, and so on."""
    groups: list[list[int]] = [[] for _ in range(group_count)]
    for i, entrant in enumerate(seeds):
        row, column = divmod(i, group_count)
        groups[column if row % 2 == 0 else group_count - 1 - column].append(entrant)
    return groups


def _slots(entrant_count: int, group_count: int) -> int:
    """The most boards any group plays in a round: half its largest group, rounded up."""
    largest = -(-entrant_count // group_count)
    return (largest + 1) // 2


def _knockout_seeds(tiers: Sequence[Sequence[int]], group_of: Mapping[int, int]) -> list[int]:
    """The knockout's seeds, tier by tier (group winners, then runners-up, ...).

    Each seed's line, in seed order, goes to the entrant of the tier who would meet a group-mate
    already placed there as late as possible; on a tie, the earlier group. Two lines of the
    standard order meet in the round given by the highest bit in which they differ.
    """
    size = bracket_size(sum(len(tier) for tier in tiers))
    line_of_seed = {seed: line for line, seed in enumerate(standard_order(size))}
    line_of: dict[int, int] = {}
    seeds: list[int] = []
    for tier in tiers:
        waiting = list(tier)
        while waiting:
            line = line_of_seed[len(seeds) + 1]

            def meets_a_group_mate(entrant: int, line: int = line) -> int:
                return min(
                    (
                        (line ^ placed_line).bit_length()
                        for placed, placed_line in line_of.items()
                        if group_of[placed] == group_of[entrant]
                    ),
                    default=size,
                )

            chosen = max(waiting, key=meets_a_group_mate)
            waiting.remove(chosen)
            seeds.append(chosen)
            line_of[chosen] = line
    return seeds
