"""Prizes: how a prize pool, in integer cents, is shared among the players who finished.

Terms:

- **Prize pool**: the cents to give away, after commission (computed by the ledger, not here).
- **Share**: a place's part of the pool in basis points (1/100 of a percent; 10,000 is the whole
  pool), so tables stay exact integers: 65% is 6500.
- **Prize table**: the published shares, in **bands** keyed by the number of players. A field
  uses the band with the largest minimum it reaches: with the default table, 12 players are
  paid like 8 (65/35).
- **Shared place**: players who finish level (both losing semi-finalists are "3rd-4th") pool the
  shares of the places they span and split them equally.
- **Ticket**: a satellite prize, a seat in a target tournament that registers its holder without
  paying that tournament's buy-in.

Every split is exact: the parts add up to the pool to the cent. Each player first gets the cents
their share covers in full; the few cents left over go one each to the best-placed paid players.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.base import DrawInvariantError, Flight, FormatError, Placing, gettext_noop

WHOLE_POOL = 10_000


@dataclass(frozen=True, slots=True)
class PayoutBand:
    """The shares paid, best place first, once at least ``min_players`` took part."""

    min_players: int
    shares: tuple[int, ...]


@dataclass(frozen=True)
class PrizeTable:
    """Published payout bands, smallest field first; checked when the table is made."""

    bands: tuple[PayoutBand, ...]

    def __post_init__(self) -> None:
        if not self.bands:
            raise FormatError("A prize table needs at least one band.")
        previous = 0
        for band in self.bands:
            if band.min_players <= previous:
                raise FormatError("Prize table bands must be listed by growing number of players.")
            previous = band.min_players
            _check_shares(band)

    def shares_for(self, players: int) -> tuple[int, ...]:
        """The shares paid in a field of ``players``."""
        reached = [band for band in self.bands if band.min_players <= players]
        if not reached:
            raise FormatError(
                gettext_noop(
                    "The prize table starts at %(least)s players; it has no payout for %(count)s."
                ),
                least=self.bands[0].min_players,
                count=players,
            )
        return reached[-1].shares


def _check_shares(band: PayoutBand) -> None:
    percent = "/".join(f"{share / 100:g}" for share in band.shares)
    if sum(band.shares) != WHOLE_POOL:
        raise FormatError(
            f"The prize shares for {band.min_players} players ({percent}%) must add up to 100%."
        )
    if any(share <= 0 for share in band.shares):
        raise FormatError(f"Every paid place needs a share above 0% ({percent}%).")
    if any(later > earlier for earlier, later in itertools.pairwise(band.shares)):
        raise FormatError(f"A place cannot pay more than the place above it ({percent}%).")
    if len(band.shares) > band.min_players:
        raise FormatError(
            gettext_noop("%(places)s paid places cannot be filled by %(count)s players."),
            places=len(band.shares),
            count=band.min_players,
        )


DEFAULT_SIT_AND_GO_TABLE = PrizeTable(
    (
        PayoutBand(2, (10_000,)),
        PayoutBand(4, (7_000, 3_000)),
        PayoutBand(8, (6_500, 3_500)),
        PayoutBand(16, (5_000, 3_000, 1_000, 1_000)),
        PayoutBand(32, (4_000, 2_500, 1_000, 1_000, 375, 375, 375, 375)),
        PayoutBand(64, (3_000, 1_800, 900, 900, *(450,) * 4, *(200,) * 8)),
    )
)
"""Published Sit & Go payouts. Places that knockouts share (3rd-4th, 5th-8th, ...) pay alike."""


@dataclass(frozen=True, slots=True)
class Prize:
    """What one player wins: cash in cents, and a ticket in satellites."""

    entrant: int
    cash_cents: int
    ticket: bool = False


def split_pool(pool_cents: int, shares: Sequence[int]) -> tuple[int, ...]:
    """Cents per place for ``shares`` (basis points adding up to 10,000), adding up to the pool."""
    _check_split(pool_cents, shares)
    parts = [pool_cents * share // WHOLE_POOL for share in shares]
    _hand_out_leftover(parts, pool_cents, [share > 0 for share in shares])
    return tuple(parts)


def cash_prizes(
    pool_cents: int, shares: Sequence[int], placings: Sequence[Placing]
) -> tuple[Prize, ...]:
    """One prize per placing, best first, zero cents for those out of the money.

    Players who share a place split the shares of every place they span equally.
    """
    _check_split(pool_cents, shares)
    return _by_place(pool_cents, shares, placings)


def _by_place(
    pool_cents: int, shares: Sequence[int], placings: Sequence[Placing]
) -> tuple[Prize, ...]:
    """``cash_prizes`` for shares of any positive total: each place gets its part of it."""
    whole = sum(shares)
    groups = _shared_places(placings)
    if len(placings) < len(shares):
        raise DrawInvariantError(f"{len(shares)} places are paid but {len(placings)} finished")
    entrants: list[int] = []
    parts: list[int] = []
    paid: list[bool] = []
    for group in groups:
        place = group[0].place
        group_share = sum(shares[place - 1 : place - 1 + len(group)])
        for placing in group:
            entrants.append(placing.entrant)
            parts.append(pool_cents * group_share // (whole * len(group)))
            paid.append(group_share > 0)
    _hand_out_leftover(parts, pool_cents, paid)
    return tuple(Prize(entrant, cents) for entrant, cents in zip(entrants, parts, strict=True))


def flight_cash_prizes(
    pool_cents: int,
    table: Mapping[Flight, Sequence[int]],
    placings: Mapping[Flight, Sequence[Placing]],
) -> tuple[Prize, ...]:
    """One prize per entrant placed in any flight of ``table``, adding up to the pool.

    ``table`` gives each paid flight's shares of the whole pool (adding up to 10,000 across
    flights, the main flight's included). A flight's part is its shares' sum; the main flight
    takes what the others leave, so the cents add up exactly. Shares of places nobody
    reached (a small field, a flight with fewer players than it pays) go back to the places
    that were reached in proportion to their shares, and a side flight nobody played gives
    its part to the main flight. A player paid in two flights gets both prizes.
    """
    if Flight.MAIN not in table:
        raise DrawInvariantError("A prize table pays the main flight")
    _check_split(pool_cents, [share for shares in table.values() for share in shares])
    parts: dict[Flight, int] = {}
    for flight, shares in table.items():
        if flight is not Flight.MAIN and placings.get(flight):
            parts[flight] = pool_cents * sum(shares) // WHOLE_POOL
    parts[Flight.MAIN] = pool_cents - sum(parts.values())
    cents: dict[int, int] = {}
    for flight, part in parts.items():
        placed = placings.get(flight, ())
        reached = list(table[flight][: len(placed)])
        if not placed:
            raise DrawInvariantError(f"Nobody is placed in the {flight} flight it pays")
        for prize in _by_place(part, reached, placed):
            cents[prize.entrant] = cents.get(prize.entrant, 0) + prize.cash_cents
    return tuple(Prize(entrant, amount) for entrant, amount in cents.items())


def ticket_prizes(
    pool_cents: int, ticket_cents: int, placings: Sequence[Placing]
) -> tuple[Prize, ...]:
    """Satellite prizes: one ticket per whole ``ticket_cents`` in the pool, best places first.

    The cents left after buying the tickets go to the next place, split equally if it is
    shared. A ticket cannot be split: when players sharing a place outnumber the tickets left,
    those tickets are paid to them in cash instead, with the leftover cents, split equally.
    """
    if ticket_cents <= 0 or pool_cents < 0:
        raise DrawInvariantError(f"Cannot buy {ticket_cents}-cent tickets from {pool_cents} cents")
    tickets, leftover = divmod(pool_cents, ticket_cents)
    prizes: list[Prize] = []
    for group in _shared_places(placings):
        if tickets >= len(group):
            prizes.extend(Prize(placing.entrant, 0, ticket=True) for placing in group)
            tickets -= len(group)
            continue
        cash = tickets * ticket_cents + leftover
        tickets = leftover = 0
        parts = [cash // len(group)] * len(group)
        _hand_out_leftover(parts, cash, [cash > 0] * len(group))
        prizes.extend(Prize(p.entrant, cents) for p, cents in zip(group, parts, strict=True))
    if tickets or leftover:
        raise DrawInvariantError("The satellite has more prizes than players")
    return tuple(prizes)


def _check_split(pool_cents: int, shares: Sequence[int]) -> None:
    if pool_cents < 0:
        raise DrawInvariantError(f"A prize pool cannot be negative: {pool_cents}")
    if sum(shares) != WHOLE_POOL or any(share < 0 for share in shares):
        raise DrawInvariantError(f"Shares must be non-negative and add up to 100%: {shares}")


def _shared_places(placings: Sequence[Placing]) -> list[list[Placing]]:
    """Placings grouped by shared place; checks they run 1, 2, ... without gaps or overlaps."""
    groups: list[list[Placing]] = []
    for placing in placings:
        if groups and placing.place == groups[-1][0].place:
            if placing.shared_to != groups[-1][0].shared_to:
                raise DrawInvariantError(f"Inconsistent shared place: {placing}")
            groups[-1].append(placing)
            continue
        expected = groups[-1][0].shared_to + 1 if groups else 1
        if placing.place != expected:
            raise DrawInvariantError(f"Expected place {expected}, got {placing}")
        groups.append([placing])
    for group in groups:
        if group[0].shared_to - group[0].place + 1 != len(group):
            raise DrawInvariantError(f"Place {group[0].place} is shared by {len(group)} players")
    return groups


def _hand_out_leftover(parts: list[int], total: int, paid: Sequence[bool]) -> None:
    """Give the cents that rounding down left over, one each, to the first paid parts."""
    leftover = total - sum(parts)
    for i, is_paid in enumerate(paid):
        if leftover == 0:
            break
        if is_paid:
            parts[i] += 1
            leftover -= 1
    if leftover:
        raise DrawInvariantError(f"{leftover} cents could not be handed out")
