"""The last chance: who it takes, how they are drawn into it, and where its winner comes back.

Terms (with those of ``base``, ``one_loss`` and ``side_flights``, whose docstring says how the
flights fit together):

- **Re-entry** (``last_chance_reenters_at`` = P, a power of two): beside a knockout, the
  last chance's winner comes back into the main flight in its round of P players, on a line
  kept for them (**reserved section**, see ``side_flights``). Beside a double elimination it
  comes back into the losers' flight after the losers' final, in a **re-entry match** (losers'
  round 2k - 2, k the winners' rounds) against the losers' flight champion, whose winner plays
  the grand final.
- **Feeders**: the pairings whose losers the last chance takes. Beside a knockout, main
  rounds 0 .. R-1: everyone knocked out before its winner re-enters. Beside a double
  elimination, the losers' rounds of more than P players (a round of n positions has 2n):
  the players knocked out, at their second loss, while more than P were left in the losers'
  flight. A feeder that is a bye (or will be one, a side left empty by the byes) has no
  loser.
- **Entry** (``LastChanceEntry``): ``progressive``, the players drop in round by round as
  their feeders are decided (``one_loss.progressive_flight``); ``fresh``, a **fresh draw**:
  once every feeder is decided, their losers are drawn at random into a knockout bracket of
  their own (standard order, byes on the first lines drawn) and play it. The draw is shuffled
  by a generator seeded with the tournament's ``draw_seed`` and the players drawn, so playing
  the same results again (a bracket correction's replay) draws the same bracket. Until then
  the last chance is not laid out: the side its winner will take, and a consolation's sides
  that wait on its losers, wait on pairings to come (``base``'s only such sides). Who is drawn
  is known at the start only in number, so the bracket's size, its byes and its final are.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats.base import (
    BYE,
    Draw,
    DrawInvariantError,
    Entrant,
    Flight,
    FormatError,
    LoserOf,
    Pairing,
    PairingKey,
    Placing,
    Side,
    WinnerOf,
    build_draw,
    gettext_noop,
    placings_by_group,
)
from tournaments.formats.double_elimination import GRAND_FINAL, DoubleElimination
from tournaments.formats.knockout import (
    Knockout,
    bracket_pairings,
    bracket_size,
    lengths_by_round,
    seed_order,
    seeds_from_first_round,
    standard_order,
)
from tournaments.formats.one_loss import pair_off, progressive_flight, real_sides, waves


class LastChanceEntry(StrEnum):
    """How players enter the last chance (see the module docstring)."""

    PROGRESSIVE = "progressive"
    FRESH = "fresh"


@dataclass(frozen=True)
class LastChanceLayout:
    """The main flights laid out with a last chance beside them: ``pairings`` (the main
    flights' with their lengths; a progressive last chance's, lengths still 0) and the last
    chance's losers round by round, as a consolation it feeds takes them."""

    pairings: list[Pairing]
    loser_waves: list[list[Side]]


def knockout_with_last_chance(
    main: Knockout,
    entrants: Sequence[Entrant],
    reenters_at: int,
    entry: LastChanceEntry,
    rng: random.Random,
) -> LastChanceLayout:
    """The main flight with its reserved section, and the last chance that fills it."""
    if len(entrants) < reenters_at + 1:
        raise FormatError(
            gettext_noop(
                "A last chance whose winner re-enters the main flight with %(left)s "
                "players left needs at least %(least)s entrants, so that two can lose "
                "before then; it has %(count)s."
            ),
            left=reenters_at,
            least=reenters_at + 1,
            count=len(entrants),
        )
    if len({entrant.id for entrant in entrants}) != len(entrants):
        raise DrawInvariantError("An entrant is registered twice")
    seeded = seed_order(entrants, main.options.seeding, rng)
    section = 1
    while (reenters_at - 1) * section < len(seeded):
        section *= 2
    size = reenters_at * section
    order = standard_order(size)
    free = sorted(
        (line for line in range(size) if not section <= line < 2 * section),
        key=order.__getitem__,
    )
    lines: list[Side] = [BYE] * size
    for entrant, line in zip(seeded, free[: len(seeded)], strict=True):
        lines[line] = entrant.id

    main_pairings: list[Pairing] = []
    survivors = lines
    while len(survivors) > reenters_at:
        survivors = pair_off(Flight.MAIN, main_pairings, survivors)
    reentry_round = section.bit_length() - 1
    positions = [size >> (round_ + 1) for round_ in range(reentry_round)]
    last_chance, final, loser_waves = _last_chance(entry, waves(main_pairings, positions))
    survivors[1] = WinnerOf(final)
    while len(survivors) > 1:
        survivors = pair_off(Flight.MAIN, main_pairings, survivors)

    main_lengths = lengths_by_round(main.options.match_lengths, size.bit_length() - 1)
    main_pairings = [
        Pairing(p.key, p.top, p.bottom, main_lengths[p.key.round]) for p in main_pairings
    ]
    return LastChanceLayout([*main_pairings, *last_chance], loser_waves)


def double_with_last_chance(
    main: DoubleElimination,
    entrants: Sequence[Entrant],
    reenters_at: int,
    entry: LastChanceEntry,
    rng: random.Random,
) -> LastChanceLayout:
    """The double elimination with its re-entry match, and the last chance that feeds it."""
    main_draw = main.initial_draw(entrants, rng)
    winners_rounds = len(main_draw.rounds(Flight.MAIN))
    positions = losers_positions(winners_rounds)
    fed_by = [n for n in positions if 2 * n > reenters_at]
    losers = [p for p in main_draw.pairings if p.key.flight is Flight.LOSERS]
    feeding = waves(losers, fed_by)
    if len(fed_by) < 1 or real_sides(feeding) < 2:
        raise FormatError(
            gettext_noop(
                "A last chance beside a double elimination takes those knocked out while more "
                "than %(left)s players are left in the losers' flight; with %(count)s "
                "entrants fewer than two are, so it needs more entrants or a smaller number."
            ),
            left=reenters_at,
            count=len(entrants),
        )
    last_chance, final, loser_waves = _last_chance(entry, feeding)
    losers_final = main_draw.rounds(Flight.LOSERS)[-1][0]
    reentry = Pairing(
        PairingKey(Flight.LOSERS, len(positions), 0),
        WinnerOf(losers_final.key),
        WinnerOf(final),
        losers_final.match_length,
    )
    pairings = [
        Pairing(p.key, p.top, WinnerOf(reentry.key), p.match_length) if p.key == GRAND_FINAL else p
        for p in main_draw.pairings
    ]
    return LastChanceLayout([*pairings, reentry, *last_chance], loser_waves)


def losers_positions(winners_rounds: int) -> list[int]:
    """The positions of each losers' round of a double elimination of ``winners_rounds``
    (k) winners' rounds: 2^(k-2) in round 0, then each drop round as many as the round
    before it, each survivor round half."""
    positions = [1 << (winners_rounds - 2)]
    for winners_round in range(1, winners_rounds):
        positions.append(1 << (winners_rounds - winners_round - 1))
        if winners_round < winners_rounds - 1:
            positions.append(1 << (winners_rounds - winners_round - 2))
    return positions


def _last_chance(
    entry: LastChanceEntry, feeding: list[list[Side]]
) -> tuple[list[Pairing], PairingKey, list[list[Side]]]:
    """The last chance's pairings laid out now (none for a fresh draw), its final's key and
    its losers by round."""
    if entry is LastChanceEntry.PROGRESSIVE:
        pairings, positions = progressive_flight(Flight.LAST_CHANCE, feeding)
        return pairings, pairings[-1].key, waves(pairings, positions)
    drawn = real_sides(feeding)
    size = bracket_size(drawn)
    order = standard_order(size)
    first: list[Side] = [
        BYE if order[2 * q + 1] > drawn else LoserOf(PairingKey(Flight.LAST_CHANCE, 0, q))
        for q in range(size // 2)
    ]
    later: list[list[Side]] = [
        [LoserOf(PairingKey(Flight.LAST_CHANCE, round_, q)) for q in range(size >> (round_ + 1))]
        for round_ in range(1, size.bit_length() - 1)
    ]
    final = PairingKey(Flight.LAST_CHANCE, size.bit_length() - 2, 0)
    return [], final, [first, *later]


def draw_last_chance(
    draw: Draw, *, reenters_at: int, lengths: Sequence[int], draw_seed: int
) -> Draw:
    """``draw`` with its fresh last chance drawn, once every feeder is decided; as it is
    before then, or when the last chance is already laid out."""
    if any(pairing.key.flight is Flight.LAST_CHANCE for pairing in draw.pairings):
        return draw
    reentry = _reentry(draw)
    if reentry is None:
        return draw
    feeders = _feeders(draw, reentry.key, reenters_at)
    if any(pairing.winner is None for pairing in feeders):
        return draw
    drawn = sorted(loser for p in feeders if isinstance(loser := p.loser, int))
    random.Random(f"{draw_seed}:{','.join(map(str, drawn))}").shuffle(drawn)
    rounds = bracket_size(len(drawn)).bit_length() - 1
    last_chance = bracket_pairings(Flight.LAST_CHANCE, drawn, lengths_by_round(lengths, rounds))
    final = WinnerOf(last_chance[-1].key)
    if final not in (draw.source(reentry.key, "top"), draw.source(reentry.key, "bottom")):
        raise DrawInvariantError(f"{reentry.key} waits on another last chance than was drawn")
    return build_draw([*draw.pairings, *last_chance])


def _reentry(draw: Draw) -> Pairing | None:
    """The pairing the last chance's winner re-enters, as laid out."""
    for pairing in draw.pairings:
        if pairing.key.flight is Flight.LAST_CHANCE:
            continue
        for side in ("top", "bottom"):
            source = draw.source(pairing.key, side)
            if isinstance(source, WinnerOf) and source.key.flight is Flight.LAST_CHANCE:
                return pairing
    return None


def _feeders(draw: Draw, reentry: PairingKey, reenters_at: int) -> list[Pairing]:
    if reentry.flight is Flight.MAIN:
        return [p for round_ in draw.rounds(Flight.MAIN)[: reentry.round] for p in round_]
    positions = losers_positions(len(draw.rounds(Flight.MAIN)))
    fed_by = sum(1 for n in positions if 2 * n > reenters_at)
    return [p for round_ in draw.rounds(Flight.LOSERS)[:fed_by] for p in round_]


def feeder_keys(draw: Draw, reenters_at: int) -> set[PairingKey]:
    """The keys of the pairings whose losers the last chance takes."""
    reentry = _reentry(draw)
    if reentry is None:
        return set()
    return {p.key for p in _feeders(draw, reentry.key, reenters_at)}


def double_placings_with_reentry(draw: Draw, *, finished: bool) -> tuple[Placing, ...]:
    """A double elimination's placings (``double_elimination``'s) when a last chance's
    winner re-enters its losers' flight: placed by how far they got after re-entering."""
    seed_of = seeds_from_first_round(draw.rounds(Flight.MAIN)[0])
    by_seed = seed_of.__getitem__
    knocked_out: list[list[int]] = []
    if finished:
        for final in reversed(draw.rounds(Flight.FINAL)):
            if isinstance(runner_up := final[0].loser, int):
                knocked_out.append([runner_up])
                break
    losers_rounds = draw.rounds(Flight.LOSERS)
    reentry = losers_rounds[-1][0]
    reentered = reentry.bottom if isinstance(reentry.bottom, int) else None
    for number, losers_round in reversed(list(enumerate(losers_rounds))):
        losers = [pairing.loser for pairing in losers_round]
        knocked_out.append(
            sorted(
                (
                    loser
                    for loser in losers
                    if isinstance(loser, int)
                    and not (loser == reentered and number < reentry.key.round)
                ),
                key=by_seed,
            )
        )
    out = {entrant for group in knocked_out for entrant in group}
    still_in = sorted((entrant for entrant in seed_of if entrant not in out), key=by_seed)
    return placings_by_group([still_in, *knocked_out])
