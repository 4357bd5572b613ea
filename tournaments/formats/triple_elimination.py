"""Triple elimination: nobody is out of the tournament before losing three times.

It is double elimination (``tournaments.formats.double_elimination``, whose terms this module
uses) with one more flight for a second chance, and finals among three flight winners. For a
bracket of 2^k lines:

- **Winners' flight** (``Flight.MAIN``): double elimination's, a seeded knockout; its losers
  have lost once.
- **First losers' flight** (``Flight.LOSERS``): double elimination's losers' flight, laid out
  the same way (rounds 0 .. 2k - 3, drop rounds, drop shift and byes). Its losers have lost
  twice and go to the second losers' flight.
- **Second losers' flight** (``Flight.SECOND_LOSERS``): a loss there is a player's third, and
  ends their tournament. The first losers' flight loses players in pairs of rounds of one
  size, 2^(k-2-j) players in each of its rounds 2j and 2j + 1 (j = 0 .. k - 2), so this flight
  takes them in stages:

  - round 0, the **opening**: the losers of first losers' round 0 meet the losers of first
    losers' round 1, position q taking the loser of first losers' pairing q of round 0 and
    the loser of pairing q XOR m(1) of round 1;
  - then for each j = 1 .. k - 2 three rounds: a **survivor round**, the survivors of the
    round before two by two (position q taking those of positions 2q and 2q + 1), and two
    **drop rounds**, in which the survivors meet the losers of first losers' rounds 2j and
    2j + 1, who **drop** in. The last is the **second losers' final**.

  The **drop shift** is double elimination's: in the round taking the losers of first losers'
  round r, position q takes the loser of that round's pairing q XOR m(r) (``drop_mask``). So
  the two players of a first losers' pairing drop into opposite halves of the opening, and in
  two drop rounds in a row one swaps halves and the other not, so whom a player beat in the
  first losers' round before their loss is rarely the next opponent. Players who have lost
  twice have met many others, so some pairings repeat: with coin-flip results about one
  second losers' pairing in four repeats an earlier one at 16 players and one in ten at 128,
  where drop-ins taken in order repeat three in ten at every size.
- **Finals** (``Flight.FINAL``): the **winners' champion** (no loss), the **first losers'
  champion** (one loss) and the **second losers' champion** (two losses) are left. The two
  losers' champions meet first in the **losers' playoff** (round 0), first losers' champion
  on top. Its winner meets the winners' champion, on top, in the **grand final**. A player
  with fewer losses must still lose more often to be out:

  - with ``grand_final_reset`` (the default), losses decide as everywhere else: a match of the
    finals is played again, the same two players meeting in the next round (its winner on
    top), until one of them has lost three times. That is round 1 after the playoff (played
    only when the second losers' champion won it, since both have then lost twice), and
    rounds 2 to 5 for the grand final (round 2 its first match; its later matches are
    played only while neither finalist has three losses). The finals are laid out for the
    longest case, 6 rounds; ``advance`` calls off (``base.call_off``) each match not needed
    once a player in it has lost three times, the other going through against a bye. The
    champion has lost at most twice and everyone else exactly three times.
  - without it, the playoff (round 0) and the grand final (round 1) are one match each, as
    clubs run a short evening: the loser of each is out whatever their losses.

- **Byes**: as in double elimination, a bye reaches a losers' flight only in its first
  rounds. A side of the second losers' flight whose loser can only be a bye (a first losers'
  pairing never laid out, or one won against a bye) is drawn as a bye; a pairing both of
  whose sides are byes is not laid out, and the side it would feed is a bye in turn, so no
  pairing ever has two byes. Keys keep their bracket positions.
- **Match lengths**: ``round_lengths`` gives each flight its lengths, first round to last,
  read from the last round backwards as a knockout reads them. The winners' flight's are
  required; the first losers' flight takes them when it has none of its own, the second
  losers' flight takes the first losers' flight's (else the winners'), and the finals take
  the winners' final's length.
- **Placings**: the champion is 1st; those knocked out in the finals follow, the last knocked
  out first (the grand final's loser 2nd, the playoff's 3rd); then those knocked out in the
  second losers' flight share a place range per round, later rounds first. Within a shared
  place entrants are listed by seed. Entrants still in share the top places of an unfinished
  draw.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.base import (
    BYE,
    Draw,
    Entrant,
    Flight,
    LoserOf,
    Pairing,
    PairingKey,
    Placing,
    Result,
    Side,
    WinnerOf,
    build_draw,
    call_off,
    entrant_of,
    gettext_noop,
    placings_by_group,
    record_results,
)
from tournaments.formats.double_elimination import (
    check_flight_lengths,
    drop_mask,
    flight_lengths,
    losers_flight,
    seeded_field,
)
from tournaments.formats.knockout import (
    Seeding,
    bracket_pairings,
    bracket_size,
    seeds_from_first_round,
)

OUT_AFTER_LOSSES = 3

PLAYOFF = PairingKey(Flight.FINAL, 0, 0)
FINALS_WITH_RESETS = 6  # the playoff, its reset, and the grand final's up to four matches
FINALS_WITHOUT_RESETS = 2  # the playoff and the grand final

FLIGHT_NAMES = {
    Flight.MAIN: "winners' flight",
    Flight.LOSERS: "first losers' flight",
    Flight.SECOND_LOSERS: "second losers' flight",
    Flight.FINAL: "finals",
}


@dataclass(frozen=True)
class TripleEliminationOptions:
    """The organizer's choices: match lengths per flight, seeding, and whether the finals
    are played until a third loss (``grand_final_reset``) or once each."""

    round_lengths: Mapping[Flight, tuple[int, ...]]
    seeding: Seeding = Seeding.RATING
    grand_final_reset: bool = True


@dataclass(frozen=True)
class TripleElimination:
    """A seeded winners' flight, two losers' flights fed by the losses before, and finals."""

    options: TripleEliminationOptions

    def __post_init__(self) -> None:
        check_flight_lengths(
            self.options.round_lengths,
            FLIGHT_NAMES,
            main_missing=gettext_noop(
                "Give the match lengths of the winners' flight; the losers' flights and "
                "the finals follow them unless given their own."
            ),
            flights_words="a triple elimination has a winners' flight, two losers' flights "
            "and finals",
        )

    @property
    def last_final(self) -> PairingKey:
        rounds = FINALS_WITH_RESETS if self.options.grand_final_reset else FINALS_WITHOUT_RESETS
        return PairingKey(Flight.FINAL, rounds - 1, 0)

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        seeded = seeded_field(
            entrants,
            self.options.seeding,
            rng,
            too_few=gettext_noop(
                "A triple elimination needs at least %(least)s entrants; it has %(count)s."
            ),
        )
        size = bracket_size(len(seeded))
        winners_rounds = size.bit_length() - 1
        first_losers_rounds = 2 * winners_rounds - 2
        winners = bracket_pairings(
            Flight.MAIN,
            [entrant.id for entrant in seeded],
            self._lengths(Flight.MAIN, winners_rounds),
        )
        first_losers = losers_flight(
            winners[: size // 2],
            winners_rounds,
            self._lengths(Flight.LOSERS, first_losers_rounds),
        )
        second_losers = _second_losers_flight(
            _losers_by_round(winners, first_losers, size, first_losers_rounds),
            self._lengths(Flight.SECOND_LOSERS, 3 * winners_rounds - 5),
        )
        finals = self._finals(
            WinnerOf(winners[-1].key), WinnerOf(first_losers[-1].key), second_losers[-1].key
        )
        return build_draw([*winners, *first_losers, *second_losers, *finals])

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        """The draw with ``results`` recorded; with resets, each match of the finals is
        called off once one of its players has lost three times."""
        draw = record_results(draw, results)
        if not self.options.grand_final_reset:
            return draw
        for final_round in draw.rounds(Flight.FINAL):
            final = draw.pairing(final_round[0].key)
            if not final.is_ready:
                continue
            top, bottom = entrant_of(final.top), entrant_of(final.bottom)
            losses = losses_by_entrant(draw)
            if losses[top] >= OUT_AFTER_LOSSES:
                draw = call_off(draw, final.key, advancing=bottom)
            elif losses[bottom] >= OUT_AFTER_LOSSES:
                draw = call_off(draw, final.key, advancing=top)
        return draw

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        return draw.ready()

    def is_finished(self, draw: Draw) -> bool:
        """The last match of the finals is decided, played or called off."""
        return draw.pairing(self.last_final).winner is not None

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """Where everyone stands; entrants still in share the top places of an unfinished draw."""
        return triple_elimination_placings(draw)

    def _finals(
        self, winners_champion: Side, first_losers_champion: Side, second_losers_final: PairingKey
    ) -> list[Pairing]:
        """The playoff between the losers' champions, then the grand final, each followed
        by the rounds that play them again when losses require it."""
        rounds = FINALS_WITH_RESETS if self.options.grand_final_reset else FINALS_WITHOUT_RESETS
        lengths = self._lengths(Flight.FINAL, rounds)
        keys = [PairingKey(Flight.FINAL, round_, 0) for round_ in range(rounds)]
        finals = [
            Pairing(PLAYOFF, first_losers_champion, WinnerOf(second_losers_final), lengths[0])
        ]
        grand_final = 2 if self.options.grand_final_reset else 1
        for round_ in range(1, rounds):
            before = keys[round_ - 1]
            top: Side
            bottom: Side
            if round_ == grand_final:
                top, bottom = winners_champion, WinnerOf(before)
            else:
                top, bottom = WinnerOf(before), LoserOf(before)
            finals.append(Pairing(keys[round_], top, bottom, lengths[round_]))
        return finals

    def _lengths(self, flight: Flight, rounds: int) -> tuple[int, ...]:
        follows = Flight.LOSERS if flight is Flight.SECOND_LOSERS else Flight.MAIN
        return flight_lengths(self.options.round_lengths, flight, rounds, follows=follows)


def losses_by_entrant(draw: Draw) -> Counter[int]:
    """How many matches each entrant has lost so far (a bye or a called-off match is none)."""
    return Counter(loser for p in draw.pairings if isinstance(loser := p.loser, int))


def _losers_by_round(
    winners: Sequence[Pairing], first_losers: Sequence[Pairing], size: int, rounds: int
) -> list[list[Side]]:
    """Per first losers' round, per position, the side its loser fills: ``LoserOf`` that
    pairing, or a bye where only a bye can come (a pairing not laid out, or won by a bye)."""
    laid_out = build_draw([*winners, *first_losers])
    by_bye = {p.key for p in laid_out.pairings if p.is_bye}
    present = {p.key for p in first_losers}
    sides: list[list[Side]] = []
    for round_ in range(rounds):
        positions = size >> (round_ // 2 + 2)
        keys = [PairingKey(Flight.LOSERS, round_, q) for q in range(positions)]
        sides.append(
            [LoserOf(key) if key in present and key not in by_bye else BYE for key in keys]
        )
    return sides


def _second_losers_flight(
    losers: Sequence[Sequence[Side]], lengths: Sequence[int]
) -> list[Pairing]:
    """The opening, then per pair of first losers' rounds a survivor round and two drop
    rounds (the module docstring)."""
    pairings: list[Pairing] = []

    def pair(round_: int, sides: Sequence[tuple[Side, Side]]) -> list[Side]:
        survivors: list[Side] = []
        for position, (top, bottom) in enumerate(sides):
            if top is BYE and bottom is BYE:
                survivors.append(BYE)
                continue
            key = PairingKey(Flight.SECOND_LOSERS, round_, position)
            pairings.append(Pairing(key, top, bottom, lengths[round_]))
            survivors.append(WinnerOf(key))
        return survivors

    def dropped(first_losers_round: int) -> list[Side]:
        drop_ins = losers[first_losers_round]
        mask = drop_mask(first_losers_round, len(drop_ins).bit_length() - 1)
        return [drop_ins[position ^ mask] for position in range(len(drop_ins))]

    survivors = pair(0, list(zip(losers[0], dropped(1), strict=True)))
    round_ = 1
    for first_losers_round in range(2, len(losers), 2):
        halves = [(survivors[q], survivors[q + 1]) for q in range(0, len(survivors), 2)]
        survivors = pair(round_, halves)
        for drop_round in (first_losers_round, first_losers_round + 1):
            survivors = pair(round_ + 1, list(zip(survivors, dropped(drop_round), strict=True)))
            round_ += 1
        round_ += 1
    return pairings


def triple_elimination_placings(draw: Draw) -> tuple[Placing, ...]:
    """Placings from the draw: the finals' knocked out, last first, then the second losers'
    flight's by round, later rounds first; those still in share the top places."""
    seed_of = seeds_from_first_round(draw.rounds(Flight.MAIN)[0])
    by_seed = seed_of.__getitem__
    finals = [final for final_round in draw.rounds(Flight.FINAL) for final in final_round]
    knocked_out: list[list[int]] = []
    for index in reversed(range(len(finals))):
        loser = finals[index].loser
        plays_on = any(loser in (later.top, later.bottom) for later in finals[index + 1 :])
        if isinstance(loser, int) and not plays_on:
            knocked_out.append([loser])
    for losers_round in reversed(draw.rounds(Flight.SECOND_LOSERS)):
        losers = [pairing.loser for pairing in losers_round]
        knocked_out.append(
            sorted((loser for loser in losers if isinstance(loser, int)), key=by_seed)
        )
    out = {entrant for group in knocked_out for entrant in group}
    still_in = sorted((entrant for entrant in seed_of if entrant not in out), key=by_seed)
    return placings_by_group([still_in, *knocked_out])
