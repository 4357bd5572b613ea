"""GNU Backgammon imports the .mat text of an .xg file as the match we read from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon.matfile import parse_mat
from backgammon.xgfile import xg_to_mat
from tests.unit.backgammon.test_mat_gnubg import Job, gnubg_reads, seen_by_gnubg, seen_by_us

XG = Path(__file__).resolve().parents[2] / "data" / "xg"


@pytest.mark.parametrize("name", ["unger_job_7pt.xg", "charlot_7pt.xg"])
def test_gnubg_imports_the_mat_of_an_xg_file_as_the_same_match(name: str, tmp_path: Path) -> None:
    # given the .mat text of a match eXtreme Gammon saved
    text = xg_to_mat((XG / name).read_bytes())
    ours = parse_mat(text)
    path = tmp_path / "match.mat"
    path.write_text(text)

    # when GNU Backgammon imports it
    (match,) = gnubg_reads([Job(path)], tmp_path)

    # then it finds the same games, scores, winners and points, and every move (dice and
    # position before it) and cube action
    theirs = seen_by_gnubg(match)
    assert match["match-info"]["match-length"] == ours.length
    assert len(theirs) == len(ours.games)
    assert [game.score for game in theirs] == [game.score_before for game in ours.games]
    assert [game.winner for game in theirs] == [game.winner for game in ours.games]
    moves = sum(1 for game in theirs for step in game.steps if step.kind == "move")
    assert moves == sum(
        1 for game in seen_by_us(ours) for step in game.steps if step.kind == "move"
    )
    assert theirs == seen_by_us(ours)
