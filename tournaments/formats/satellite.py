"""Satellite: a knockout whose prizes are seats in a bigger, named target tournament.

Terms:

- **Target tournament**: the event the satellite feeds, with its own buy-in.
- **Ticket**: a seat in the target tournament that registers its holder there without paying
  the target's buy-in. Tickets = prize pool // target buy-in.
- **Cash remainder**: the prize pool left after buying the tickets (pool % target buy-in). It
  goes to the best finisher without a ticket, split equally if that place is shared.
- **Bubble**: the shared place that the ticket line cuts through. Tickets cannot be split, so
  the players on the bubble share in cash the tickets left for them plus the cash remainder.
  (With 3 tickets in a 16-player knockout, both finalists get a ticket and the two losing
  semi-finalists share the third ticket's value and the remainder.)

Decisions an organizer sees:

- A satellite whose prize pool does not cover one ticket is refused when it is created
  (``FormatError``), rather than quietly turning into a cash tournament.
- A satellite whose pool buys a ticket for every player is refused at the draw.
- Play stops as soon as no match left can change who wins a ticket: finalists who both
  hold a ticket whatever happens do not play the final.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tournaments.formats.base import (
    Cents,
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
from tournaments.formats.prizes import Prize, ticket_prizes


@dataclass(frozen=True)
class TargetTournament:
    """The tournament whose seats the satellite gives away."""

    name: str
    buy_in_cents: int


@dataclass(frozen=True)
class SatellitePlan:
    """How a prize pool turns into tickets plus a cash remainder."""

    tickets: int
    cash_remainder_cents: int


def plan_satellite(*, prize_pool_cents: int, target: TargetTournament) -> SatellitePlan:
    """Tickets and cash remainder for a pool; refuses a pool that does not buy one ticket."""
    if target.buy_in_cents <= 0:
        raise FormatError(
            gettext_noop("%(target)s has no buy-in, so a seat in it cannot be a prize."),
            target=target.name,
        )
    if prize_pool_cents < 0:
        raise FormatError(gettext_noop("The prize pool cannot be negative."))
    tickets, remainder = divmod(prize_pool_cents, target.buy_in_cents)
    if tickets == 0:
        raise FormatError(
            gettext_noop(
                "The prize pool of %(pool)s does not cover one seat in %(target)s (buy-in "
                "%(buy_in)s). Raise the buy-in or the number of players."
            ),
            pool=Cents(prize_pool_cents),
            target=target.name,
            buy_in=Cents(target.buy_in_cents),
        )
    return SatellitePlan(tickets, remainder)


@dataclass(frozen=True)
class SatelliteOptions:
    """The organizer's choices; the prize pool is known once the entries are in."""

    match_lengths: tuple[int, ...]
    target: TargetTournament
    prize_pool_cents: int
    seeding: Seeding = Seeding.RATING


@dataclass(frozen=True)
class Satellite:
    """A knockout that pays tickets to the target tournament, and stops once they are won."""

    options: SatelliteOptions
    plan: SatellitePlan = field(init=False, repr=False, compare=False)
    knockout: Knockout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        plan = plan_satellite(
            prize_pool_cents=self.options.prize_pool_cents, target=self.options.target
        )
        knockout = Knockout(KnockoutOptions(self.options.match_lengths, self.options.seeding))
        object.__setattr__(self, "plan", plan)
        object.__setattr__(self, "knockout", knockout)

    def initial_draw(self, entrants: Sequence[Entrant], rng: random.Random) -> Draw:
        if self.plan.tickets >= len(entrants):
            raise FormatError(
                gettext_noop(
                    "The prize pool buys %(tickets)s seats in %(target)s for %(count)s players: "
                    "every player would win a seat without playing."
                ),
                tickets=self.plan.tickets,
                target=self.options.target.name,
                count=len(entrants),
            )
        return self.knockout.initial_draw(entrants, rng)

    def advance(self, draw: Draw, results: Iterable[Result]) -> Draw:
        return self.knockout.advance(draw, results)

    def ready_pairings(self, draw: Draw) -> tuple[Pairing, ...]:
        """Ready matches that can still change who wins a ticket."""
        return tuple(p for p in self.knockout.ready_pairings(draw) if self._matters(draw, p))

    def is_finished(self, draw: Draw) -> bool:
        return all(p.winner is not None for p in draw.pairings if self._matters(draw, p))

    def placings(self, draw: Draw) -> tuple[Placing, ...]:
        """Players still in when play stops share the top places."""
        return self.knockout.placings(draw)

    def prizes(self, draw: Draw) -> tuple[Prize, ...]:
        """Tickets, then the cash remainder, best first; everyone else gets nothing."""
        if not self.is_finished(draw):
            raise DrawInvariantError("Prizes are paid only when the satellite is finished")
        return ticket_prizes(
            self.options.prize_pool_cents, self.options.target.buy_in_cents, self.placings(draw)
        )

    def _matters(self, draw: Draw, pairing: Pairing) -> bool:
        """Whether its loser could finish outside the tickets.

        The loser of round r (r >= 1) of a bracket of size s finishes at worst s >> r; a
        first-round loser at worst last, and there are always more players than tickets.
        """
        if pairing.key.round == 0:
            return True
        bracket_size = len(draw.pairings) + 1  # a knockout of s lines has s - 1 pairings
        return bracket_size >> pairing.key.round > self.plan.tickets
