"""Sit & Go: a knockout with a fixed number of seats that starts as soon as every seat is taken.

Terms:

- **Seat**: a place at the table. The organizer fixes how many (2 to 64); there is no start
  time, the tournament starts the moment the last seat is taken.
- **Seating**: how the seated players are placed in the bracket: at random (the default, as
  players expect from a table that fills in any order) or by rating, as in a seeded knockout.
- **Prize table**: published shares of the prize pool by number of seats (see
  ``tournaments.formats.prizes``); checked when the Sit & Go is created so a table that cannot
  pay this many seats is refused up front.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.formats.base import (
    Draw,
    DrawInvariantError,
    Entrant,
    FormatError,
    Pairing,
    Placing,
    Result,
    gettext_noop,
)
from tournaments.formats.knockout import Knockout, KnockoutOptions, Seeding
from tournaments.formats.prizes import DEFAULT_SIT_AND_GO_TABLE, Prize, PrizeTable, cash_prizes

MIN_SEATS = 2
MAX_SEATS = 64


def should_start(*, seats: int, seated: int) -> bool:
    """Whether the Sit & Go starts now: exactly when the last seat has been taken."""
    if not 0 <= seated <= seats:
        raise DrawInvariantError(f"{seated} players seated at a {seats}-seat Sit & Go")
    return seated == seats


@dataclass(frozen=True)
class SitAndGoOptions:
    """The organizer's choices: seats, match lengths (first round to final), seating, prizes."""

    seats: int
    match_lengths: tuple[int, ...]
    seating: Seeding = Seeding.RANDOM
    prize_table: PrizeTable = DEFAULT_SIT_AND_GO_TABLE


@dataclass(frozen=True)
class SitAndGo:
    """A knockout among the seated players, paid from the prize table."""

    options: SitAndGoOptions
    knockout: Knockout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        seats = self.options.seats
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise FormatError(
                gettext_noop("A Sit & Go has %(low)s to %(high)s seats; %(seats)s were asked for."),
                low=MIN_SEATS,
                high=MAX_SEATS,
                seats=seats,
            )
        self.options.prize_table.shares_for(seats)
        knockout = Knockout(KnockoutOptions(self.options.match_lengths, self.options.seating))
        object.__setattr__(self, "knockout", knockout)

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        if not should_start(seats=self.options.seats, seated=len(entrants)):
            raise DrawInvariantError(
                f"Drawn with {len(entrants)} of {self.options.seats} seats taken"
            )
        return self.knockout.initial_draw(entrants, rng)

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        return self.knockout.advance(draw, results)

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        return self.knockout.ready_pairings(draw)

    def is_finished(self, draw: Draw) -> bool:
        return self.knockout.is_finished(draw)

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        return self.knockout.placings(draw)

    def prizes(self, draw: Draw, *, pool_cents: int) -> tuple[Prize, ...]:
        """Everyone's cash prize, best first, once the final is decided."""
        if not self.is_finished(draw):
            raise DrawInvariantError("Prizes are paid only when the Sit & Go is finished")
        shares = self.options.prize_table.shares_for(self.options.seats)
        return cash_prizes(pool_cents, shares, self.placings(draw))
