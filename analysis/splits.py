"""Settling an unfinished game or match from its evaluation, in integer cents.

Terms:

- *stake*: in money play, cents per point, a point being one unit of the cube.
- *settlement*: what a player receives (positive) or pays (negative) for an adjudicated money
  game: that player's cubeful equity per unit cube, times the cube value, times the stake,
  rounded to the cent (halves away from zero) and limited to a backgammon on the current cube
  (3 x cube x stake). The two players' settlements add up to zero.
- *pot*: in a match played for a pot, the cents both players put in; an adjudicated match
  gives each player their match winning chances (MWC) times the pot, and the shares add up to
  the pot exactly.
- *net gain*: what a player receives beyond what they put in.
- *commission*: the house's charge. As for a finished game, it is reckoned per player on the
  sum won per player (the settlement, or the net gain) by the commission rule, and the winner
  pays it for both players. The rule is passed in, so this module stays free of the ledger.
- *forfeit policy*: a tournament may award an adjudicated match to the player with the higher
  MWC, or to the player who did not go absent.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal

CommissionRule = Callable[[int], int]
"""Commission per player, in cents, for a sum won per player, in cents."""

Chance = float | Decimal


def _decimal(value: Chance) -> Decimal:
    # str() gives the shortest decimal that reads back as the same float, not its binary tail.
    return value if isinstance(value, Decimal) else Decimal(str(value))


def _round_cents(amount: Decimal) -> int:
    return int(amount.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _commission_by_winner(
    amounts_won: tuple[int, int], commission: CommissionRule
) -> tuple[int, int]:
    """Commission owed by each player: the winner pays the per-player charge twice."""
    charges = [0, 0]
    for index, amount in enumerate(amounts_won):
        if amount > 0:
            charges[index] = 2 * commission(amount)
    return charges[0], charges[1]


@dataclass(frozen=True)
class MoneySettlement:
    """An adjudicated money game: what changes hands, and the commission on it."""

    settlement_cents: tuple[int, int]
    commission_cents: tuple[int, int]

    @property
    def net_cents(self) -> tuple[int, int]:
        """What each player's balance changes by, after commission."""
        return (
            self.settlement_cents[0] - self.commission_cents[0],
            self.settlement_cents[1] - self.commission_cents[1],
        )

    @property
    def house_cents(self) -> int:
        return sum(self.commission_cents)


def money_settlement(
    equity_player0: Chance,
    *,
    cube_value: int,
    stake_cents: int,
    commission: CommissionRule,
) -> MoneySettlement:
    """Settle a money game on player 0's cubeful equity per unit cube."""
    settlement = money_settlement_cents(
        equity_player0, cube_value=cube_value, stake_cents=stake_cents
    )
    return MoneySettlement(settlement, _commission_by_winner(settlement, commission))


def money_settlement_cents(
    equity_player0: Chance, *, cube_value: int, stake_cents: int
) -> tuple[int, int]:
    """Each player's settlement before commission, from player 0's equity per unit cube."""
    if cube_value < 1 or stake_cents < 0:
        raise ValueError("the cube value must be positive and the stake not negative")
    limit = 3 * cube_value * stake_cents
    amount = _round_cents(_decimal(equity_player0) * cube_value * stake_cents)
    player0 = max(-limit, min(limit, amount))
    return player0, -player0


@dataclass(frozen=True)
class PotSplit:
    """An adjudicated match for a pot: each player's share, stake and commission."""

    shares_cents: tuple[int, int]
    contributions_cents: tuple[int, int]
    commission_cents: tuple[int, int]

    @property
    def net_gain_cents(self) -> tuple[int, int]:
        return (
            self.shares_cents[0] - self.contributions_cents[0],
            self.shares_cents[1] - self.contributions_cents[1],
        )

    @property
    def payout_cents(self) -> tuple[int, int]:
        """What each player is paid from the pot, after commission."""
        return (
            self.shares_cents[0] - self.commission_cents[0],
            self.shares_cents[1] - self.commission_cents[1],
        )

    @property
    def house_cents(self) -> int:
        return sum(self.commission_cents)


def pot_shares(mwc_player0: Chance, pot_cents: int) -> tuple[int, int]:
    """Each player's MWC times the pot, in whole cents adding up to the pot.

    Each share is rounded down and the cent left over goes to the larger remainder; an exact
    half goes to player 0.
    """
    if pot_cents < 0:
        raise ValueError("the pot cannot be negative")
    mwc = _decimal(mwc_player0)
    if not Decimal(0) <= mwc <= Decimal(1):
        raise ValueError(f"match winning chances must lie in [0, 1], not {mwc}")
    exact = mwc * pot_cents
    player0 = int(exact.to_integral_value(rounding=ROUND_FLOOR))
    if exact - player0 >= Decimal("0.5"):
        player0 += 1
    return player0, pot_cents - player0


def pot_split(
    mwc_player0: Chance,
    *,
    pot_cents: int,
    commission: CommissionRule,
    contributions_cents: tuple[int, int] | None = None,
) -> PotSplit:
    """Split a match's pot on player 0's cubeful MWC; commission on the net gain.

    The pot is taken to be put in equally unless ``contributions_cents`` says otherwise.
    """
    if contributions_cents is None:
        if pot_cents % 2:
            raise ValueError("an odd pot needs each player's contribution")
        contributions_cents = (pot_cents // 2, pot_cents // 2)
    if sum(contributions_cents) != pot_cents:
        raise ValueError("the contributions must add up to the pot")
    shares = pot_shares(mwc_player0, pot_cents)
    gains = (shares[0] - contributions_cents[0], shares[1] - contributions_cents[1])
    return PotSplit(shares, contributions_cents, _commission_by_winner(gains, commission))


class AbsencePolicy(enum.Enum):
    """What a tournament does with a match a player abandoned."""

    ADJUDICATE = "adjudicate"
    FORFEIT = "forfeit"


class AwardReason(enum.Enum):
    ADJUDICATED = "adjudicated"
    FORFEIT = "forfeit"


@dataclass(frozen=True)
class MatchAward:
    """Who is awarded an unfinished tournament match, and on what grounds."""

    winner_index: int
    reason: AwardReason


def tournament_award(
    mwc_player0: Chance, *, policy: AbsencePolicy, absent_index: int | None
) -> MatchAward:
    """Award an unfinished tournament match.

    Under ``FORFEIT`` the absent player loses. Otherwise the higher MWC wins; exactly equal
    chances go to the player who is present, or to player 0 when nobody is absent.
    """
    if absent_index not in (None, 0, 1):
        raise ValueError(f"absent_index must be 0, 1 or None, not {absent_index}")
    if policy is AbsencePolicy.FORFEIT:
        if absent_index is None:
            raise ValueError("a forfeit needs the absent player")
        return MatchAward(1 - absent_index, AwardReason.FORFEIT)
    mwc = _decimal(mwc_player0)
    if mwc == Decimal("0.5"):
        winner = 0 if absent_index is None else 1 - absent_index
    else:
        winner = 0 if mwc > Decimal("0.5") else 1
    return MatchAward(winner, AwardReason.ADJUDICATED)
