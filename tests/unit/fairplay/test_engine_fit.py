"""The arithmetic of engine assistance: the platform's PR fit, a window's verdict, think times."""

from __future__ import annotations

import json
import math
import random

import pytest

from fairplay.detectors.engine_fit import (
    FIT_MIN_PLAYERS,
    PRIOR,
    THINK_MIN_PLAYS,
    FitPoint,
    MatchFigures,
    PrFit,
    ThinkTimes,
    Thresholds,
    Window,
    figures_of,
    pr_fit_of,
    think_times_of,
)

DEFAULTS = Thresholds(min_decisions=150, z=3.5, agreement=0.97)
STEADY = think_times_of([4.0, 9.0] * 40)  # a person's spread: no sign


def population(
    players: int,
    *,
    matches: int = 4,
    slope: float = -0.02,
    player_sd: float = 2.0,
    decision_sd: float = 25.0,
    seed: int = 3,
) -> list[FitPoint]:
    """Players rated 1300 to 1900 whose PR lies on ``10 + slope * (rating - 1500)``, each
    off it by ``player_sd``, each match off their own by its decisions."""
    rng = random.Random(seed)
    points = []
    for player in range(players):
        rating = rng.uniform(1300.0, 1900.0)
        own = 10.0 + slope * (rating - 1500.0) + rng.gauss(0.0, player_sd)
        for _ in range(matches):
            decisions = rng.randint(50, 150)
            pr = own + rng.gauss(0.0, decision_sd / math.sqrt(decisions))
            points.append(FitPoint(player, rating, pr * decisions / 500, decisions))
    return points


def test_the_fit_finds_the_line_and_both_spreads_of_a_population() -> None:
    fit = pr_fit_of(population(400))

    assert fit.prior is False
    assert (fit.points, fit.players) == (1600, 400)
    assert fit.slope == pytest.approx(-0.02, abs=0.002)
    assert fit.expected(1500.0) == pytest.approx(10.0, abs=0.3)
    assert fit.player_sd == pytest.approx(2.0, abs=0.3)
    assert fit.decision_sd == pytest.approx(25.0, abs=2.0)


def test_the_prior_stands_until_thirty_players_have_two_matches() -> None:
    assert FIT_MIN_PLAYERS == 30
    assert pr_fit_of(population(29, matches=2)) is PRIOR
    assert pr_fit_of(population(500, matches=1)) is PRIOR  # no one seen twice
    assert pr_fit_of(population(30, matches=2)).prior is False


def test_ratings_that_do_not_vary_give_no_slope() -> None:
    points = [FitPoint(p.player, 1500.0, p.error, p.decisions) for p in population(50, slope=0.0)]

    fit = pr_fit_of(points)

    assert fit.slope == 0.0
    assert fit.intercept == pytest.approx(
        500 * sum(p.error for p in points) / sum(p.decisions for p in points)
    )


def test_a_windows_spread_shrinks_with_its_decisions_to_the_players_own() -> None:
    own, one = PRIOR.player_sd, PRIOR.decision_sd
    assert PRIOR.window_sd(100) == pytest.approx(math.sqrt(own**2 + one**2 / 100))
    assert PRIOR.window_sd(100) > PRIOR.window_sd(1000) > PRIOR.window_sd(100_000) > own
    assert PRIOR.window_sd(10**9) == pytest.approx(own, abs=1e-3)
    lucky_only = PrFit(10.0, 0.0, 0.0, 25.0, 100, 40, prior=False)
    assert lucky_only.window_sd(400) == pytest.approx(25.0 / 20)


def window(
    *,
    pr: float,
    agreement: float,
    decisions: int = 200,
    rating: float = 1500.0,
    fit: PrFit = PRIOR,
    think: ThinkTimes = STEADY,
) -> Window:
    """Ten matches of ``decisions / 10`` checker plays each at ``pr`` and ``agreement``."""
    each = decisions // 10
    best = round(agreement * each * 10)
    matches = tuple(
        MatchFigures(
            match_id=number,
            finished_at="2025-01-01T12:00:00+00:00",
            opponent="someone",
            plies=2,
            error=pr * each / 500,
            decisions=each,
            checker_plays=each,
            checker_best=best // 10 + (number < best % 10),
            cube_decisions=0,
            cube_best=0,
        )
        for number in range(10)
    )
    return Window(matches=matches, rating=rating, fit=fit, think=think, thresholds=DEFAULTS)


TIGHT = PrFit(
    intercept=40.0,
    slope=-0.02,
    player_sd=1.5,
    decision_sd=20.0,
    points=900,
    players=300,
    prior=False,
)


@pytest.mark.parametrize(
    ("figures", "assessed", "improbable_pr", "engine_agreement"),
    [
        (window(pr=6.0, agreement=1.0), True, False, True),
        (window(pr=6.0, agreement=0.97), True, False, True),  # the threshold itself counts
        (window(pr=6.0, agreement=0.965), True, False, False),
        (window(pr=0.0, agreement=0.8), True, True, False),  # a newcomer's PR alone, the prior
        (window(pr=0.0, agreement=1.0, decisions=140), False, False, False),  # too few
        (window(pr=1.5, agreement=0.8, rating=1350.0, fit=TIGHT), True, True, False),
        (window(pr=1.5, agreement=0.8, rating=1900.0, fit=TIGHT), True, False, False),
        (window(pr=9.0, agreement=0.6, rating=1500.0, fit=TIGHT), True, False, False),
    ],
)
def test_a_window_is_flagged_by_agreement_or_by_a_pr_improbable_for_the_rating(
    figures: Window, assessed: bool, improbable_pr: bool, engine_agreement: bool
) -> None:
    assert figures.assessed is assessed
    assert figures.improbable_pr is improbable_pr
    assert figures.engine_agreement is engine_agreement
    assert figures.flagged is (improbable_pr or engine_agreement)


def test_the_pr_test_sits_exactly_at_the_threshold() -> None:
    fit = PrFit(
        intercept=10.0,
        slope=0.0,
        player_sd=2.0,
        decision_sd=0.0,
        points=90,
        players=30,
        prior=False,
    )
    # log((PR + 1) / 11) * 11 / 2 = -3.5
    at_threshold = 11.0 * math.exp(-7.0 / 11.0) - 1.0
    assert window(pr=at_threshold, agreement=0.5, fit=fit).z == pytest.approx(-3.5)
    assert window(pr=at_threshold - 0.02, agreement=0.5, fit=fit).improbable_pr is True
    assert window(pr=at_threshold + 0.02, agreement=0.5, fit=fit).improbable_pr is False


def test_the_pr_test_reads_a_pr_on_a_log_scale_near_the_plain_one_at_the_usual_pr() -> None:
    fit = PrFit(10.0, 0.0, 2.0, 0.0, 90, 30, prior=False)
    # near the usual PR, about the plain (PR - expected) / sd
    assert window(pr=9.5, agreement=0.5, fit=fit).z == pytest.approx(-0.25, abs=0.01)
    # far from it, a fifth of the usual PR (+1) as improbable as five times it
    low = window(pr=11.0 / 5 - 1, agreement=0.5, fit=fit).z
    high = window(pr=11.0 * 5 - 1, agreement=0.5, fit=fit).z
    assert low is not None
    assert high is not None
    assert low == pytest.approx(-high)
    assert window(pr=0.0, agreement=0.5, fit=fit).z == pytest.approx(math.log(1 / 11) * 11 / 2)


def test_near_constant_think_times_are_a_sign_but_never_a_case_alone() -> None:
    relayed = think_times_of([12.0, 13.0, 14.0] * 30)
    figures = window(pr=9.0, agreement=0.6, think=relayed)

    assert relayed.near_constant is True
    assert figures.flagged is False
    assert any("near-constant think times" in sign for sign in figures.signs())
    both = window(pr=0.0, agreement=1.0, think=relayed)
    assert both.flagged is True
    assert "near-constant think times (CV 0.06)" in both.summary("deep")


@pytest.mark.parametrize(
    ("seconds", "near_constant"),
    [
        ([12.0, 13.0, 14.0] * 30, True),  # CV 0.06
        ([10.0, 14.0] * 30, True),  # CV 0.17
        ([2.0, 5.0, 30.0, 8.0] * 20, False),  # a person: quick, then a long think
        ([12.0, 13.0, 14.0] * ((THINK_MIN_PLAYS - 1) // 3), False),  # too few to say
        ([], False),
    ],
)
def test_think_times_are_near_constant_when_their_spread_is_small_against_their_mean(
    seconds: list[float], near_constant: bool
) -> None:
    assert think_times_of(seconds).near_constant is near_constant


def test_think_times_give_mean_spread_and_median() -> None:
    times = think_times_of([1.0, 2.0, 3.0, 10.0])
    assert (times.plays, times.mean, times.median) == (4, 4.0, 2.5)
    assert times.cv == pytest.approx(times.sd / 4.0)
    assert think_times_of([5.0]).cv is None


def decision(
    seat: int, kind: str, played: str, best: str, error: float, *, forced: bool = False
) -> dict[str, object]:
    return {
        "seat": seat,
        "kind": kind,
        "played": played,
        "best": best,
        "error": error,
        "forced": forced,
    }


def test_a_players_figures_count_unforced_checker_plays_and_cube_decisions_apart() -> None:
    result = {
        "players": [{"error": 0.123, "decisions": 5}, {"error": 0.5, "decisions": 9}],
        "decisions": [
            decision(0, "checker", "13/11 6/5", "13/11 6/5", 0.0),
            decision(0, "checker", "6/5 13/11", "13/11 6/5", 0.0),  # the same play, written so
            decision(0, "checker", "24/23 13/11", "13/11 6/5", 0.08),
            decision(0, "checker", "bar/22", "bar/22", 0.0, forced=True),
            decision(0, "cube", "take", "take", 0.0),
            decision(0, "cube", "no double", "double", 0.05),
            decision(1, "checker", "8/5 6/5", "8/5 6/5", 0.0),
        ],
    }

    figures = figures_of(result, 0, match_id=7, finished_at="", opponent="bruno", plies=2)

    assert (figures.checker_plays, figures.checker_best) == (3, 2)
    assert (figures.cube_decisions, figures.cube_best) == (2, 1)
    assert (figures.error, figures.decisions) == (0.123, 5)
    assert figures.to_dict()["pr"] == 12.3


def test_the_evidence_is_plain_json_with_the_fit_and_the_thresholds() -> None:
    figures = window(pr=0.5, agreement=0.99)

    evidence = json.loads(json.dumps(figures.evidence()))

    assert evidence["thresholds"] == {"min_decisions": 150, "z": 3.5, "agreement": 0.97}
    assert evidence["fit"]["prior"] is True
    assert evidence["fit"]["pr_at_1500"] == round(PRIOR.intercept, 2)
    assert evidence["decisions"] == 200
    assert evidence["agreement"] == 0.99
    assert evidence["expected_pr"] == round(PRIOR.intercept, 2)
    usual = PRIOR.intercept + 1.0
    assert evidence["z"] == pytest.approx(
        math.log(1.5 / usual) * usual / PRIOR.window_sd(200), abs=0.01
    )
    assert len(evidence["window"]) == 10
    assert evidence["signs"] == figures.signs()
    assert len(figures.signs()) == 2  # the agreement, and the PR a newcomer does not play
    assert figures.summary("deep").startswith("deep: 99% of 200 unforced checker plays")
