"""Which GNU Backgammon runs: Debian's program where it is installed, else the gnubg Python
package, else none, with the reason in words an operator can act on."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.engine import EngineUnavailable, EvalSettings
from analysis.gnubg_found import GNUBG_EXECUTABLE, gnubg_found
from analysis.gnubg_process import GnubgProcess
from tests.engines import MISSING_PROGRAM, hide_the_package

OPENING = "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def test_the_program_is_chosen_where_it_is_installed() -> None:
    found = gnubg_found()

    assert found.command is not None
    assert found.command.kind == "program"
    assert found.described == f"the program {GNUBG_EXECUTABLE}"


def test_without_the_program_the_package_serves() -> None:
    with GnubgProcess(MISSING_PROGRAM) as engine:
        found = engine.status()
        evaluation = engine.evaluate(OPENING, EvalSettings(plies=0))

    assert found.command is not None
    assert found.command.kind == "package"
    assert found.described.startswith("the gnubg Python package in ")
    assert evaluation.engine.met == "Kazaross XG2 25 point MET"
    assert evaluation.engine.met_path.endswith("gnubg/data/met/Kazaross-XG2.xml")
    assert 0.5 < evaluation.player(1).win < 0.55


def test_with_neither_there_is_no_engine_and_the_reason_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    hide_the_package(monkeypatch, tmp_path)
    engine = GnubgProcess(MISSING_PROGRAM)

    found = engine.status()

    assert not found.available
    assert f"neither the program {MISSING_PROGRAM} (apt-get install gnubg)" in found.reason
    assert "nor the gnubg Python package" in found.reason
    assert "scripts/setup.sh venv installs it" in found.reason
    with pytest.raises(EngineUnavailable, match="neither the program"):
        engine.evaluate(OPENING, EvalSettings(plies=0))
    assert engine.pid is None


def test_the_program_forced_but_missing_says_how_to_install_it() -> None:
    found = gnubg_found("program", executable=MISSING_PROGRAM)

    assert (
        found.reason
        == f"GNU Backgammon is not installed at {MISSING_PROGRAM}: apt-get install gnubg"
    )


def test_the_package_forced_is_used_beside_the_program() -> None:
    found = gnubg_found("package")

    assert found.command is not None
    assert found.command.kind == "package"


def test_none_turns_the_engine_off() -> None:
    found = gnubg_found("none")

    assert found.described == "unavailable: the engine is turned off (CRAWFORD_ENGINE=none)"


def test_an_unknown_choice_is_named() -> None:
    assert "'gnu' is none of auto, program, package, none" in gnubg_found("gnu").reason
