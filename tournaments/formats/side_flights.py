"""Side flights: the consolation and the last chance that live events run beside the main draw.

Club events often run "main / consolation / last chance": players knocked out early play on,
for prizes of their own, in flights beside the main one. Terms (with those of ``base``,
``knockout``, ``double_elimination``, ``one_loss`` and ``last_chance``):

- **Side flight**: a consolation or a last chance, a one-loss knockout with its own champion
  and its own placings. Players enter it only once they are out of the event it is fed by, so
  nobody is ever in two undecided pairings at once.
- **Wave**, **progressive entry**: as ``one_loss`` defines them. Each later wave drops in as
  soon as the flight's survivors are as many as the wave: one drop-in against each survivor,
  shifted by ``double_elimination.drop_mask`` so a drop-in does not at once meet a player they
  knocked out themselves a round earlier. Until then the survivors pair off two by two in
  bracket order; after the last wave they play on to the flight's final.
- **Consolation** (``Flight.CONSOLATION``, ``consolation_through_round`` = c, counted from 0),
  entered progressively. Its **feeding flight**:

  - beside a knockout alone, the waves are the losers of main rounds 0 .. c. Consolation
    round 0 pairs the losers of main pairings 2q and 2q + 1; the losers of main round r
    (r >= 1) drop in at consolation round 2r - 1, and consolation round 2r pairs off the
    survivors.
  - beside a double elimination alone, the waves are the players knocked out, at their second
    loss, in losers' rounds 0 .. c: the first two waves meet in consolation round 0 (both hold
    as many players as losers' round 0 has positions), and later ones drop in as above. A
    first loss is not the end of a double-elimination player's event, and the club format's
    consolation is for players whose main event is over; feeding it first losses would put a
    player in the losers' flight and the consolation at once.
  - beside a last chance (either main format), the waves are the losers of last-chance rounds
    0 .. c, entering as beside a knockout. An early loser of the main event plays the last
    chance first; the consolation is where the last chance's early losers play on. So every
    player has one road: main, then last chance (if knocked out before its winner re-enters),
    then consolation (if knocked out of it in its rounds 1 .. c + 1). Those knocked out of
    the main flight once the last chance is closed to them, or of the last chance late, are
    placed by the flight they went out of and play no more.

  A c beyond the last round before the feeding flight's final is read as that round, since
  the organizer chooses c before the field is known; a field in which fewer than two players
  can enter has no consolation.
- **Last chance** (``Flight.LAST_CHANCE``, ``last_chance_reenters_at`` = P, a power of two,
  and ``last_chance_entry``): who it takes, how they enter (round by round, or a **fresh
  draw** once all of them are known) and where its winner comes back are ``last_chance``'s.
  Beside a knockout the winner re-enters the main flight in the round that has P players
  (2: the final, 4: the semi-finals). The main bracket is P sections of 2^R lines, R the
  smallest number with (P - 1) * 2^R >= entrants. Section 1 (lines 2^R .. 2^(R+1) - 1, next
  to seed 1's) is **reserved**: none of its pairings in main rounds 0 .. R-1 is laid out, and
  the bottom side of main round R, position 0 is ``WinnerOf`` the last-chance final, so the
  re-entering player is the lowest seed of that round and meets the winner of seed 1's
  section. Entrants fill the other lines by standard order, byes the rest (to the top seeds;
  every pairing keeps an entrant). It needs two players knocked out before then, so at least
  P + 1 entrants. Beside a double elimination the winner re-enters the losers' flight in a
  re-entry match against its champion: coming back into the winners' flight would give a
  player who has lost twice two more lives than those still unbeaten, and a line kept empty
  in the middle of the losers' flight would be met by the winners' flight's drop-ins at fixed
  places, so only the end of the losers' flight has room for one more player.
- **Match lengths**: ``round_lengths`` may give each side flight its own, first round to
  final, read from the final backwards; a side flight without them takes the main flight's.
- **Placings**: the main places are the main format's (with a last chance, by the round each
  entrant last went out of the main or losers' flight: its winner, re-entered, is placed by
  how far they then got). Each side flight has its own list (``flight_placings``): its
  champion 1st, its finalist 2nd, then those knocked out in each earlier round sharing a place
  range, later rounds first. Players still in share the top places of an unfinished flight;
  players not yet entered are not listed.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.formats.base import (
    Draw,
    DrawInvariantError,
    Entrant,
    Flight,
    FormatError,
    Pairing,
    Placing,
    Result,
    Side,
    build_draw,
    check_match_lengths,
    gettext_noop,
)
from tournaments.formats.double_elimination import DoubleElimination
from tournaments.formats.knockout import Knockout, lengths_by_round
from tournaments.formats.last_chance import (
    LastChanceEntry,
    double_placings_with_reentry,
    double_with_last_chance,
    draw_last_chance,
    knockout_with_last_chance,
)
from tournaments.formats.one_loss import progressive_flight, real_sides, single_loss_placings
from tournaments.formats.one_loss import waves as losers_waves

SIDE_FLIGHT_NAMES = {Flight.CONSOLATION: "consolation", Flight.LAST_CHANCE: "last chance"}


@dataclass(frozen=True)
class SideFlightOptions:
    """The organizer's choices: which rounds' losers the consolation takes (through
    ``consolation_through_round``, from 0), the number of players left when the last chance
    winner re-enters and how players enter the last chance; match lengths per side flight.
    ``draw_seed`` seeds a fresh last chance's draw (the tournament's own number)."""

    consolation_through_round: int | None = None
    last_chance_reenters_at: int | None = None
    round_lengths: Mapping[Flight, tuple[int, ...]] = field(default_factory=dict)
    last_chance_entry: LastChanceEntry = LastChanceEntry.PROGRESSIVE
    draw_seed: int = 0


@dataclass(frozen=True)
class WithSideFlights:
    """A knockout or double elimination with a consolation, a last chance or both beside it."""

    main: Knockout | DoubleElimination
    options: SideFlightOptions

    def __post_init__(self) -> None:
        through = self.options.consolation_through_round
        reenters_at = self.options.last_chance_reenters_at
        if through is None and reenters_at is None:
            raise FormatError(
                gettext_noop("Choose a consolation or a last chance to run beside the main draw.")
            )
        if through is not None and through < 0:
            raise FormatError(
                gettext_noop(
                    "The consolation takes the losers of the first round on; round %(round)s "
                    "does not exist."
                ),
                round=through + 1,
            )
        if reenters_at is not None and (reenters_at < 2 or reenters_at & (reenters_at - 1)):
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
        entry = self.options.last_chance_entry
        if reenters_at is None:
            main_draw = self.main.initial_draw(entrants, rng)
            pairings = list(main_draw.pairings)
            feeding = Flight.MAIN if isinstance(self.main, Knockout) else Flight.LOSERS
            consolation_waves = self._feeding_waves(main_draw, feeding)
        else:
            if isinstance(self.main, Knockout):
                layout = knockout_with_last_chance(self.main, entrants, reenters_at, entry, rng)
            else:
                layout = double_with_last_chance(self.main, entrants, reenters_at, entry, rng)
            last_chance = [p for p in layout.pairings if p.key.flight is Flight.LAST_CHANCE]
            pairings = [p for p in layout.pairings if p.key.flight is not Flight.LAST_CHANCE]
            pairings.extend(self._with_lengths(last_chance, Flight.LAST_CHANCE))
            through = self.options.consolation_through_round
            consolation_waves = (
                []
                if through is None
                # Through the round before the last chance's final, as below.
                else layout.loser_waves[: min(through + 1, len(layout.loser_waves) - 1)]
            )
        if real_sides(consolation_waves) >= 2:
            consolation, _ = progressive_flight(Flight.CONSOLATION, consolation_waves)
            pairings.extend(self._with_lengths(consolation, Flight.CONSOLATION))
        # Pairings already laid out have their byes advanced; the side flights' sides wait
        # only on undecided pairings, so building again moves nothing twice.
        return build_draw(pairings)

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        """The main format's advance; a fresh last chance is drawn once its players are
        known."""
        draw = self.main.advance(draw, results)
        reenters_at = self.options.last_chance_reenters_at
        if reenters_at is None or self.options.last_chance_entry is not LastChanceEntry.FRESH:
            return draw
        return draw_last_chance(
            draw,
            reenters_at=reenters_at,
            lengths=self._given_lengths(Flight.LAST_CHANCE),
            draw_seed=self.options.draw_seed,
        )

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        return draw.ready()

    def is_finished(self, draw: Draw) -> bool:
        """Every flight has crowned its champion (the main format's last pairing is no longer
        the draw's last)."""
        return all(pairing.winner is not None for pairing in draw.pairings)

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """The main places; entrants still in share the top places of an unfinished draw."""
        if self.options.last_chance_reenters_at is None:
            return self.main.placings(draw)
        if isinstance(self.main, Knockout):
            return single_loss_placings(draw, Flight.MAIN)
        return double_placings_with_reentry(draw, finished=self.main.is_finished(draw))

    def flight_placings(self, draw: Draw, flight: Flight) -> tuple[Placing, ...]:
        """The places of one prize flight: the main one, or a side flight (empty when this
        field had no players for it)."""
        if flight is Flight.MAIN:
            return self.placings(draw)
        if flight not in SIDE_FLIGHT_NAMES:
            raise DrawInvariantError(f"The {flight} flight has no placings of its own")
        return single_loss_placings(draw, flight)

    def _feeding_waves(self, main_draw: Draw, feeding: Flight) -> list[list[Side]]:
        """The consolation's waves from the main format alone (no last chance)."""
        through = self.options.consolation_through_round
        if through is None:
            return []
        rounds = main_draw.rounds(feeding)
        # Through the round before the feeding flight's final, whatever the organizer chose.
        fed_by = rounds[: min(through + 1, len(rounds) - 1)]
        positions = [len(round_) for round_ in fed_by]
        if feeding is Flight.LOSERS and positions:
            # Losers' round 0 leaves out the pairings only byes could fill.
            positions[0] = len(main_draw.rounds(Flight.MAIN)[0]) // 2
        return losers_waves((p for round_ in fed_by for p in round_), positions)

    def _given_lengths(self, flight: Flight) -> tuple[int, ...]:
        given = self.options.round_lengths.get(flight)
        if given is not None:
            return given
        if isinstance(self.main, Knockout):
            return self.main.options.match_lengths
        return self.main.options.round_lengths[Flight.MAIN]

    def _with_lengths(self, pairings: Sequence[Pairing], flight: Flight) -> list[Pairing]:
        """``pairings`` (one flight's) with their rounds' lengths."""
        if not pairings:
            return []
        rounds = max(pairing.key.round for pairing in pairings) + 1
        lengths = lengths_by_round(self._given_lengths(flight), rounds)
        return [dataclasses.replace(p, match_length=lengths[p.key.round]) for p in pairings]
