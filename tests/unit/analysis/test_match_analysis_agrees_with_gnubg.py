"""A match analysed through the warm engine gives the figures GNU Backgammon itself prints.

Each .mat file under tests/data/mat is analysed twice at 0-ply: by ``GnubgProcess.analyse_match``
and by a separate ``gnubg -t`` whose printed statistics are read back (tests/gnubg_printed.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.engine import InvalidMatchError
from analysis.gnubg_process import GnubgProcess
from analysis.match_analysis import MatchAnalysis, PlayerStatistics
from tests.gnubg_printed import Printed, printed_statistics

MATS = Path(__file__).parents[2] / "data" / "mat"
MATCHES = ["crawford_3pt", "resign_5pt", "one_point", "money_session"]
PLIES = 0


def assert_agrees(ours: PlayerStatistics, printed: Printed) -> None:
    assert ours.unforced_moves == printed.unforced_moves
    assert ours.close_cube_decisions == printed.close_cube_decisions
    assert ours.checker_error == pytest.approx(printed.checker_error, abs=0.0006)
    assert ours.cube_error == pytest.approx(printed.cube_error, abs=0.0006)
    assert ours.luck == pytest.approx(printed.luck, abs=0.0006)
    for rate, shown in (
        (ours.checker_error_rate, printed.checker_error_rate),
        (ours.cube_error_rate, printed.cube_error_rate),
        (ours.error_rate, printed.error_rate),
        (ours.luck_rate, printed.luck_rate),
    ):
        assert (rate or 0.0) == pytest.approx(shown, abs=0.051)
    assert ours.pr is None or ours.pr == pytest.approx(printed.error_rate / 2, abs=0.026)
    assert ours.checker_rating == printed.checker_rating
    assert ours.overall_rating == printed.overall_rating
    assert ours.luck_rating == printed.luck_rating
    if ours.close_cube_decisions:
        assert ours.cube_rating == printed.cube_rating


def assert_decisions_add_up(analysis: MatchAnalysis) -> None:
    """The decisions listed one by one give the totals of gnubg's statistics."""
    for player, statistics in enumerate(analysis.statistics):
        mine = [decision for decision in analysis.decisions if decision.player == player]
        checker = [decision for decision in mine if decision.kind == "checker"]
        cube = [decision for decision in mine if decision.kind == "cube"]
        assert sum(not decision.forced for decision in checker) == statistics.unforced_moves
        assert len(cube) == statistics.close_cube_decisions
        assert sum(d.error for d in checker) == pytest.approx(statistics.checker_error, abs=1e-3)
        assert sum(d.error for d in cube) == pytest.approx(statistics.cube_error, abs=1e-3)
        marked = {mark: sum(d.skill == mark for d in checker) for mark in ("doubtful", "bad")}
        assert marked["doubtful"] == statistics.marked_moves["doubtful"]
        assert marked["bad"] == statistics.marked_moves["bad"]


@pytest.mark.parametrize("name", MATCHES)
def test_statistics_agree_with_what_gnubg_prints(engine: GnubgProcess, name: str) -> None:
    path = MATS / f"{name}.mat"

    analysis = engine.analyse_match(path.read_text(), plies=PLIES)
    printed = printed_statistics(path, len(analysis.games), plies=PLIES)

    assert analysis.players == ("Alice", "Bob")
    for ours, shown in zip(analysis.statistics, printed[0], strict=True):
        assert_agrees(ours, shown)
    for game, page in zip(analysis.games, printed[1:], strict=True):
        assert game.statistics is not None
        for ours, shown in zip(game.statistics, page, strict=True):
            assert_agrees(ours, shown)
    assert_decisions_add_up(analysis)


def test_crawford_match_marks_the_crawford_game_and_prices_the_take(
    engine: GnubgProcess,
) -> None:
    analysis = engine.analyse_match((MATS / "crawford_3pt.mat").read_text(), plies=PLIES)

    assert [game.crawford for game in analysis.games] == [False, True, False]
    assert [game.score for game in analysis.games] == [(0, 0), (2, 0), (2, 1)]
    take = next(decision for decision in analysis.decisions if decision.action == "take")
    assert (take.game, take.player, take.best, take.skill) == (3, 0, "drop", "very bad")
    assert take.error_mwc is not None
    assert take.error_mwc > 0
    assert not any(d.action == "double" for d in analysis.games[1].decisions)


def test_resigned_game_is_scored_as_resigned(engine: GnubgProcess) -> None:
    analysis = engine.analyse_match((MATS / "resign_5pt.mat").read_text(), plies=PLIES)

    last = analysis.games[-1]
    assert (last.resigned, last.winner, last.points) == (True, 0, 3)


def test_a_0_point_match_is_analysed_as_money_play(engine: GnubgProcess) -> None:
    analysis = engine.analyse_match((MATS / "money_session.mat").read_text(), plies=PLIES)

    assert analysis.money
    assert all(decision.error_mwc is None for decision in analysis.decisions)
    assert all(decision.match_id for decision in analysis.decisions)


def test_text_that_is_no_match_is_refused(engine: GnubgProcess) -> None:
    with pytest.raises(InvalidMatchError):
        engine.analyse_match("this is not a match\n", plies=PLIES)


def test_a_money_session_without_the_jacoby_rule_is_analysed_without_it(
    engine: GnubgProcess, tmp_path: Path
) -> None:
    # given a money session whose file says the Jacoby rule was off (GNU Backgammon's own
    # import ignores the tag and uses its setting, on by default)
    path = tmp_path / "no_jacoby.mat"
    path.write_text('; [Jacoby "Off"]\n' + (MATS / "money_session.mat").read_text())

    # when it is analysed
    analysis = engine.analyse_match(path.read_text(), plies=PLIES)
    with_jacoby = engine.analyse_match((MATS / "money_session.mat").read_text(), plies=PLIES)

    # then the rule is off, and the figures are what gnubg prints with "set jacoby off"
    assert "Jacoby" not in analysis.rules
    assert "Jacoby" in with_jacoby.rules
    assert analysis.statistics[0].error != pytest.approx(with_jacoby.statistics[0].error)
    printed = printed_statistics(path, len(analysis.games), "set jacoby off")
    for ours, shown in zip(analysis.statistics, printed[0], strict=True):
        assert_agrees(ours, shown)
