"""The chance of a one-way series: the tail of a Poisson binomial distribution of losses."""

from __future__ import annotations

import math

import pytest

from fairplay.detectors.dumping import one_way_series


def _rows(win_chances: list[float], lost: list[bool]) -> list[dict[str, object]]:
    return [{"win_chance": p, "lost": x} for p, x in zip(win_chances, lost, strict=True)]


def test_equal_players_losing_every_match_is_a_power_of_a_half() -> None:
    series = one_way_series(_rows([0.5] * 10, [True] * 10))
    assert series == {"matches": 10, "lost": 10, "chance": pytest.approx(0.5**10, abs=1e-6)}


def test_the_tail_counts_every_outcome_at_least_as_one_sided() -> None:
    # 8 or more losses of 10 between equals: (C(10,8) + C(10,9) + C(10,10)) / 2**10
    lost = [True] * 8 + [False] * 2
    expected = sum(math.comb(10, k) for k in (8, 9, 10)) / 2**10
    assert one_way_series(_rows([0.5] * 10, lost))["chance"] == pytest.approx(expected, abs=1e-6)


def test_different_chances_per_match_multiply_and_unknown_ones_are_left_out() -> None:
    rows = [*_rows([0.2, 0.9], [True, True]), {"win_chance": None, "lost": True}]
    series = one_way_series(rows)
    assert series["matches"] == 2
    assert series["lost"] == 2
    assert series["chance"] == pytest.approx(0.8 * 0.1, abs=1e-6)


def test_no_loss_is_certain_and_no_match_is_no_series() -> None:
    assert one_way_series(_rows([0.3, 0.6], [False, False]))["chance"] == pytest.approx(1.0)
    assert one_way_series([]) == {"matches": 0, "lost": 0, "chance": 1.0}
