"""The geometry of a rating history chart, ready for a server-rendered SVG.

A *rating history* is the rating a player started from followed by their rating after
each rated match, oldest first. The chart puts rated matches along the x axis (evenly
spaced, so a busy weekend does not squash into one pixel) and the rating up the y axis,
with round-numbered grid lines chosen to fit the values.

Pure Python: no Django; the template only draws what this computes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Grid steps tried, smallest first, until at most MAX_TICKS lines cover the values.
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
MAX_TICKS = 6


@dataclass(frozen=True)
class Tick:
    label: str
    position: float


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    label: str
    rating: str


@dataclass(frozen=True)
class RatingChart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    points: tuple[ChartPoint, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of the SVG polyline."""
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)

    @property
    def area(self) -> str:
        """A closed path under the line, for a soft fill."""
        if not self.points:
            return ""
        first, last = self.points[0], self.points[-1]
        line = " ".join(f"L{p.x:.1f},{p.y:.1f}" for p in self.points[1:])
        return (
            f"M{first.x:.1f},{self.bottom:.1f} L{first.x:.1f},{first.y:.1f} {line} "
            f"L{last.x:.1f},{self.bottom:.1f} Z"
        )

    @property
    def last(self) -> ChartPoint | None:
        return self.points[-1] if self.points else None


def rating_chart(
    history: Sequence[tuple[str, float]],
    *,
    width: int = 640,
    height: int = 240,
    margin_left: int = 52,
    margin_right: int = 64,
    margin_top: int = 18,
    margin_bottom: int = 34,
) -> RatingChart:
    """Lay out ``history``, a sequence of (x label, rating), oldest first."""
    left, right = float(margin_left), float(width - margin_right)
    top, bottom = float(margin_top), float(height - margin_bottom)
    if not history:
        return RatingChart(width, height, left, right, top, bottom, (), (), ())
    ratings = [rating for _, rating in history]
    low, high, step = _grid(min(ratings), max(ratings))

    def y_of(rating: float) -> float:
        return bottom - (rating - low) / (high - low) * (bottom - top)

    count = len(history)
    if count == 1:
        xs = [(left + right) / 2]
    else:
        xs = [left + index * (right - left) / (count - 1) for index in range(count)]
    points = tuple(
        ChartPoint(x=x, y=y_of(rating), label=label, rating=f"{rating:.1f}")
        for x, (label, rating) in zip(xs, history, strict=True)
    )
    y_ticks = tuple(
        Tick(label=f"{value:g}", position=y_of(value)) for value in _frange(low, high, step)
    )
    x_ticks: list[Tick] = []
    for index in _label_indexes(count):
        # Several matches on one day share a label: show it once.
        if not x_ticks or x_ticks[-1].label != history[index][0]:
            x_ticks.append(Tick(label=history[index][0], position=xs[index]))
    return RatingChart(width, height, left, right, top, bottom, points, y_ticks, tuple(x_ticks))


def _grid(low: float, high: float) -> tuple[float, float, float]:
    """A round-numbered range covering [low, high] and its grid step."""
    if high - low < 1:
        low, high = low - 5, high + 5
    for step in NICE_STEPS:
        start = math.floor(low / step) * step
        stop = math.ceil(high / step) * step
        if (stop - start) / step <= MAX_TICKS - 1:
            break
    if stop == start:
        stop = start + step
    return float(start), float(stop), float(step)


def _frange(start: float, stop: float, step: float) -> list[float]:
    count = round((stop - start) / step)
    return [start + index * step for index in range(count + 1)]


def _label_indexes(count: int) -> list[int]:
    """At most five x labels, always the first and the last."""
    if count <= 5:
        return list(range(count))
    return sorted({round(index * (count - 1) / 4) for index in range(5)})
