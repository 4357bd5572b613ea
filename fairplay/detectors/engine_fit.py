"""Engine assistance, the arithmetic: a player's window of analysed matches set against what
the platform's own players of their rating do. Plain values in, frozen dataclasses out, no
database: :mod:`fairplay.detectors.engine_use` reads the rows and opens the case.

Terms:

* *window*: a player's last ``ENGINE_WINDOW`` analysed matches, oldest first.
* *decisions*: GNU Backgammon's count that PR divides by, unforced moves and close cube
  decisions (:mod:`analysis.match_analysis`). The *PR* of a window is
  ``500 * sum(error) / sum(decisions)``, as on the profile (:mod:`accounts.performance`).
* *agreement*: the share of a player's unforced checker plays that were GNU Backgammon's
  best play at the depth the match was analysed at. A play of the same equity as the best
  (error 0 to the four decimals an analysis keeps) is a best play too: the two differ only
  in how they are written. Cube decisions are counted apart (*cube agreement*) and not
  tested: most of them are no-doubles anyone gets right.
* *fit*: the PR the platform's players show at a rating, ``intercept + slope * rating``,
  with the spreads around it that :class:`PrFit` describes.
* *z*: how many standard deviations a window's PR lies above (+) or below (-) the fit's PR
  for the player's rating, on the scale of ``log(PR + PR_FLOOR)`` (:attr:`Window.z`); *p*
  the chance, under the fit, of a human window that low.
* *think time*: seconds from a player's own roll to their play of it, unforced plays only.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

FIT_MIN_PLAYERS = 30
"""Players with two analysed matches or more the fit needs; until then, :data:`PRIOR`."""
FIT_MIN_RATING_SD = 10.0
"""Below this spread of ratings (points) the data say nothing of a slope: it is 0."""
PR_FLOOR = 1.0
"""PR points added before the logarithm of :attr:`Window.z`: a window's PR of 0 (every
decision the engine's own) stays finite, and PRs below one point, which only engines and
the luckiest short windows reach, are told apart no further."""
THINK_MIN_PLAYS = 50
"""Unforced plays with a think time before their spread is read as a sign."""
THINK_NEAR_CONSTANT_CV = 0.3
"""Think times whose standard deviation is below this share of their mean are
near-constant. A person takes two seconds over an obvious play and half a minute over a
hard one (a spread about as large as the mean, or larger); someone relaying each position
to a program and its answer back takes about the same time every turn."""


@dataclass(frozen=True)
class PrFit:
    """PR against rating over the platform's analysed matches, and how far humans stray.

    ``PR = intercept + slope * rating``, by least squares over every (player, match) with
    each match weighted by its decisions. Around the line, two spreads in PR points:

    * ``player_sd``: how far one player's long-run PR lies from the line at their rating.
      A rating measures results, not error rates, and a new player's rating says little,
      so no number of matches makes this part go away;
    * ``decision_sd``: the spread of a single decision's contribution to a PR. Decisions
      are taken as independent, so ``D`` of them vary by ``decision_sd / sqrt(D)`` around
      the player's own PR, whatever the lengths of the matches they came from.

    A window of ``D`` decisions therefore has ``sd = sqrt(player_sd**2 + decision_sd**2 / D)``
    about the line. (The shortcut "residual sd of one match / sqrt(matches)" is the special
    case ``player_sd = 0``: it would call every strong player with a modest rating
    improbable once they have played enough.)

    Estimated by moments, players as groups: ``decision_sd**2`` is the decision-weighted
    spread of each player's matches about their own mean residual, over the degrees of
    freedom; ``player_sd**2`` is the mean square of the players' mean residuals less what
    their own decisions explain. Until :data:`FIT_MIN_PLAYERS` players have two matches,
    the fit is :data:`PRIOR` and says so (``prior``).
    """

    intercept: float
    slope: float
    player_sd: float
    decision_sd: float
    points: int
    players: int
    prior: bool

    def expected(self, rating: float) -> float:
        return self.intercept + self.slope * rating

    def window_sd(self, decisions: int) -> float:
        return math.sqrt(self.player_sd**2 + self.decision_sd**2 / max(decisions, 1))

    def to_dict(self) -> dict[str, Any]:
        return {
            "intercept": round(self.intercept, 4),
            "slope": round(self.slope, 6),
            "pr_at_1500": round(self.expected(1500.0), 2),
            "player_sd": round(self.player_sd, 3),
            "decision_sd": round(self.decision_sd, 3),
            "points": self.points,
            "players": self.players,
            "prior": self.prior,
            "formula": "PR = intercept + slope * rating; sd = sqrt(player_sd² + decision_sd²/D)",
        }


PRIOR = PrFit(
    intercept=10.4, slope=0.0, player_sd=6.3, decision_sd=21.4, points=0, players=0, prior=True
)
"""What the detector assumes before the platform has data, measured on real human matches
from two online rooms (bench/bench_fairplay_calibration.py, 59 matches and 57 players; the
files carry no rating, so the prior is what the players show at any rating): their own PRs
average 10.4, spread 6.3 about it once the noise of their own decisions is taken out (a
long tail of weak players: the median is 8.6), and one decision adds a spread of 21 PR
points. With the PR test on a log scale (:attr:`Window.z`), a newcomer's PR below 0.07
over 80 decisions, 0.1 over 100 or 0.2 over 400 is improbable enough for the default
``ENGINE_Z`` (4.0): what an engine at the analysis depth plays; the set's people came no
lower than 1.4 over a window of 80 decisions or more."""


@dataclass(frozen=True)
class FitPoint:
    """One player's figures for one analysed match, at the rating they had then."""

    player: int
    rating: float
    error: float
    decisions: int


def pr_fit_of(points: Sequence[FitPoint]) -> PrFit:
    """The fit over ``points``; :data:`PRIOR` while too few players have two of them."""
    points = [point for point in points if point.decisions > 0]
    by_player: dict[int, list[FitPoint]] = defaultdict(list)
    for point in points:
        by_player[point.player].append(point)
    if sum(1 for rows in by_player.values() if len(rows) >= 2) < FIT_MIN_PLAYERS:
        return PRIOR
    weight = sum(point.decisions for point in points)
    mean_rating = sum(point.decisions * point.rating for point in points) / weight
    mean_pr = 500 * sum(point.error for point in points) / weight
    sxx = sum(point.decisions * (point.rating - mean_rating) ** 2 for point in points)
    sxy = sum(
        point.decisions * (point.rating - mean_rating) * (_pr(point) - mean_pr) for point in points
    )
    slope = sxy / sxx if sxx / weight >= FIT_MIN_RATING_SD**2 else 0.0
    intercept = mean_pr - slope * mean_rating

    within, freedom, between = 0.0, 0, []
    for rows in by_player.values():
        residuals = [(_pr(row) - intercept - slope * row.rating, row.decisions) for row in rows]
        decisions = sum(d for _, d in residuals)
        mean = sum(r * d for r, d in residuals) / decisions
        within += sum(d * (r - mean) ** 2 for r, d in residuals)
        freedom += len(rows) - 1
        between.append((mean, decisions))
    decision_var = within / freedom
    player_var = sum(mean**2 - decision_var / d for mean, d in between) / max(len(between) - 2, 1)
    return PrFit(
        intercept=intercept,
        slope=slope,
        player_sd=math.sqrt(max(player_var, 0.0)),
        decision_sd=math.sqrt(decision_var),
        points=len(points),
        players=len(by_player),
        prior=False,
    )


def _pr(point: FitPoint) -> float:
    return 500 * point.error / point.decisions


@dataclass(frozen=True)
class MatchFigures:
    """What one analysed match says of one player."""

    match_id: int
    finished_at: str
    opponent: str
    plies: int
    error: float
    decisions: int
    checker_plays: int
    checker_best: int
    cube_decisions: int
    cube_best: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "match": self.match_id,
            "finished_at": self.finished_at,
            "opponent": self.opponent,
            "plies": self.plies,
            "pr": _rounded(500 * self.error / self.decisions if self.decisions else None, 2),
            "decisions": self.decisions,
            "checker_plays": self.checker_plays,
            "checker_best": self.checker_best,
            "agreement": _rounded(_share(self.checker_best, self.checker_plays), 4),
            "cube_decisions": self.cube_decisions,
            "cube_best": self.cube_best,
        }


def figures_of(
    result: Mapping[str, Any],
    seat: int,
    *,
    match_id: int,
    finished_at: str,
    opponent: str,
    plies: int,
) -> MatchFigures:
    """``seat``'s figures from an analysis ``result`` (the shape :mod:`reviews.results`
    gives)."""
    player = result["players"][seat]
    checker = [
        d
        for d in result["decisions"]
        if d["seat"] == seat and d["kind"] == "checker" and not d["forced"]
    ]
    cube = [d for d in result["decisions"] if d["seat"] == seat and d["kind"] == "cube"]
    return MatchFigures(
        match_id=match_id,
        finished_at=finished_at,
        opponent=opponent,
        plies=plies,
        error=float(player["error"]),
        decisions=int(player["decisions"]),
        checker_plays=len(checker),
        checker_best=sum(1 for d in checker if _is_best(d)),
        cube_decisions=len(cube),
        cube_best=sum(1 for d in cube if _is_best(d)),
    )


def _is_best(decision: Mapping[str, Any]) -> bool:
    return bool(decision["played"] == decision["best"] or decision["error"] == 0)


@dataclass(frozen=True)
class ThinkTimes:
    plays: int
    mean: float | None
    sd: float | None
    median: float | None

    @property
    def cv(self) -> float | None:
        """Coefficient of variation: the standard deviation as a share of the mean."""
        if self.mean is None or self.sd is None or self.mean <= 0:
            return None
        return self.sd / self.mean

    @property
    def near_constant(self) -> bool:
        cv = self.cv
        return self.plays >= THINK_MIN_PLAYS and cv is not None and cv < THINK_NEAR_CONSTANT_CV

    def to_dict(self) -> dict[str, Any]:
        return {
            "plays": self.plays,
            "mean_seconds": _rounded(self.mean, 2),
            "sd_seconds": _rounded(self.sd, 2),
            "median_seconds": _rounded(self.median, 2),
            "cv": _rounded(self.cv, 3),
            "near_constant": self.near_constant,
            "near_constant_below_cv": THINK_NEAR_CONSTANT_CV,
            "min_plays": THINK_MIN_PLAYS,
        }


def think_times_of(seconds: Sequence[float]) -> ThinkTimes:
    if len(seconds) < 2:
        return ThinkTimes(plays=len(seconds), mean=None, sd=None, median=None)
    return ThinkTimes(
        plays=len(seconds),
        mean=statistics.fmean(seconds),
        sd=statistics.stdev(seconds),
        median=statistics.median(seconds),
    )


NO_THINK_TIMES = think_times_of([])
"""Think times where none were recorded (a match file from another site)."""


@dataclass(frozen=True)
class Thresholds:
    """``settings.FAIRPLAY``'s engine thresholds (see config/settings.py)."""

    min_decisions: int
    z: float
    agreement: float

    def to_dict(self) -> dict[str, Any]:
        return {"min_decisions": self.min_decisions, "z": self.z, "agreement": self.agreement}


@dataclass(frozen=True)
class Window:
    """A player's window, judged: ``flagged`` when it holds enough decisions and either its
    PR lies ``z`` or more standard deviations below the fit, or its agreement reaches the
    threshold. Near-constant think times are a sign in the evidence, never a case alone."""

    matches: tuple[MatchFigures, ...]
    rating: float
    fit: PrFit
    think: ThinkTimes
    thresholds: Thresholds

    @property
    def decisions(self) -> int:
        return sum(match.decisions for match in self.matches)

    @property
    def pr(self) -> float | None:
        decisions = self.decisions
        return 500 * sum(m.error for m in self.matches) / decisions if decisions else None

    @property
    def checker_plays(self) -> int:
        return sum(match.checker_plays for match in self.matches)

    @property
    def agreement(self) -> float | None:
        return _share(sum(m.checker_best for m in self.matches), self.checker_plays)

    @property
    def cube_agreement(self) -> float | None:
        return _share(
            sum(m.cube_best for m in self.matches), sum(m.cube_decisions for m in self.matches)
        )

    @property
    def expected_pr(self) -> float:
        return self.fit.expected(self.rating)

    @property
    def sd(self) -> float:
        return self.fit.window_sd(self.decisions)

    @property
    def z(self) -> float | None:
        """Standard deviations below (-) or above the fit, on a log scale.

        Humans' PRs are skewed: among the calibration set's players (bench/
        bench_fairplay_calibration.py) a PR of half the usual is common and one of a
        fifth is not seen, while twice the usual is. On PR itself, a spread as wide as the
        players' makes even a PR of 0 only a couple of standard deviations below the
        mean, so the test could never fire on a newcomer. The window's PR is therefore
        compared as ``log(PR + PR_FLOOR)``, its spread carried to that scale at the
        expected PR (``sd / (expected + PR_FLOOR)``): close to the usual PR this is the
        plain ``(PR - expected) / sd``; far below it, a window of a fifth of the usual PR
        is as improbable as one of five times it."""
        pr = self.pr
        if pr is None:
            return None
        expected = max(self.expected_pr, 0.0) + PR_FLOOR
        return math.log((pr + PR_FLOOR) / expected) * expected / self.sd

    @property
    def p(self) -> float | None:
        z = self.z
        return None if z is None else statistics.NormalDist().cdf(z)

    @property
    def assessed(self) -> bool:
        return self.decisions >= self.thresholds.min_decisions

    @property
    def improbable_pr(self) -> bool:
        z = self.z
        return self.assessed and z is not None and z <= -self.thresholds.z

    @property
    def engine_agreement(self) -> bool:
        agreement = self.agreement
        return self.assessed and agreement is not None and agreement >= self.thresholds.agreement

    @property
    def flagged(self) -> bool:
        return self.improbable_pr or self.engine_agreement

    def signs(self) -> list[str]:
        signs = []
        if self.engine_agreement:
            signs.append(
                f"{self.agreement:.1%} of {self.checker_plays} unforced checker plays were "
                f"GNU Backgammon's best (threshold {self.thresholds.agreement:.0%})"
            )
        if self.improbable_pr:
            signs.append(
                f"PR {self.pr:.2f} is {-(self.z or 0.0):.1f} standard deviations below the "
                f"{self.expected_pr:.1f} usual at rating {self.rating:.0f} "
                f"(threshold {self.thresholds.z})"
            )
        if self.think.near_constant:
            signs.append(
                f"near-constant think times: {self.think.mean:.1f} s ± {self.think.sd:.1f} s "
                f"over {self.think.plays} plays"
            )
        return signs

    def summary(self, username: str) -> str:
        think = (
            f"; near-constant think times (CV {self.think.cv:.2f})"
            if self.think.near_constant
            else ""
        )
        return (
            f"{username}: {self.agreement or 0.0:.0%} of {self.checker_plays} unforced checker "
            f"plays were GNU Backgammon's best, PR {self.pr or 0.0:.1f} over "
            f"{len(self.matches)} matches where {self.expected_pr:.1f} ± {self.sd:.1f} is usual "
            f"at rating {self.rating:.0f} (z {self.z or 0.0:+.1f}){think}"
        )

    def evidence(self) -> dict[str, Any]:
        return {
            "window": [match.to_dict() for match in self.matches],
            "matches": len(self.matches),
            "decisions": self.decisions,
            "pr": _rounded(self.pr, 2),
            "checker_plays": self.checker_plays,
            "agreement": _rounded(self.agreement, 4),
            "cube_decisions": sum(match.cube_decisions for match in self.matches),
            "cube_agreement": _rounded(self.cube_agreement, 4),
            "rating": round(self.rating, 1),
            "expected_pr": round(self.expected_pr, 2),
            "sd": round(self.sd, 3),
            "z": _rounded(self.z, 2),
            "p": _rounded(self.p, 8),
            "fit": self.fit.to_dict(),
            "think_times": self.think.to_dict(),
            "signs": self.signs(),
            "thresholds": self.thresholds.to_dict(),
        }


def _share(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)
