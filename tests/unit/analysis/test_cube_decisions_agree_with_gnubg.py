"""Every cube decision of an analysed match carries the three equities and the proper cube
action GNU Backgammon itself prints for it.

Each .mat file is analysed at 0 ply through the warm engine and, separately, by ``gnubg -t``
(``analyse match``, then ``export match text``, tests/gnubg_printed.py), whose "Cube
analysis" blocks are read back: no double, double/take, double/pass and "Proper cube action".
GNU Backgammon prints a block for every position where the cube could be turned (the
analysis lists only the close ones) and for each answer, from the answering player's view:
there the figures are the doubler's negated, and its proper action is worked out for the
answering player, who has no gammon to play for, so a too-good double reads "Double, pass".
The analysis gives the answer the doubler's table and verdict, as the double's block.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.gnubg_process import GnubgProcess
from analysis.match_analysis import Decision, MatchAnalysis
from reviews.results import result_of
from tests.gnubg_printed import PrintedCube, printed_cube_analyses

MATS = Path(__file__).parents[2] / "data" / "mat"
PLIES = 0
PRINTED = 0.0006  # gnubg prints three decimals (two for a percentage)
RESPONSES = ("take", "drop", "beaver")


def as_printed(decision: Decision, *, mwc: bool) -> tuple[float, float, float]:
    """The decision's figures in the view gnubg prints them: the answering player's for a
    take, drop or beaver (EMG negated)."""
    assert decision.cube is not None
    values = decision.cube.mwc if mwc else decision.cube.emg
    assert values is not None
    if decision.action in RESPONSES:
        return -values[0], -values[1], -values[2]
    return values


def matched(
    analysis: MatchAnalysis, printed: list[list[PrintedCube]], *, mwc: bool = False
) -> list[tuple[Decision, PrintedCube]]:
    """Each cube decision with the printed block it is, found in order in its game."""
    pairs = []
    assert len(printed) == len(analysis.games)
    for game, blocks in zip(analysis.games, printed, strict=True):
        remaining = iter(blocks)
        for decision in game.decisions:
            # gnubg prints no block for a beaver (and none from the MWC of the answer)
            if decision.kind != "cube" or decision.action == "beaver":
                continue
            if mwc and decision.action in RESPONSES:
                continue
            ours = as_printed(decision, mwc=mwc)
            block = next(
                (
                    block
                    for block in remaining
                    if all(
                        abs(mine - shown) <= PRINTED
                        for mine, shown in zip(
                            ours,
                            (block.no_double, block.double_take, block.double_pass),
                            strict=True,
                        )
                    )
                ),
                None,
            )
            assert block is not None, f"gnubg printed no {ours} in game {game.number}: {blocks}"
            pairs.append((decision, block))
    return pairs


@pytest.mark.parametrize(
    "name", ["crawford_3pt", "seven_point", "resign_5pt", "money_session", "imports/beavers"]
)
def test_equities_and_proper_action_are_what_gnubg_prints(
    engine: GnubgProcess, tmp_path: Path, name: str
) -> None:
    path = MATS / f"{name}.mat"
    settings = ["set jacoby off"] if 'Jacoby "Off"' in path.read_text() else []

    analysis = engine.analyse_match(path.read_text(), plies=PLIES)
    pairs = matched(analysis, printed_cube_analyses(path, tmp_path, *settings, plies=PLIES))

    assert pairs, "the match has no cube decision to compare"
    printed_verdicts = {decision: block.verdict for decision, block in pairs}
    doubler_verdict = None
    for decision in analysis.decisions:
        if decision.cube is None:
            continue
        if decision.action in RESPONSES:
            assert decision.cube.verdict.value == doubler_verdict, decision
        else:
            assert decision.cube.verdict.value == printed_verdicts[decision], decision
            doubler_verdict = printed_verdicts[decision]
    if not analysis.money:
        (tmp_path / "mwc").mkdir()
        doubler_pairs = matched(
            analysis,
            printed_cube_analyses(path, tmp_path / "mwc", plies=PLIES, mwc=True),
            mwc=True,
        )
        assert len(doubler_pairs) == sum(
            d.kind == "cube" and d.action not in RESPONSES for d in analysis.decisions
        )


def test_a_known_double_and_its_take(engine: GnubgProcess, tmp_path: Path) -> None:
    # given the 3-point match's game after the Crawford game, Alice 2 and Bob 1: Bob,
    # trailing, doubles and Alice takes what gnubg calls a pass
    path = MATS / "crawford_3pt.mat"

    # when it is analysed and kept as the API gives it
    analysis = engine.analyse_match(path.read_text(), plies=PLIES)
    data = result_of(analysis, ["alice", "bob"])

    # then both decisions carry gnubg's printed figures: double/pass +1.000, double/take
    # +1.167 (54.18 %), no double +0.863 (46.58 %): "Double, pass"
    double, take = (d for d in data["decisions"] if d["action"] in ("double", "take"))
    for decision in (double, take):
        cube = decision["cube"]
        assert cube["verdict"] == "Double, pass"
        assert cube["centred"] is True
        assert cube["too_good"] is False
        no_double, double_take, double_pass = cube["options"]
        assert [o["action"] for o in cube["options"]] == [
            "no double",
            "double, take",
            "double, pass",
        ]
        assert no_double["equity"] == pytest.approx(0.863, abs=PRINTED)
        assert double_take["equity"] == pytest.approx(1.167, abs=PRINTED)
        assert double_pass["equity"] == pytest.approx(1.0, abs=PRINTED)
        assert no_double["mwc"] == pytest.approx(0.4658, abs=0.00006)
        assert double_take["mwc"] == pytest.approx(0.5418, abs=0.00006)
        assert double_pass["mwc"] == pytest.approx(0.5, abs=0.00006)
        assert no_double["diff"] == pytest.approx(-0.137, abs=PRINTED)
        assert double_take["diff"] == pytest.approx(0.167, abs=PRINTED)
        assert double_pass["diff"] == 0
        assert no_double["diff_mwc"] == pytest.approx(-0.0342, abs=0.00006)
        assert double_take["diff_mwc"] == pytest.approx(0.0418, abs=0.00006)
    # the double chose both double rows; the take the take's row, an error of 0.167 EMG
    assert [o["played"] for o in double["cube"]["options"]] == [False, True, True]
    assert [o["played"] for o in take["cube"]["options"]] == [False, True, False]
    assert (double["best"], double["error"]) == ("double", 0)
    assert take["best"] == "drop"
    assert take["error"] == pytest.approx(0.167, abs=PRINTED)
    assert take["error_mwc"] == pytest.approx(0.0418, abs=0.00006)


def test_a_too_good_position_is_too_good_not_no_double(engine: GnubgProcess) -> None:
    analysis = engine.analyse_match((MATS / "crawford_3pt.mat").read_text(), plies=PLIES)

    too_good = [d for d in analysis.decisions if d.cube is not None and d.cube.verdict.too_good]

    assert too_good
    for decision in too_good:
        assert decision.cube is not None
        no_double, double_take, double_pass = decision.cube.emg
        assert no_double > min(double_take, double_pass)
        assert decision.best == "too good"
        # not doubling there is right: no error
        assert (decision.action, decision.error) == ("no double", 0)
