"""FIBS ratings: how a rated match moves both players' ratings.

A player's *rating* starts at 1500.0; their *experience* is the sum of the lengths of
the rated matches they have played. After a match to ``N`` points between players whose
ratings differ by ``D``, the chance that the weaker player would win is

    P_upset = 1 / (10 ** (D * sqrt(N) / 2000) + 1)

The winner gains ``4 * K * sqrt(N) * P`` and the loser loses the same with their own
``K``, where ``P`` is ``P_upset`` when the favourite won (an expected result moves little)
and ``1 - P_upset`` after an upset. ``K = max(1, 5 - experience / 100)`` lets newcomers'
ratings move up to five times faster until they have played 400 points.

Pure Python: no Django.
"""

from __future__ import annotations

import math

STARTING_RATING = 1500.0


def experience_factor(experience: int) -> float:
    """K: 5 for a newcomer, falling to 1 once 400 points of rated matches are played."""
    return max(1.0, 5.0 - experience / 100)


def upset_probability(rating_difference: float, match_length: int) -> float:
    """The chance that the lower-rated player wins a match of this length."""
    exponent = abs(rating_difference) * math.sqrt(match_length) / 2000
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def fibs_update(
    winner_rating: float,
    loser_rating: float,
    match_length: int,
    winner_experience: int,
    loser_experience: int,
) -> tuple[float, float]:
    """The winner's and the loser's new ratings after a rated match to ``match_length``."""
    if match_length < 1:
        raise ValueError(f"a match is played to at least 1 point, not {match_length}")
    p_upset = upset_probability(winner_rating - loser_rating, match_length)
    favourite_won = winner_rating >= loser_rating
    p = p_upset if favourite_won else 1.0 - p_upset
    swing = 4.0 * math.sqrt(match_length) * p
    return (
        winner_rating + experience_factor(winner_experience) * swing,
        loser_rating - experience_factor(loser_experience) * swing,
    )
