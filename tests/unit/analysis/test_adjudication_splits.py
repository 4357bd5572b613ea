"""An adjudicated game or match is settled in whole cents that add up, with commission."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.splits import (
    AbsencePolicy,
    AwardReason,
    MatchAward,
    money_settlement,
    pot_shares,
    pot_split,
    tournament_award,
)


def house_rule(sum_cents_per_player: int) -> int:
    """The house's commission per player: 3 cents below 50 cents, else 6.5% rounded up."""
    if sum_cents_per_player <= 0:
        return 0
    if sum_cents_per_player < 50:
        return 3
    return -(-sum_cents_per_player * 65 // 1000)


@pytest.mark.parametrize(
    ("equity", "cube", "stake", "settlement", "commission"),
    [
        (0.5, 2, 100, (100, -100), (14, 0)),
        (0.12345, 1, 100, (12, -12), (6, 0)),
        (-0.005, 1, 100, (-1, 1), (0, 6)),
        (0.0025, 1, 200, (1, -1), (6, 0)),
        (0.245, 1, 200, (49, -49), (6, 0)),
        (0.25, 1, 200, (50, -50), (8, 0)),
        (-1.0, 8, 50, (-400, 400), (0, 52)),
        (2.9999, 1, 100, (300, -300), (40, 0)),
        (3.5, 1, 100, (300, -300), (40, 0)),
        (-3.2, 4, 25, (-300, 300), (0, 40)),
        (0.0, 2, 100, (0, 0), (0, 0)),
        (0.7, 2, 0, (0, 0), (0, 0)),
    ],
)
def test_money_game_settles_on_cubeful_equity_times_cube_and_stake(
    equity: float,
    cube: int,
    stake: int,
    settlement: tuple[int, int],
    commission: tuple[int, int],
) -> None:
    result = money_settlement(equity, cube_value=cube, stake_cents=stake, commission=house_rule)

    assert result.settlement_cents == settlement
    assert result.commission_cents == commission


def test_winner_of_a_money_game_pays_commission_for_both_players() -> None:
    result = money_settlement(0.5, cube_value=2, stake_cents=100, commission=house_rule)

    assert result.net_cents == (86, -100)
    assert result.house_cents == 14


def test_equity_given_as_decimal_is_used_exactly() -> None:
    result = money_settlement(Decimal("0.125"), cube_value=1, stake_cents=4, commission=house_rule)

    assert result.settlement_cents == (1, -1)


@given(
    equity=st.floats(min_value=-3.5, max_value=3.5, allow_nan=False),
    cube=st.sampled_from([1, 2, 4, 8, 16, 32, 64]),
    stake=st.integers(min_value=0, max_value=100_000),
)
def test_money_settlements_sum_to_zero_and_never_exceed_a_backgammon(
    equity: float, cube: int, stake: int
) -> None:
    result = money_settlement(equity, cube_value=cube, stake_cents=stake, commission=house_rule)

    assert sum(result.settlement_cents) == 0
    assert all(abs(cents) <= 3 * cube * stake for cents in result.settlement_cents)
    assert sum(result.net_cents) + result.house_cents == 0
    assert 0 in result.commission_cents


@pytest.mark.parametrize(
    ("mwc", "pot", "shares"),
    [
        (0.56261, 1000, (563, 437)),
        (0.5, 1000, (500, 500)),
        (0.5, 1001, (501, 500)),
        (1.0, 2000, (2000, 0)),
        (0.0004, 1000, (0, 1000)),
        (0.0005, 1000, (1, 999)),
        (0.28602, 777, (222, 555)),
    ],
)
def test_pot_is_shared_by_match_winning_chances_to_the_cent(
    mwc: float, pot: int, shares: tuple[int, int]
) -> None:
    assert pot_shares(mwc, pot) == shares


def test_commission_on_a_pot_is_paid_by_the_player_who_gains() -> None:
    result = pot_split(0.56261, pot_cents=1000, commission=house_rule)

    assert result.net_gain_cents == (63, -63)
    assert result.commission_cents == (10, 0)
    assert result.payout_cents == (553, 437)
    assert result.house_cents == 10


def test_even_pot_split_takes_no_commission() -> None:
    result = pot_split(0.5, pot_cents=1000, commission=house_rule)

    assert result.payout_cents == (500, 500)
    assert result.house_cents == 0


def test_odd_pot_needs_the_contributions() -> None:
    with pytest.raises(ValueError, match="contribution"):
        pot_split(0.5, pot_cents=1001, commission=house_rule)

    result = pot_split(0.5, pot_cents=1001, commission=house_rule, contributions_cents=(500, 501))
    assert result.net_gain_cents == (1, -1)
    assert result.commission_cents == (6, 0)


@given(
    mwc=st.floats(min_value=0.0, max_value=1.0, allow_nan=False),
    half_pot=st.integers(min_value=0, max_value=1_000_000),
)
def test_pot_shares_add_up_to_the_pot_and_stay_within_a_cent_of_exact(
    mwc: float, half_pot: int
) -> None:
    pot = 2 * half_pot
    result = pot_split(mwc, pot_cents=pot, commission=house_rule)

    assert sum(result.shares_cents) == pot
    assert abs(Decimal(result.shares_cents[0]) - Decimal(str(mwc)) * pot) <= Decimal("0.5")
    assert sum(result.payout_cents) + result.house_cents == pot


@pytest.mark.parametrize(
    ("mwc", "policy", "absent", "award"),
    [
        (0.7, AbsencePolicy.ADJUDICATE, 0, MatchAward(0, AwardReason.ADJUDICATED)),
        (0.3, AbsencePolicy.ADJUDICATE, 0, MatchAward(1, AwardReason.ADJUDICATED)),
        (0.3, AbsencePolicy.ADJUDICATE, None, MatchAward(1, AwardReason.ADJUDICATED)),
        (0.5, AbsencePolicy.ADJUDICATE, 0, MatchAward(1, AwardReason.ADJUDICATED)),
        (0.5, AbsencePolicy.ADJUDICATE, None, MatchAward(0, AwardReason.ADJUDICATED)),
        (0.9, AbsencePolicy.FORFEIT, 0, MatchAward(1, AwardReason.FORFEIT)),
        (0.1, AbsencePolicy.FORFEIT, 1, MatchAward(0, AwardReason.FORFEIT)),
    ],
)
def test_tournament_match_goes_to_higher_chances_unless_the_policy_is_forfeit(
    mwc: float, policy: AbsencePolicy, absent: int | None, award: MatchAward
) -> None:
    assert tournament_award(mwc, policy=policy, absent_index=absent) == award


def test_forfeit_needs_the_absent_player() -> None:
    with pytest.raises(ValueError, match="absent"):
        tournament_award(0.5, policy=AbsencePolicy.FORFEIT, absent_index=None)
