"""Where two cube actions are worth the same, the best one is the one GNU Backgammon names.

GNU Backgammon's proper cube action (``FindBestCubeDecision`` in its eval.c) is a double
when double/take and double/pass are both worth at least the no-double, and a pass when
double/pass is worth no less to the doubler than double/take: a tie goes to the double and
to the pass. (A money game's last roll to bear off both checkers is such a tie: doubling
wins the point the player wins anyway; GNU Backgammon says "Double, pass".)
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from analysis.match_analysis import Decision, match_analysis

SAMPLE = Path(__file__).parents[2] / "data" / "mat" / "crawford_3pt.analysis.json"
GAME, DOUBLE, TAKE = 2, 2, 3  # the sample's one double and its take, in its third game


def cube_decisions(emg: list[float], mwc: list[float]) -> tuple[Decision, Decision]:
    """The sample's double and take with their three equities replaced."""
    answer: dict[str, Any] = copy.deepcopy(json.loads(SAMPLE.read_text()))
    for index in (DOUBLE, TAKE):
        cube = answer["actions"][GAME][index]["cube"]
        answer["actions"][GAME][index]["cube"] = {**cube, "emg": emg, "mwc": mwc}
    game = match_analysis(answer).games[GAME]
    double, take = (d for d in game.decisions if d.action in ("double", "take"))
    return double, take


@pytest.mark.parametrize(
    ("emg", "mwc", "best_for_doubler", "best_for_taker"),
    [
        ([1.0, 2.0, 1.0], [0.75, 0.875, 0.75], "double", "drop"),
        ([0.5, 0.8, 0.8], [0.6, 0.65, 0.65], "double", "drop"),
        ([0.5, 0.5, 1.0], [0.6, 0.6, 0.7], "double", "take"),
        ([0.5, 0.4999, 1.0], [0.6, 0.5999, 0.7], "no double", "take"),
    ],
)
def test_a_tie_goes_to_the_double_and_to_the_pass(
    emg: list[float], mwc: list[float], best_for_doubler: str, best_for_taker: str
) -> None:
    double, take = cube_decisions(emg, mwc)

    assert (double.best, take.best) == (best_for_doubler, best_for_taker)
    assert double.error == 0.0 if best_for_doubler == "double" else double.error > 0
