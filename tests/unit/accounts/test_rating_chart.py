"""The rating chart's geometry: round grid lines, points inside the plot, sparse labels."""

from __future__ import annotations

import itertools

from accounts.rating_chart import rating_chart


def test_no_history_draws_no_line() -> None:
    chart = rating_chart([])

    assert chart.points == ()
    assert chart.polyline == ""
    assert chart.last is None


def test_points_run_left_to_right_and_higher_ratings_sit_higher() -> None:
    chart = rating_chart([("start", 1500.0), ("1", 1522.4), ("2", 1510.0), ("3", 1540.9)])

    xs = [point.x for point in chart.points]
    assert xs == sorted(xs)
    assert xs[0] == chart.left
    assert xs[-1] == chart.right
    assert chart.points[3].y < chart.points[1].y < chart.points[2].y < chart.points[0].y
    assert all(chart.top <= point.y <= chart.bottom for point in chart.points)
    assert chart.last is not None
    assert chart.last.rating == "1540.9"


def test_grid_lines_are_round_numbers_covering_every_rating() -> None:
    chart = rating_chart([("a", 1487.3), ("b", 1563.8)])

    values = [float(tick.label) for tick in chart.y_ticks]
    assert values[0] <= 1487.3
    assert values[-1] >= 1563.8
    assert 2 <= len(values) <= 6
    steps = {b - a for a, b in itertools.pairwise(values)}
    assert len(steps) == 1
    step = steps.pop()
    assert all(value % step == 0 for value in values)


def test_a_single_rating_is_centred_with_a_band_around_it() -> None:
    chart = rating_chart([("now", 1500.0)])

    assert chart.points[0].x == (chart.left + chart.right) / 2
    assert chart.top < chart.points[0].y < chart.bottom


def test_a_long_history_labels_at_most_five_matches_including_first_and_last() -> None:
    history = [(str(n), 1500.0 + n) for n in range(40)]

    chart = rating_chart(history)

    labels = [tick.label for tick in chart.x_ticks]
    assert len(labels) == 5
    assert labels[0] == "0"
    assert labels[-1] == "39"


def test_matches_on_the_same_day_share_one_date_label() -> None:
    chart = rating_chart(
        [("Start", 1500.0), ("3 Nov", 1510.0), ("3 Nov", 1505.0), ("4 Nov", 1508.0)]
    )

    assert [tick.label for tick in chart.x_ticks] == ["Start", "3 Nov", "4 Nov"]
