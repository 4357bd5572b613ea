"""Knockout: single elimination, where one lost match ends an entrant's tournament.

Terms:

- **Bracket size**: the smallest power of two that holds every entrant (13 entrants play in a
  bracket of 16). The empty lines of the bracket are **byes**.
- **Seed**: an entrant's rank going in, 1 being the strongest. Seeds come from the organizer's
  hand-set seeds first; the rest follow by rating (``Seeding.RATING``) or by a random draw
  (``Seeding.RANDOM``). Equal ratings are ordered by the random draw.
- **Standard order**: the order of seeds down the bracket in which each first-round pairing
  sums to bracket size + 1 (1 v 16, 8 v 9, 5 v 12, 4 v 13, ...), and every later round too
  when favourites win, so seeds 1 and 2 can meet only in the final and seeds 1 to 4 only from
  the semi-finals on. Byes take the seeds beyond the number of entrants, so they face the top
  seeds and never each other.
- **Match lengths**: points to play in each round. The organizer lists them first round to
  final, e.g. ``(5, 5, 7, 9)``. The number of rounds is known only when entries close, so the
  list is read from the final backwards: a bigger field repeats the first length for its extra
  early rounds, a smaller one drops the early lengths. The final always gets the last length.
- **Placings**: the champion is 1st, the runner-up 2nd, the losing semi-finalists share 3rd-4th,
  the losing quarter-finalists 5th-8th, and so on. Within a shared place, an entrant beaten by
  someone who went further is listed first.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

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
    WinnerOf,
    build_draw,
    check_match_lengths,
    gettext_noop,
    placings_by_group,
    play_out,
    record_results,
)


class Seeding(StrEnum):
    """How entrants without a hand-set seed are ranked before the draw."""

    RATING = "rating"
    RANDOM = "random"


@dataclass(frozen=True)
class KnockoutOptions:
    """What the organizer chooses: match lengths, first round to final, and the seeding."""

    match_lengths: tuple[int, ...]
    seeding: Seeding = Seeding.RATING


def bracket_size(entrant_count: int) -> int:
    """The smallest power of two holding ``entrant_count`` entrants."""
    if entrant_count < 2:
        raise FormatError(
            gettext_noop("A knockout needs at least 2 entrants; it has %(count)s."),
            count=entrant_count,
        )
    return 1 << (entrant_count - 1).bit_length()


def standard_order(size: int) -> tuple[int, ...]:
    """Seeds 1..size down the bracket lines; lines 2k and 2k+1 meet in the first round."""
    if size < 2 or size & (size - 1):
        raise DrawInvariantError(f"A bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        lines = 2 * len(order) + 1
        doubled: list[int] = []
        for i, seed in enumerate(order):
            pair = [seed, lines - seed]
            doubled.extend(pair if i % 2 == 0 else reversed(pair))
        order = doubled
    for line in range(0, size, 2):
        if order[line] > order[line + 1]:
            order[line], order[line + 1] = order[line + 1], order[line]
    return tuple(order)


def seed_order(
    entrants: Sequence[Entrant], seeding: Seeding, rng: random.Random
) -> tuple[Entrant, ...]:
    """The entrants ranked: index 0 is seed 1.

    Hand-set seeds keep their number; the others fill the free numbers in rating order or in
    random order. The random draw starts from the entrants sorted by id, so the same ``rng``
    state gives the same draw whatever order the entrants arrive in.
    """
    count = len(entrants)
    by_seed: dict[int, Entrant] = {}
    for entrant in entrants:
        if entrant.seed is None:
            continue
        if not 1 <= entrant.seed <= count:
            raise FormatError(
                f"Seed {entrant.seed} is out of range: with {count} entrants, "
                f"seeds run from 1 to {count}."
            )
        if entrant.seed in by_seed:
            raise FormatError(f"Seed {entrant.seed} is given to two entrants.")
        by_seed[entrant.seed] = entrant
    unseeded = sorted((e for e in entrants if e.seed is None), key=lambda e: e.id)
    rng.shuffle(unseeded)
    if seeding is Seeding.RATING:
        unseeded.sort(key=lambda e: -e.rating)
    rest = iter(unseeded)
    return tuple(by_seed[seed] if seed in by_seed else next(rest) for seed in range(1, count + 1))


def lengths_by_round(match_lengths: Sequence[int], rounds: int) -> tuple[int, ...]:
    """One match length per round, aligned on the final (see the module docstring)."""
    if rounds <= len(match_lengths):
        return tuple(match_lengths[len(match_lengths) - rounds :])
    return (match_lengths[0],) * (rounds - len(match_lengths)) + tuple(match_lengths)


def bracket_pairings(
    flight: Flight, seeded: Sequence[int], lengths: Sequence[int]
) -> list[Pairing]:
    """A knockout bracket in ``flight`` among ``seeded`` (entrant ids, seed 1 first), round by
    round: the first round in standard order with byes to the top seeds, each later pairing
    fed by the winners of two before it; ``lengths`` has one match length per round."""
    size = bracket_size(len(seeded))
    if len(lengths) != size.bit_length() - 1:
        raise DrawInvariantError(f"A bracket of {size} lines has {size.bit_length() - 1} rounds")

    def line(seed: int) -> Side:
        return seeded[seed - 1] if seed <= len(seeded) else BYE

    order = standard_order(size)
    pairings = [
        Pairing(
            PairingKey(flight, 0, position),
            line(order[2 * position]),
            line(order[2 * position + 1]),
            lengths[0],
        )
        for position in range(size // 2)
    ]
    for round_ in range(1, len(lengths)):
        for position in range(size >> (round_ + 1)):
            pairings.append(
                Pairing(
                    PairingKey(flight, round_, position),
                    WinnerOf(PairingKey(flight, round_ - 1, 2 * position)),
                    WinnerOf(PairingKey(flight, round_ - 1, 2 * position + 1)),
                    lengths[round_],
                )
            )
    return pairings


def seeds_from_first_round(first_round: Sequence[Pairing]) -> dict[int, int]:
    """Each entrant's seed, read back from a bracket's first round in standard order."""
    order = standard_order(2 * len(first_round))
    seeds: dict[int, int] = {}
    for pairing in first_round:
        for line, side in enumerate((pairing.top, pairing.bottom), start=2 * pairing.key.position):
            if isinstance(side, int):
                seeds[side] = order[line]
    return seeds


@dataclass(frozen=True)
class Knockout:
    """Single elimination, seeded in standard order with byes to the top seeds."""

    options: KnockoutOptions

    def __post_init__(self) -> None:
        if not self.options.match_lengths:
            raise FormatError(
                gettext_noop("Give at least one match length: the length of the final.")
            )
        check_match_lengths(self.options.match_lengths)

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        size = bracket_size(len(entrants))
        if len({entrant.id for entrant in entrants}) != len(entrants):
            raise DrawInvariantError("An entrant is registered twice")
        seeded = seed_order(entrants, self.options.seeding, rng)
        lengths = lengths_by_round(self.options.match_lengths, size.bit_length() - 1)
        pairings = bracket_pairings(Flight.MAIN, [entrant.id for entrant in seeded], lengths)
        return build_draw(pairings)

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        return record_results(draw, results)

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        return draw.ready()

    def is_finished(self, draw: Draw) -> bool:
        return draw.pairings[-1].winner is not None

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """Where everyone stands; entrants still in share the top places of an unfinished draw."""
        return knockout_placings(draw)


def knockout_placings(draw: Draw) -> tuple[Placing, ...]:
    rounds = draw.rounds(Flight.MAIN)
    line_of: dict[int, int] = {}
    for pairing in rounds[0]:
        for side in (pairing.top, pairing.bottom):
            if isinstance(side, int):
                line_of[side] = len(line_of)
    exit_round: dict[int, int] = {}
    beaten_by: dict[int, int] = {}
    losers_by_round: list[list[int]] = [[] for _ in rounds]
    for round_, pairings in enumerate(rounds):
        for pairing in pairings:
            loser = pairing.loser
            if isinstance(loser, int):
                assert pairing.winner is not None
                exit_round[loser] = round_
                beaten_by[loser] = pairing.winner
                losers_by_round[round_].append(loser)
    still_in = len(rounds)

    def went_further(entrant: int) -> tuple[int, int]:
        conqueror_exit = exit_round.get(beaten_by[entrant], still_in)
        return (-conqueror_exit, line_of[entrant])

    groups = [[entrant for entrant in line_of if entrant not in exit_round]]
    groups.extend(sorted(losers, key=went_further) for losers in reversed(losers_by_round))
    return placings_by_group(groups)


def simulate_knockout(
    entrant_count: int, rng: random.Random, *, match_lengths: tuple[int, ...] = (7,)
) -> Draw:
    """A knockout of ``entrant_count`` rated entrants, drawn and played to the end at random.

    The benchmarks time this to follow the cost of drawing and advancing big brackets.
    """
    entrants = [Entrant(id_, rating=1500 + 500 * rng.random()) for id_ in range(entrant_count)]
    knockout = Knockout(KnockoutOptions(match_lengths))

    def coin_flip(pairing: Pairing) -> int:
        winner = pairing.top if rng.random() < 0.5 else pairing.bottom
        assert isinstance(winner, int)
        return winner

    return play_out(knockout, knockout.initial_draw(entrants, rng), coin_flip)
