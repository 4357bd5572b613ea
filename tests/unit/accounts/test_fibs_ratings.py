"""FIBS rating changes after a rated match, checked against values worked by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.ratings import experience_factor, fibs_update, upset_probability


def test_equal_newcomers_in_a_five_point_match_move_by_twenty_two_points() -> None:
    # D = 0, so P_upset = 1 / (10^0 + 1) = 0.5; both have K = 5 - 0/100 = 5.
    # Change = 4 * 5 * sqrt(5) * 0.5 = 10 * 2.2360680 = 22.360680.
    winner, loser = fibs_update(1500.0, 1500.0, 5, 0, 0)

    assert winner == pytest.approx(1522.360680, abs=1e-6)
    assert loser == pytest.approx(1477.639320, abs=1e-6)


def test_an_experienced_favourite_gains_little_for_an_expected_win() -> None:
    # D = 100, N = 1: P_upset = 1 / (10^(100/2000) + 1) = 1 / (1.1220185 + 1) = 0.4712494.
    # K = 1 for both (experience 400 and more). The favourite won, so P = P_upset:
    # change = 4 * 1 * 1 * 0.4712494 = 1.8849977.
    winner, loser = fibs_update(1600.0, 1500.0, 1, 400, 1000)

    assert winner == pytest.approx(1601.884998, abs=1e-6)
    assert loser == pytest.approx(1498.115002, abs=1e-6)


def test_an_upset_moves_more_than_an_expected_result() -> None:
    # The same players, but the weaker won: P = 1 - 0.4712494 = 0.5287506,
    # change = 4 * 0.5287506 = 2.1150023.
    winner, loser = fibs_update(1500.0, 1600.0, 1, 400, 1000)

    assert winner == pytest.approx(1502.115002, abs=1e-6)
    assert loser == pytest.approx(1597.884998, abs=1e-6)


def test_each_player_uses_their_own_experience_factor() -> None:
    # D = 200, N = 9: exponent = 200 * 3 / 2000 = 0.3, 10^0.3 = 1.9952623,
    # P_upset = 1 / 2.9952623 = 0.3338606; the favourite (1700) won, so P = 0.3338606.
    # Winner: experience 250, K = 5 - 2.5 = 2.5, gain = 4 * 2.5 * 3 * 0.3338606 = 10.015818.
    # Loser: experience 0, K = 5, loss = 4 * 5 * 3 * 0.3338606 = 20.031636.
    winner, loser = fibs_update(1700.0, 1500.0, 9, 250, 0)

    assert winner == pytest.approx(1710.015818, abs=1e-5)
    assert loser == pytest.approx(1479.968364, abs=1e-5)


@pytest.mark.parametrize(
    ("experience", "factor"), [(0, 5.0), (100, 4.0), (250, 2.5), (400, 1.0), (5000, 1.0)]
)
def test_newcomers_move_up_to_five_times_faster(experience: int, factor: float) -> None:
    assert experience_factor(experience) == factor


def test_a_match_has_at_least_one_point() -> None:
    with pytest.raises(ValueError, match="at least 1 point"):
        fibs_update(1500.0, 1500.0, 0, 0, 0)


ratings = st.floats(min_value=500, max_value=2500)
experience = st.integers(min_value=0, max_value=10_000)


@given(ratings, ratings, st.integers(min_value=1, max_value=25), experience, experience)
def test_the_winner_always_gains_and_the_loser_always_loses(
    winner: float, loser: float, length: int, winner_exp: int, loser_exp: int
) -> None:
    new_winner, new_loser = fibs_update(winner, loser, length, winner_exp, loser_exp)

    assert new_winner > winner
    assert new_loser < loser


@given(ratings, ratings, st.integers(min_value=1, max_value=25))
def test_between_equally_experienced_players_points_are_only_exchanged(
    winner: float, loser: float, length: int
) -> None:
    new_winner, new_loser = fibs_update(winner, loser, length, 1000, 1000)

    assert new_winner + new_loser == pytest.approx(winner + loser)
    assert new_winner - winner <= 4 * math.sqrt(length)


def test_the_upset_chance_shrinks_with_the_gap_and_the_length() -> None:
    assert upset_probability(0, 7) == 0.5
    assert upset_probability(200, 1) > upset_probability(200, 9) > upset_probability(400, 9)
