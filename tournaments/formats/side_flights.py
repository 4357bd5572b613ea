"""Side flights: the consolation and the last chance that live events run beside the main draw.

Club events often run "main / consolation / last chance": players knocked out early play on,
for prizes of their own, in flights beside the main one. Terms (with those of ``base``,
``knockout`` and ``double_elimination``):

- **Side flight**: a consolation or a last chance, a one-loss knockout with its own champion
  and its own placings. Players enter it only once they are out of the event it is fed by, so
  nobody is ever in two undecided pairings at once.
- **Wave**: the players knocked out of the feeding flight in one of its rounds, one side per
  position of that round; a bye where that pairing has no loser (it was a bye) or was never
  laid out.
- **Progressive entry**: a side flight starts from its first wave. Each later wave **drops in**
  as soon as the flight's survivors are as many as the wave: one drop-in against each
  survivor, shifted by ``double_elimination.drop_mask`` so a drop-in does not at once meet a
  player they knocked out themselves a round earlier. Until then the survivors pair off two by
  two in bracket order; after the last wave they play on to the flight's final. A pairing both
  of whose sides would be byes is not laid out and its place in the next round is a bye, so no
  pairing holds two byes and keys keep their bracket positions.
- **Consolation** (``Flight.CONSOLATION``, ``consolation_through_round`` = c, counted from 0):

  - beside a knockout, the waves are the losers of main rounds 0 .. c. Consolation round 0
    pairs the losers of main pairings 2q and 2q + 1; the losers of main round r (r >= 1) drop
    in at consolation round 2r - 1, and consolation round 2r pairs off the survivors.
  - beside a double elimination, the waves are the players knocked out, at their second loss,
    in losers' rounds 0 .. c: the first two waves meet in consolation round 0 (both hold as
    many players as losers' round 0 has positions), and later ones drop in as above. A first
    loss is not the end of a double-elimination player's event, and the club format's
    consolation is for players whose main event is over; feeding it first losses would put a
    player in the losers' flight and the consolation at once.

  A c beyond the last round before the feeding flight's final (the main final, or the losers'
  final) is read as that round, since the organizer chooses c before the field is known; a
  field in which fewer than two players can enter has no consolation.
- **Last chance** (``Flight.LAST_CHANCE``, ``last_chance_reenters_at`` = P, a power of two):
  beside a knockout only (a double elimination is its own second chance). Its winner re-enters
  the main flight in the round that has P players (2: the final, 4: the semi-finals). The main
  bracket is P sections of 2^R lines, R the smallest number with (P - 1) * 2^R >= entrants.
  Section 1 (lines 2^R .. 2^(R+1) - 1, next to seed 1's) is **reserved**: none of its pairings
  in main rounds 0 .. R-1 is laid out, and the bottom side of main round R, position 0 is
  ``WinnerOf`` the last-chance final, so the re-entering player is the lowest seed of that
  round and meets the winner of seed 1's section. Entrants fill the other lines by standard
  order, byes the rest (to the top seeds; every pairing keeps an entrant). The last chance is
  fed, progressively, by the losers of main rounds 0 .. R-1: everyone knocked out before its
  winner re-enters. It needs two such players, so at least P + 1 entrants.
- **Match lengths**: ``round_lengths`` may give each side flight its own, first round to
  final, read from the final backwards; a side flight without them takes the main flight's.
- **Placings**: the main places are the main format's (with a last chance, by the round each
  entrant last went out of the main flight: its winner, re-entered, is placed by how far they
  then got). Each side flight has its own list (``WithSideFlights.flight_placings``): its
  champion 1st, its finalist 2nd, then those knocked out in each earlier round sharing a place
  range, later rounds first. Players still in share the top places of an unfinished flight;
  players not yet entered are not listed.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

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
    Result,
    Side,
    WinnerOf,
    build_draw,
    check_match_lengths,
    gettext_noop,
    placings_by_group,
)
from tournaments.formats.double_elimination import DoubleElimination, drop_mask
from tournaments.formats.knockout import (
    Knockout,
    lengths_by_round,
    seed_order,
    standard_order,
)

SIDE_FLIGHT_NAMES = {Flight.CONSOLATION: "consolation", Flight.LAST_CHANCE: "last chance"}


@dataclass(frozen=True)
class SideFlightOptions:
    """The organizer's choices: which main rounds' losers the consolation takes (through
    ``consolation_through_round``, from 0), or the number of main players left when the last
    chance winner re-enters; and match lengths per side flight."""

    consolation_through_round: int | None = None
    last_chance_reenters_at: int | None = None
    round_lengths: Mapping[Flight, tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class WithSideFlights:
    """A knockout or double elimination with a consolation or a last chance beside it."""

    main: Knockout | DoubleElimination
    options: SideFlightOptions

    def __post_init__(self) -> None:
        through = self.options.consolation_through_round
        reenters_at = self.options.last_chance_reenters_at
        if through is None and reenters_at is None:
            raise FormatError(
                gettext_noop("Choose a consolation or a last chance to run beside the main draw.")
            )
        if through is not None and reenters_at is not None:
            raise FormatError(
                gettext_noop(
                    "A player knocked out early can play the consolation or the last chance, "
                    "not both: choose one."
                )
            )
        if through is not None and through < 0:
            raise FormatError(
                gettext_noop(
                    "The consolation takes the losers of the first round on; round %(round)s "
                    "does not exist."
                ),
                round=through + 1,
            )
        if reenters_at is not None:
            if isinstance(self.main, DoubleElimination):
                raise FormatError(
                    gettext_noop(
                        "A last chance re-enters a knockout; a double elimination already gives "
                        "every player a second chance."
                    )
                )
            if reenters_at < 2 or reenters_at & (reenters_at - 1):
                raise FormatError(
                    gettext_noop(
                        "The last chance winner re-enters a round of 2, 4, 8, ... players, "
                        "not %(left)s."
                    ),
                    left=reenters_at,
                )
        for flight, lengths in self.options.round_lengths.items():
            if flight not in SIDE_FLIGHT_NAMES:
                raise FormatError(
                    "Give match lengths here for the consolation or the last chance only; "
                    f"the {flight.value.replace('_', ' ')} flight takes the main format's."
                )
            check_match_lengths(lengths, required_for=f"the {SIDE_FLIGHT_NAMES[flight]}")

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        reenters_at = self.options.last_chance_reenters_at
        if reenters_at is not None:
            assert isinstance(self.main, Knockout)  # checked in __post_init__
            return build_draw(self._main_and_last_chance(self.main, entrants, reenters_at, rng))
        main_draw = self.main.initial_draw(entrants, rng)
        consolation = self._consolation(main_draw)
        if not consolation:
            return main_draw
        # The main pairings are already laid out with their byes advanced; the consolation's
        # sides wait only on undecided pairings, so building again moves nothing twice.
        return build_draw([*main_draw.pairings, *consolation])

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        return self.main.advance(draw, results)

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        return draw.ready()

    def is_finished(self, draw: Draw) -> bool:
        """Every flight has crowned its champion (the main format's last pairing is no longer
        the draw's last)."""
        return all(pairing.winner is not None for pairing in draw.pairings)

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """The main places; entrants still in share the top places of an unfinished draw."""
        if self.options.last_chance_reenters_at is not None:
            return single_loss_placings(draw, Flight.MAIN)
        return self.main.placings(draw)

    def flight_placings(self, draw: Draw, flight: Flight) -> tuple[Placing, ...]:
        """The places of one prize flight: the main one, or a side flight (empty when this
        field had no players for it)."""
        if flight is Flight.MAIN:
            return self.placings(draw)
        if flight not in SIDE_FLIGHT_NAMES:
            raise DrawInvariantError(f"The {flight} flight has no placings of its own")
        return single_loss_placings(draw, flight)

    def _consolation(self, main_draw: Draw) -> list[Pairing]:
        through = self.options.consolation_through_round
        assert through is not None
        feeding = Flight.MAIN if isinstance(self.main, Knockout) else Flight.LOSERS
        rounds = main_draw.rounds(feeding)
        # Through the round before the feeding flight's final, whatever the organizer chose.
        fed_by = rounds[: min(through + 1, len(rounds) - 1)]
        if not fed_by:
            return []
        positions = [len(round_) for round_ in fed_by]
        if feeding is Flight.LOSERS:
            # Losers' round 0 leaves out the pairings only byes could fill.
            positions[0] = len(main_draw.rounds(Flight.MAIN)[0]) // 2
        waves = _waves(main_draw, feeding, positions)
        if sum(side is not BYE for wave in waves for side in wave) < 2:
            return []
        pairings = _progressive_flight(Flight.CONSOLATION, waves)
        return self._with_lengths(pairings, Flight.CONSOLATION)

    def _main_and_last_chance(
        self,
        main: Knockout,
        entrants: Sequence[Entrant],
        reenters_at: int,
        rng: random.Random,
    ) -> list[Pairing]:
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
            survivors = _pair_off(Flight.MAIN, main_pairings, survivors)
        reentry_round = section.bit_length() - 1
        positions = [size >> (round_ + 1) for round_ in range(reentry_round)]
        waves = _waves(Draw(tuple(main_pairings)), Flight.MAIN, positions)
        last_chance = _progressive_flight(Flight.LAST_CHANCE, waves)
        survivors[1] = WinnerOf(last_chance[-1].key)
        while len(survivors) > 1:
            survivors = _pair_off(Flight.MAIN, main_pairings, survivors)

        main_lengths = lengths_by_round(main.options.match_lengths, size.bit_length() - 1)
        return [
            *(
                dataclasses.replace(p, match_length=main_lengths[p.key.round])
                for p in main_pairings
            ),
            *self._with_lengths(last_chance, Flight.LAST_CHANCE),
        ]

    def _with_lengths(self, pairings: Sequence[Pairing], flight: Flight) -> list[Pairing]:
        given = self.options.round_lengths.get(flight)
        if given is None:
            main = self.main
            if isinstance(main, Knockout):
                given = main.options.match_lengths
            else:
                given = main.options.round_lengths[Flight.MAIN]
        lengths = lengths_by_round(given, pairings[-1].key.round + 1)
        return [dataclasses.replace(p, match_length=lengths[p.key.round]) for p in pairings]


def _waves(draw: Draw, flight: Flight, positions_by_round: Sequence[int]) -> list[list[Side]]:
    """The losers of ``flight``'s first rounds, one side per position (as many rounds as
    ``positions_by_round`` counts): ``LoserOf`` the pairing, or a bye where it is not laid out
    or is itself a bye."""
    rounds = draw.rounds(flight)
    waves: list[list[Side]] = []
    for round_, positions in enumerate(positions_by_round):
        laid_out = {pairing.key.position: pairing for pairing in rounds[round_]}
        wave: list[Side] = []
        for position in range(positions):
            pairing = laid_out.get(position)
            wave.append(BYE if pairing is None or pairing.is_bye else LoserOf(pairing.key))
        waves.append(wave)
    return waves


def _progressive_flight(flight: Flight, waves: Sequence[Sequence[Side]]) -> list[Pairing]:
    """A one-loss flight entered in waves (see the module docstring), lengths still 0.

    The first wave stands as the survivors: a knockout's pairs off before main round 1's
    losers drop in, while a double elimination's meets the second wave at once, both waves
    having as many players as losers' round 0 has positions.
    """
    pairings: list[Pairing] = []
    survivors = list(waves[0])
    for number, wave in enumerate(waves[1:], start=1):
        while len(survivors) > len(wave):
            survivors = _pair_off(flight, pairings, survivors)
        survivors = _drop_in(flight, pairings, survivors, wave, drop_round=number)
    while len(survivors) > 1:
        survivors = _pair_off(flight, pairings, survivors)
    return pairings


def _pair_off(flight: Flight, pairings: list[Pairing], sides: Sequence[Side]) -> list[Side]:
    """The next round of ``flight``: sides 2q and 2q + 1 meet at position q."""
    pairs = [(sides[2 * q], sides[2 * q + 1]) for q in range(len(sides) // 2)]
    return _lay_out_round(flight, pairings, pairs)


def _drop_in(
    flight: Flight,
    pairings: list[Pairing],
    survivors: Sequence[Side],
    wave: Sequence[Side],
    *,
    drop_round: int,
) -> list[Side]:
    """A round in which each survivor meets a drop-in from ``wave``, shifted."""
    if len(survivors) != len(wave):
        raise DrawInvariantError(f"{len(wave)} players drop in on {len(survivors)} survivors")
    mask = drop_mask(drop_round, len(wave).bit_length() - 1)
    pairs = [(survivor, wave[q ^ mask]) for q, survivor in enumerate(survivors)]
    return _lay_out_round(flight, pairings, pairs)


def _lay_out_round(
    flight: Flight, pairings: list[Pairing], pairs: Sequence[tuple[Side, Side]]
) -> list[Side]:
    """Lay out one round after the pairings already in ``flight``; the sides moving on."""
    round_ = 1 + max((p.key.round for p in pairings if p.key.flight is flight), default=-1)
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
    went out of it (see the module docstring)."""
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
