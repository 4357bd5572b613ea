"""A match file read by GNU Backgammon's own importer: what the program cannot do is an error
with its reason, and the rules .mat cannot say are written as header tags."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.engine import EngineError
from analysis.gnubg_found import GNUBG_EXECUTABLE, SERVER_SCRIPT, GnubgCommand, gnubg_found
from analysis.match_import import MatchImportRefused, import_match

FILES = Path(__file__).resolve().parents[2] / "data" / "match_files"
PROGRAM = gnubg_found("program").command


def test_a_program_that_cannot_be_started_is_an_engine_error_saying_so() -> None:
    missing = GnubgCommand("program", ("/nonexistent/gnubg", str(SERVER_SCRIPT)), "", "none")

    with pytest.raises(EngineError, match="could not be started"):
        import_match(missing, importer="import sgg", content=b"", filename="a.sgg")


def test_a_command_that_is_not_the_engine_s_is_not_run() -> None:
    other = GnubgCommand("program", ("/bin/echo", "hello"), "", "echo")

    with pytest.raises(EngineError, match="cannot start GNU Backgammon's importer"):
        import_match(other, importer="import sgg", content=b"", filename="a.sgg")


@pytest.mark.skipif(PROGRAM is None, reason=f"no GNU Backgammon at {GNUBG_EXECUTABLE}")
def test_a_money_session_s_jacoby_rule_is_written_as_a_tag() -> None:
    assert PROGRAM is not None
    content = (FILES / "money_jacoby.tmg").read_bytes()

    imported = import_match(PROGRAM, importer="import tmg", content=content, filename="s.tmg")

    assert imported.mat.startswith('; [Jacoby "On"]\n')
    assert (imported.players, imported.length, imported.games) == (("Bob", "Alice"), 0, 3)


@pytest.mark.skipif(PROGRAM is None, reason=f"no GNU Backgammon at {GNUBG_EXECUTABLE}")
def test_what_the_program_says_of_a_file_it_cannot_read_names_the_file_as_uploaded() -> None:
    assert PROGRAM is not None

    with pytest.raises(MatchImportRefused) as refused:
        import_match(PROGRAM, importer="import sgg", content=b"hello\n", filename="club.sgg")

    assert str(refused.value) == "GNU Backgammon says: club.sgg: not a valid SGG file"
