"""One-loss flights laid out round by round: the building blocks of the side flights.

Terms (with those of ``base`` and ``side_flights``): a **wave** is the players knocked out of
a feeding flight in one of its rounds, one side per position of that round; **progressive
entry** (``progressive_flight``) starts a flight from its first wave and drops each later one
in as soon as the flight's survivors are as many. A pairing both of whose sides would be byes
is not laid out and its place in the next round is a bye, so no pairing holds two byes and
keys keep their bracket positions. **Positions** of a round: the places it has, laid out or
not (a wave of its losers has one side per position).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from tournaments.formats.base import (
    BYE,
    Draw,
    DrawInvariantError,
    Flight,
    LoserOf,
    Pairing,
    PairingKey,
    Placing,
    Side,
    WinnerOf,
    placings_by_group,
)
from tournaments.formats.double_elimination import drop_mask


def waves(pairings: Iterable[Pairing], positions_by_round: Sequence[int]) -> list[list[Side]]:
    """The losers of the first rounds of one flight's ``pairings``, one side per position (as
    many rounds as ``positions_by_round`` counts): ``LoserOf`` the pairing, or a bye where it
    is not laid out or is itself a bye."""
    laid_out = {(pairing.key.round, pairing.key.position): pairing for pairing in pairings}
    found: list[list[Side]] = []
    for round_, positions in enumerate(positions_by_round):
        wave: list[Side] = []
        for position in range(positions):
            pairing = laid_out.get((round_, position))
            wave.append(BYE if pairing is None or pairing.is_bye else LoserOf(pairing.key))
        found.append(wave)
    return found


def real_sides(sides: Sequence[Sequence[Side]]) -> int:
    """How many of ``sides`` (waves) will hold a player."""
    return sum(side is not BYE for wave in sides for side in wave)


def progressive_flight(
    flight: Flight, entering: Sequence[Sequence[Side]]
) -> tuple[list[Pairing], list[int]]:
    """A one-loss flight entered in waves (progressive entry), lengths still 0, and the
    positions of each of its rounds.

    The first wave stands as the survivors: a knockout's pairs off before main round 1's
    losers drop in, while a double elimination's meets the second wave at once, both waves
    having as many players as losers' round 0 has positions.
    """
    pairings: list[Pairing] = []
    positions: list[int] = []
    survivors = list(entering[0])
    for number, wave in enumerate(entering[1:], start=1):
        while len(survivors) > len(wave):
            survivors = pair_off(flight, pairings, survivors, positions)
        survivors = _drop_in(flight, pairings, survivors, wave, number, positions)
    while len(survivors) > 1:
        survivors = pair_off(flight, pairings, survivors, positions)
    return pairings, positions


def pair_off(
    flight: Flight,
    pairings: list[Pairing],
    sides: Sequence[Side],
    positions: list[int] | None = None,
) -> list[Side]:
    """The next round of ``flight``: sides 2q and 2q + 1 meet at position q."""
    pairs = [(sides[2 * q], sides[2 * q + 1]) for q in range(len(sides) // 2)]
    return _lay_out_round(flight, pairings, pairs, positions)


def _drop_in(
    flight: Flight,
    pairings: list[Pairing],
    survivors: Sequence[Side],
    wave: Sequence[Side],
    drop_round: int,
    positions: list[int],
) -> list[Side]:
    """A round in which each survivor meets a drop-in from ``wave``, shifted."""
    if len(survivors) != len(wave):
        raise DrawInvariantError(f"{len(wave)} players drop in on {len(survivors)} survivors")
    mask = drop_mask(drop_round, len(wave).bit_length() - 1)
    pairs = [(survivor, wave[q ^ mask]) for q, survivor in enumerate(survivors)]
    return _lay_out_round(flight, pairings, pairs, positions)


def _lay_out_round(
    flight: Flight,
    pairings: list[Pairing],
    pairs: Sequence[tuple[Side, Side]],
    positions: list[int] | None,
) -> list[Side]:
    """Lay out one round after the pairings already in ``flight``; the sides moving on."""
    round_ = 1 + max((p.key.round for p in pairings if p.key.flight is flight), default=-1)
    if positions is not None:
        positions.append(len(pairs))
    moving_on: list[Side] = []
    for position, (top, bottom) in enumerate(pairs):
        if top is BYE and bottom is BYE:
            moving_on.append(BYE)
            continue
        key = PairingKey(flight, round_, position)
        pairings.append(Pairing(key, top, bottom, 0))
        moving_on.append(WinnerOf(key))
    return moving_on


def single_loss_placings(draw: Draw, flight: Flight) -> tuple[Placing, ...]:
    """Placings of a flight where one loss puts a player out, by the round each entrant last
    went out of it: those still in first, then later rounds' losers before earlier ones."""
    last: dict[int, Pairing] = {}
    for pairing in draw.pairings:
        if pairing.key.flight is not flight:
            continue
        for side in (pairing.top, pairing.bottom):
            if isinstance(side, int) and (
                side not in last or last[side].key.round < pairing.key.round
            ):
                last[side] = pairing

    def went_out(entrant: int) -> bool:
        return last[entrant].winner not in (None, entrant)

    def by_exit(entrant: int) -> tuple[int, int]:
        return (-last[entrant].key.round, last[entrant].key.position)

    groups = [sorted((e for e in last if not went_out(e)), key=by_exit)]
    out = sorted((e for e in last if went_out(e)), key=by_exit)
    groups.extend(
        list(group) for _, group in itertools.groupby(out, key=lambda e: last[e].key.round)
    )
    return placings_by_group(groups)
