"""Double elimination: nobody is out of the tournament before losing twice.

Terms (a bracket of 2^k lines, as in ``tournaments.formats.knockout``):

- **Winners' flight** (``Flight.MAIN``): a seeded knockout bracket, standard order, byes to the
  top seeds. Its rounds are w = 0 .. k-1; round w has 2^(k-w-1) pairings. A loss there sends
  the player to the losers' flight.
- **Losers' flight** (``Flight.LOSERS``): a second loss there ends a player's tournament. Its
  2k - 2 rounds alternate:

  - round 0: the losers of winners' round 0 play each other, two by two in bracket order
    (position q takes the losers of winners' pairings 2q and 2q + 1);
  - **drop rounds** 2w - 1 (w = 1 .. k-1): the survivors of the round before meet the losers
    of winners' round w, who **drop** in. The last is the **losers' final**, against the
    loser of the winners' final;
  - **survivor rounds** 2w (w = 1 .. k-2): the winners of the drop round play each other,
    position q taking those of positions 2q and 2q + 1.

- **Drop shift**: the order in which a round's drop-ins take their places, chosen so a player
  does not soon meet again someone they beat in the winners' flight. In drop round 2w - 1 the
  position q (n binary digits, the round having 2^n positions) takes the loser of winners'
  pairing q XOR m(w), where m(w) is w's binary digits written backwards over n digits: w's
  last digit says whether the two halves of the round swap, its next digit whether the two
  quarters inside each half swap, the next the eighths inside each quarter, and so on. So
  drop round 1 swaps halves, 2 swaps quarters, 3 swaps halves and quarters, 4 swaps eighths.
  Two drop rounds an odd number apart (losers' round 0 counting as drop round 0) send the
  players of one part of the winners' bracket to opposite halves of the losers' flight: a
  player and the one they beat in the winners' round just before their own loss can meet
  again only in the losers' semi-final or final. When favourites win every match, the only
  pairings that repeat an earlier one are the losers' final and the grand final, which no
  layout avoids. (Reversing the drop-ins in alternate rounds also spares the favourites, but
  with coin-flip results its losers' flight averages 1.2 rematches at 32 players and 6.8 at
  256, where this shift stays near 0.65 at every size.)
- **Grand final** (``Flight.FINAL``, round 0): the winners' flight champion, still unbeaten,
  against the losers' flight champion. With ``grand_final_reset`` a **reset** (round 1, the
  same two players: the grand final's winner on top, its loser below) is played only if the
  losers' flight champion wins the grand final, since only then has the other finalist lost
  just once. When the unbeaten finalist wins the grand final, ``advance`` calls the reset off
  (``base.call_off``): it shows them against a bye, won without play, and the draw is
  finished. Without the option the grand final decides alone.
- **Byes**: a winners' round-0 bye has no loser, so the losers' round-0 side it feeds is a
  bye and the opponent there goes through. A losers' round-0 pairing both of whose feeders
  are byes would hold nobody: it is not laid out, and the drop-round-1 side it would feed is a
  bye instead, so the drop-in there goes through. That is the only place a bye reaches the
  losers' flight, and no pairing ever has two byes. ``Draw.rounds(Flight.LOSERS)[0]`` then
  lists fewer pairings than positions; keys keep their bracket positions.
- **Match lengths**: ``round_lengths`` gives each flight its lengths, first round to last,
  read from the last round backwards as a knockout reads them. The winners' flight's are
  required; the losers' flight takes them when it has none of its own (aligned on the
  losers' final), the grand final and reset take the winners' final's length.
- **Placings**: the champion is 1st, the other finalist 2nd, the loser of the losers' final
  3rd, of the losers' semi-final 4th; those knocked out in an earlier losers' round share a
  place range, later rounds first (16 players: 5th-6th, 7th-8th, 9th-12th, 13th-16th).
  Within a shared place entrants are listed by seed. Entrants still in share the top places
  of an unfinished draw.

Where each side of a pairing takes its player from (a drop-in's winners' pairing, a
survivor's losers' pairing) is ``Draw.source``.
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
    LoserOf,
    Pairing,
    PairingKey,
    Placing,
    Result,
    Side,
    WinnerOf,
    build_draw,
    call_off,
    check_match_lengths,
    gettext_noop,
    placings_by_group,
    record_results,
)
from tournaments.formats.knockout import (
    Seeding,
    bracket_pairings,
    bracket_size,
    lengths_by_round,
    seed_order,
    seeds_from_first_round,
)

MIN_ENTRANTS = 4

GRAND_FINAL = PairingKey(Flight.FINAL, 0, 0)
RESET = PairingKey(Flight.FINAL, 1, 0)

FLIGHT_NAMES = {
    Flight.MAIN: "winners' flight",
    Flight.LOSERS: "losers' flight",
    Flight.FINAL: "grand final",
}


@dataclass(frozen=True)
class DoubleEliminationOptions:
    """The organizer's choices: match lengths per flight, seeding, and the reset final."""

    round_lengths: Mapping[Flight, tuple[int, ...]]
    seeding: Seeding = Seeding.RATING
    grand_final_reset: bool = True


@dataclass(frozen=True)
class DoubleElimination:
    """A seeded winners' flight, a losers' flight fed by its losers, and a grand final."""

    options: DoubleEliminationOptions

    def __post_init__(self) -> None:
        check_flight_lengths(
            self.options.round_lengths,
            FLIGHT_NAMES,
            main_missing=gettext_noop(
                "Give the match lengths of the winners' flight; the losers' flight and the "
                "grand final follow them unless given their own."
            ),
            flights_words="a double elimination has a winners' flight, a losers' flight and "
            "a grand final",
        )

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        seeded = seeded_field(
            entrants,
            self.options.seeding,
            rng,
            too_few=gettext_noop(
                "A double elimination needs at least %(least)s entrants; it has %(count)s."
            ),
        )
        size = bracket_size(len(seeded))
        winners_rounds = size.bit_length() - 1
        losers_rounds = 2 * winners_rounds - 2
        final_rounds = 2 if self.options.grand_final_reset else 1
        winners = bracket_pairings(
            Flight.MAIN,
            [entrant.id for entrant in seeded],
            self._lengths(Flight.MAIN, winners_rounds),
        )
        losers = losers_flight(
            winners[: size // 2], winners_rounds, self._lengths(Flight.LOSERS, losers_rounds)
        )
        final_lengths = self._lengths(Flight.FINAL, final_rounds)
        final = [
            Pairing(
                GRAND_FINAL,
                WinnerOf(winners[-1].key),
                WinnerOf(losers[-1].key),
                final_lengths[0],
            )
        ]
        if self.options.grand_final_reset:
            final.append(
                Pairing(RESET, WinnerOf(GRAND_FINAL), LoserOf(GRAND_FINAL), final_lengths[1])
            )
        return build_draw([*winners, *losers, *final])

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        """The draw with ``results`` recorded; the reset is called off once it cannot matter."""
        draw = record_results(draw, results)
        if not self.options.grand_final_reset:
            return draw
        grand_final = draw.pairing(GRAND_FINAL)
        # The top side is the winners' flight champion: if they won, the other finalist has
        # lost twice and nobody is left to lose a second time.
        if grand_final.winner is None or grand_final.winner != grand_final.top:
            return draw
        if draw.pairing(RESET).winner is not None:
            return draw
        return call_off(draw, RESET, advancing=grand_final.winner)

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        return draw.ready()

    def is_finished(self, draw: Draw) -> bool:
        """The last final is decided (read by key, so side flights laid out after it do not
        matter)."""
        last_final = RESET if self.options.grand_final_reset else GRAND_FINAL
        return draw.pairing(last_final).winner is not None

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """Where everyone stands; entrants still in share the top places of an unfinished draw."""
        return double_elimination_placings(draw, finished=self.is_finished(draw))

    def _lengths(self, flight: Flight, rounds: int) -> tuple[int, ...]:
        return flight_lengths(self.options.round_lengths, flight, rounds)


def check_flight_lengths(
    lengths: Mapping[Flight, tuple[int, ...]],
    flight_names: Mapping[Flight, str],
    *,
    main_missing: str,
    flights_words: str,
) -> None:
    """Refuse lengths without the winners' flight's (saying ``main_missing``), for a flight
    not in ``flight_names`` (saying ``flights_words``: what the format has), or too short."""
    if Flight.MAIN not in lengths:
        raise FormatError(main_missing)
    for flight, given in lengths.items():
        if flight not in flight_names:
            raise FormatError(
                f"{flights_words[0].upper()}{flights_words[1:]}, not a "
                f"{flight.value.replace('_', ' ')} flight."
            )
        check_match_lengths(given, required_for=f"the {flight_names[flight]}")


def seeded_field(
    entrants: Sequence[Entrant], seeding: Seeding, rng: random.Random, *, too_few: str
) -> tuple[Entrant, ...]:
    """The entrants in seed order; fewer than ``MIN_ENTRANTS`` are refused with ``too_few``
    (its blanks ``%(least)s`` and ``%(count)s``)."""
    if len(entrants) < MIN_ENTRANTS:
        raise FormatError(too_few, least=MIN_ENTRANTS, count=len(entrants))
    if len({entrant.id for entrant in entrants}) != len(entrants):
        raise DrawInvariantError("An entrant is registered twice")
    return seed_order(entrants, seeding, rng)


def flight_lengths(
    given: Mapping[Flight, tuple[int, ...]],
    flight: Flight,
    rounds: int,
    *,
    follows: Flight = Flight.MAIN,
) -> tuple[int, ...]:
    """A flight's length per round: its own, else the winners' final's for the final,
    else those of the flight it ``follows`` (the winners' flight unless given)."""
    if flight in given:
        return lengths_by_round(given[flight], rounds)
    main = given[Flight.MAIN]
    if flight is Flight.FINAL:
        return (main[-1],) * rounds
    return lengths_by_round(given.get(follows, main), rounds)


def drop_mask(drop_round: int, position_digits: int) -> int:
    """m(w) of the module docstring: ``drop_round``'s binary digits backwards, over
    ``position_digits`` digits. Position q of the drop round takes the loser of winners'
    pairing q XOR m(w)."""
    mask = 0
    for digit in range(position_digits):
        if drop_round >> digit & 1:
            mask |= 1 << (position_digits - 1 - digit)
    return mask


def losers_flight(
    first_round: Sequence[Pairing], winners_rounds: int, lengths: Sequence[int]
) -> list[Pairing]:
    """Losers' round 0, then a drop round and a survivor round per winners' round after it."""
    pairings: list[Pairing] = []
    survivors: list[Side] = []
    for position in range(len(first_round) // 2):
        feeders = first_round[2 * position : 2 * position + 2]
        if all(feeder.is_bye for feeder in feeders):
            survivors.append(BYE)
            continue
        key = PairingKey(Flight.LOSERS, 0, position)
        pairings.append(Pairing(key, LoserOf(feeders[0].key), LoserOf(feeders[1].key), lengths[0]))
        survivors.append(WinnerOf(key))
    for winners_round in range(1, winners_rounds):
        drop_round = 2 * winners_round - 1
        mask = drop_mask(winners_round, len(survivors).bit_length() - 1)
        drops = [
            Pairing(
                PairingKey(Flight.LOSERS, drop_round, position),
                survivor,
                LoserOf(PairingKey(Flight.MAIN, winners_round, position ^ mask)),
                lengths[drop_round],
            )
            for position, survivor in enumerate(survivors)
        ]
        pairings.extend(drops)
        if len(drops) == 1:  # the losers' final: no survivor round follows
            break
        survivors = []
        for position in range(len(drops) // 2):
            key = PairingKey(Flight.LOSERS, drop_round + 1, position)
            pairings.append(
                Pairing(
                    key,
                    WinnerOf(drops[2 * position].key),
                    WinnerOf(drops[2 * position + 1].key),
                    lengths[drop_round + 1],
                )
            )
            survivors.append(WinnerOf(key))
    return pairings


def double_elimination_placings(draw: Draw, *, finished: bool) -> tuple[Placing, ...]:
    """Placings from the draw; ``finished`` says whether the last final has been decided."""
    seed_of = seeds_from_first_round(draw.rounds(Flight.MAIN)[0])
    by_seed = seed_of.__getitem__

    knocked_out: list[list[int]] = [[_runner_up(draw)]] if finished else []
    for losers_round in reversed(draw.rounds(Flight.LOSERS)):
        losers = [pairing.loser for pairing in losers_round]
        knocked_out.append(
            sorted((loser for loser in losers if isinstance(loser, int)), key=by_seed)
        )
    out = {entrant for group in knocked_out for entrant in group}
    still_in = sorted((entrant for entrant in seed_of if entrant not in out), key=by_seed)
    return placings_by_group([still_in, *knocked_out])


def _runner_up(draw: Draw) -> int:
    """The loser of the last final played: the reset if it was, else the grand final."""
    for final in reversed(draw.rounds(Flight.FINAL)):
        loser = final[0].loser
        if isinstance(loser, int):
            return loser
    raise DrawInvariantError("A finished draw has no runner-up")
