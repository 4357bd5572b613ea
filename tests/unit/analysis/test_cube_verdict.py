"""The proper cube action from the doubler's no double, double/take and double/pass equities
(EMG), as GNU Backgammon's ``FindBestCubeDecision`` names it: every verdict on hand-made
triples, and when the doubler may double at all."""

from __future__ import annotations

import pytest

from analysis.cube_decisions import (
    CubeAnalysis,
    CubeRules,
    CubeVerdict,
    cube_available,
    cube_verdict,
    optimal,
    played_options,
)
from backgammon.matchid import MatchId

MATCH = CubeRules(money=False, centred=True)
MATCH_OWNED = CubeRules(money=False, centred=False)
MONEY = CubeRules(money=True, centred=True, jacoby=True)
MONEY_OWNED = CubeRules(money=True, centred=False, jacoby=True)
BEAVERS = CubeRules(money=True, centred=True, beavers=True, jacoby=True)
BEAVERS_OWNED = CubeRules(money=True, centred=False, beavers=True, jacoby=True)
NO_GAMMON = CubeRules(money=False, centred=True, gammon=False)
NO_GAMMON_OWNED = CubeRules(money=False, centred=False, gammon=False)
DEAD = CubeRules(money=False, centred=True, available=False)
DEAD_OWNED = CubeRules(money=False, centred=False, available=False)
MONEY_OPPONENTS_CUBE = CubeRules(money=True, centred=False, available=False)

V = CubeVerdict


CASES = [
    # a double the opponent should take: DP > DT >= ND
    (0.55, 0.70, 1.0, MATCH, V.DOUBLE_TAKE),
    (0.55, 0.70, 1.0, MATCH_OWNED, V.REDOUBLE_TAKE),
    (0.55, 0.70, 1.0, MONEY, V.DOUBLE_TAKE),
    # ... with the take no better than not doubling: optional
    (0.70, 0.700004, 1.0, MATCH, V.OPTIONAL_DOUBLE_TAKE),
    (0.70, 0.700004, 1.0, MATCH_OWNED, V.OPTIONAL_REDOUBLE_TAKE),
    # a double the opponent should pass: DT >= DP >= ND
    (0.90, 1.20, 1.0, MATCH, V.DOUBLE_PASS),
    (0.90, 1.20, 1.0, MATCH_OWNED, V.REDOUBLE_PASS),
    # ... cashing worth exactly playing on, with gammons to play for: optional
    (1.0, 1.30, 1.0, MATCH, V.OPTIONAL_DOUBLE_PASS),
    (1.0, 1.30, 1.0, MATCH_OWNED, V.OPTIONAL_REDOUBLE_PASS),
    (1.0, 1.30, 1.0, MONEY_OWNED, V.OPTIONAL_REDOUBLE_PASS),
    # ... but not with the Jacoby rule and the cube centred (no gammon counts) nor
    # without gammon chances
    (1.0, 1.30, 1.0, MONEY, V.DOUBLE_PASS),
    (1.0, 1.30, 1.0, NO_GAMMON, V.DOUBLE_PASS),
    # not yet good enough: DP > ND > DT
    (0.40, 0.30, 1.0, MATCH, V.NO_DOUBLE_TAKE),
    (0.40, 0.30, 1.0, MATCH_OWNED, V.NO_REDOUBLE_TAKE),
    (0.40, 0.30, 1.0, MONEY, V.NO_DOUBLE_TAKE),
    # too good: ND > DT > DP, or DT >= ND > DP (play on for the gammon)
    (1.10, 1.05, 1.0, MATCH, V.TOO_GOOD_PASS),
    (1.10, 1.40, 1.0, MATCH, V.TOO_GOOD_PASS),
    (1.10, 1.40, 1.0, MATCH_OWNED, V.TOO_GOOD_REDOUBLE_PASS),
    (1.10, 1.40, 1.0, MONEY, V.TOO_GOOD_PASS),
    # ... which without gammon chances is a double, pass
    (1.10, 1.40, 1.0, NO_GAMMON, V.DOUBLE_PASS),
    (1.10, 1.05, 1.0, NO_GAMMON_OWNED, V.REDOUBLE_PASS),
    # too good, take: ND > DP >= DT
    (1.10, 0.95, 1.0, MATCH, V.TOO_GOOD_TAKE),
    (1.10, 0.95, 1.0, MATCH_OWNED, V.TOO_GOOD_REDOUBLE_TAKE),
    (1.10, 0.95, 1.0, NO_GAMMON, V.NO_DOUBLE_TAKE),
    # beavers: the take leaves the doubler at or below 0
    (-0.20, -0.05, 1.0, BEAVERS, V.DOUBLE_BEAVER),
    (-0.20, -0.05, 1.0, BEAVERS_OWNED, V.DOUBLE_BEAVER),
    (-0.000004, 0.0, 1.0, BEAVERS, V.OPTIONAL_DOUBLE_BEAVER),
    (-0.05, -0.04, 1.0, BEAVERS, V.NO_DOUBLE_BEAVER),  # the beaver makes it 2 × DT
    (0.10, -0.20, 1.0, BEAVERS, V.NO_DOUBLE_BEAVER),
    (0.10, -0.20, 1.0, BEAVERS_OWNED, V.NO_REDOUBLE_BEAVER),
    (0.10, -0.20, 1.0, MONEY, V.NO_DOUBLE_TAKE),  # no beavers
    (0.10, -0.20, 1.0, MATCH, V.NO_DOUBLE_TAKE),  # no beavers in match play
    (0.40, 0.30, 1.0, BEAVERS, V.NO_DOUBLE_TAKE),  # the take is still good for them
    # the cube cannot be turned
    (0.60, 0.80, 1.0, DEAD, V.NEVER_DOUBLE),
    (0.60, 0.80, 1.0, DEAD_OWNED, V.NEVER_REDOUBLE),
    (0.60, 0.80, 1.0, MONEY_OPPONENTS_CUBE, V.CUBE_UNAVAILABLE),
]


@pytest.mark.parametrize(("nd", "dt", "dp", "rules", "verdict"), CASES)
def test_the_proper_cube_action(
    nd: float, dt: float, dp: float, rules: CubeRules, verdict: CubeVerdict
) -> None:
    assert cube_verdict(nd, dt, dp, rules) is verdict


def test_every_verdict_is_reached() -> None:
    assert {verdict for *_, verdict in CASES} == set(CubeVerdict)


def test_only_the_too_good_verdicts_are_too_good() -> None:
    assert {verdict for verdict in CubeVerdict if verdict.too_good} == {
        V.TOO_GOOD_TAKE,
        V.TOO_GOOD_PASS,
        V.TOO_GOOD_REDOUBLE_TAKE,
        V.TOO_GOOD_REDOUBLE_PASS,
    }


@pytest.mark.parametrize(
    ("values", "best"),
    [
        ((0.5, 0.7, 1.0), 0.7),  # double, take: the take
        ((0.9, 1.2, 1.0), 1.0),  # double, pass: the cash
        ((1.1, 1.4, 1.0), 1.1),  # too good: playing on
        ((0.4, 0.3, 1.0), 0.4),  # no double
    ],
)
def test_the_optimal_value_is_the_best_play_of_both_sides(
    values: tuple[float, float, float], best: float
) -> None:
    assert optimal(values) == best
    assert CubeAnalysis(values, None, V.DOUBLE_TAKE, True).optimal == best


@pytest.mark.parametrize(
    ("action", "rows"),
    [
        ("no double", (True, False, False)),
        ("double", (False, True, True)),
        ("take", (False, True, False)),
        ("beaver", (False, True, False)),
        ("drop", (False, False, True)),
    ],
)
def test_the_played_action_marks_its_rows(action: str, rows: tuple[bool, bool, bool]) -> None:
    assert played_options(action) == rows


def state(**fields: object) -> MatchId:
    return MatchId(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("match_id", "doubler", "available"),
    [
        (state(length=7, score=(2, 3)), 0, True),
        (state(length=7, score=(2, 3), cube_value=2, cube_owner=0), 0, True),
        (state(length=7, score=(2, 3), cube_value=2, cube_owner=1), 0, False),
        # the Crawford game: no cube
        (state(length=7, score=(6, 3), crawford=True), 1, False),
        # after it, the trailer doubles, the leader's double is worth nothing
        (state(length=7, score=(6, 3)), 1, True),
        (state(length=7, score=(6, 3)), 0, False),
        # a cube that would already win the doubler the match is dead
        (state(length=7, score=(5, 3), cube_value=2, cube_owner=0), 0, False),
        (state(length=7, score=(4, 3), cube_value=2, cube_owner=0), 0, True),
        # money play: centred or the doubler's
        (state(), 1, True),
        (state(cube_value=4, cube_owner=1), 1, True),
        (state(cube_value=4, cube_owner=1), 0, False),
    ],
)
def test_when_the_doubler_may_double(match_id: MatchId, doubler: int, available: bool) -> None:
    assert cube_available(match_id, doubler) is available
