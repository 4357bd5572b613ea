"""Pieces Swiss and round-robin play share: Berger tables (a round robin's), round lengths,
and the knockout stage that may follow them (a Swiss's top cut, a round robin's best of each
group)."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.base import Draw, Flight, Pairing, Placing, placings_by_group
from tournaments.formats.knockout import (
    bracket_pairings,
    bracket_size,
    lengths_by_round,
    seeds_from_first_round,
)


def berger_table(count: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The Berger table for ``count`` players: every round's boards as pairs of numbers.

    As published in the FIDE Handbook, C.05 Annex 1 ("Berger Tables for Round-Robin
    Tournaments"), after Johann Berger: numbers 1 to n (n = ``count`` rounded up to even; in an
    odd field n is the bye), n - 1 rounds. In round r (from 1) the numbers 1..n-1 meeting each
    other add up to r + 1 modulo n - 1, and the one left over meets n. Round 1 reads 1-n, 2-(n-1),
    ...; for six, round 2 reads 6-4, 5-3, 1-2. Round robins play the whole table.
    """
    size = count + count % 2
    turning = size - 1
    rounds = []
    for round_ in range(1, size):
        # The number that meets n: 2x = r + 1 modulo n - 1, and n/2 is the inverse of 2 there.
        facing_last = (round_ + 1) * (size // 2) % turning or turning
        boards = [(facing_last, size) if round_ % 2 else (size, facing_last)]
        for step in range(1, size // 2):
            up = (facing_last + step - 1) % turning + 1
            down = (facing_last - step - 1) % turning + 1
            boards.append((up, down))
        rounds.append(tuple(boards))
    return tuple(rounds)


def round_length(match_lengths: Sequence[int], round_: int) -> int:
    """The match length of a round counted from the first; the last length repeats."""
    return match_lengths[min(round_, len(match_lengths) - 1)]


def knockout_stage(seeded: Sequence[int], match_lengths: Sequence[int]) -> tuple[Pairing, ...]:
    """A knockout among ``seeded`` (best first) in the ``final`` flight, laid out as
    ``Knockout`` lays out its bracket: standard order, byes to the top seeds."""
    rounds = bracket_size(len(seeded)).bit_length() - 1
    lengths = lengths_by_round(match_lengths, rounds)
    return tuple(bracket_pairings(Flight.FINAL, seeded, lengths))


def knockout_stage_placings(draw: Draw) -> tuple[Placing, ...]:
    """The knockout stage's places, none before it is laid out: those still in (or the
    champion) first, then the losers of each round from the last, sharing places, each group
    in the order the stage was seeded."""
    rounds = draw.rounds(Flight.FINAL)
    if not rounds:
        return ()
    seed = seeds_from_first_round(rounds[0])
    losers_by_round: list[list[int]] = [[] for _ in rounds]
    out: set[int] = set()
    for round_, pairings in enumerate(rounds):
        for pairing in pairings:
            if isinstance(pairing.loser, int):
                losers_by_round[round_].append(pairing.loser)
                out.add(pairing.loser)
    groups = [[entrant for entrant in seed if entrant not in out]]
    groups.extend(reversed(losers_by_round))
    return placings_by_group(sorted(group, key=seed.__getitem__) for group in groups)
