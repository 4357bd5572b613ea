"""Every decision of a real match, analysed at the default depth through the warm engine, is
the one GNU Backgammon's own ``analyse match`` gives: the best play, the played one's error
and the cube verdict, read back from the program's text export (tests/gnubg_exported.py).

Slow: each match is analysed twice at 2-ply, by us and by a separate ``gnubg -t``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from django.conf import settings

from analysis.cube_decisions import CubeVerdict
from analysis.gnubg_process import GnubgProcess
from analysis.match_analysis import MatchAnalysis
from tests.gnubg_exported import Exported, differences, exported_match

pytestmark = pytest.mark.slow

MAT = Path(__file__).parents[2] / "data" / "mat"
REAL = MAT / "real"
MATCHES = ["bglab_lasse_match1988527", "bglab_lasse_match3851392"]
Analysed = tuple[MatchAnalysis, list[list[Exported]]]


@pytest.fixture(scope="module", params=MATCHES)
def analysed(request: pytest.FixtureRequest, engine: GnubgProcess) -> Analysed:
    """Our analysis at the site's depth (2-ply by default) and the program's export."""
    path = REAL / f"{request.param}.mat"
    ours = engine.analyse_match(path.read_text(), plies=settings.ANALYSIS_PLIES)
    return ours, exported_match(path, settings.ANALYSIS_PLIES)


def test_every_decision_is_gnubgs(analysed: Analysed) -> None:
    ours, gnubg = analysed

    found = differences(ours, gnubg)

    assert [str(difference) for difference in found] == []
    kinds = {(decision.kind, decision.action) for decision in ours.decisions}
    assert {("checker", "move"), ("cube", "double")} <= kinds
    assert kinds & {("cube", "take"), ("cube", "drop")}


def test_a_decision_unlike_gnubgs_is_reported(analysed: Analysed) -> None:
    # given our analysis with one checker play's error, one's best play and one cube
    # verdict changed
    ours, gnubg = analysed
    games = list(ours.games)
    first = games[0]
    decisions = list(first.decisions)
    plays = [i for i, d in enumerate(decisions) if d.kind == "checker" and len(d.candidates) > 1]
    cube = next(i for i, d in enumerate(decisions) if d.kind == "cube")
    error_at, best_at = plays[0], plays[1]
    decisions[error_at] = replace(decisions[error_at], error=decisions[error_at].error + 0.0001)
    decisions[best_at] = replace(decisions[best_at], best=decisions[best_at].candidates[1].move)
    other = {"double": "no double", "no double": "double", "take": "drop", "drop": "take"}
    judged = decisions[cube].cube
    assert judged is not None
    wrong = next(verdict for verdict in CubeVerdict if verdict != judged.verdict)
    decisions[cube] = replace(
        decisions[cube],
        best=other.get(decisions[cube].best, "double"),
        cube=replace(judged, verdict=wrong),
    )
    games[0] = replace(first, decisions=tuple(decisions))
    changed = replace(ours, games=tuple(games))

    # when it is compared with the program's
    found = differences(changed, gnubg)

    # then exactly those three are reported
    assert {(d.game, d.number, d.field) for d in found} == {
        (1, decisions[error_at].number, "error"),
        (1, decisions[best_at].number, "best"),
        (1, decisions[cube].number, "verdict"),
    }


def test_a_roll_the_import_gives_the_same_player_twice_is_shown_from_his_side(
    engine: GnubgProcess,
) -> None:
    # given a game whose last row GNU Backgammon's import reads twice (a Backgammon Galaxy
    # "Losses" row after it), so that Bob plays his 65 twice in a row
    path = MAT / "one_player_rolls_twice.mat"

    # when it is analysed by us and by the program
    ours = engine.analyse_match(path.read_text(), plies=0)
    gnubg = exported_match(path, 0)

    # then every decision is the program's, the second 65's position and plays included
    assert [str(difference) for difference in differences(ours, gnubg)] == []
    first, second = [decision for decision in ours.decisions if decision.kind == "checker"][-2:]
    assert (first.player, first.dice, second.player, second.dice) == (1, (6, 5), 1, (6, 5))
    assert first.position_id != second.position_id
