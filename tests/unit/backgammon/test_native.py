"""The compiled move generator (backgammon.native): it gives what its sources give, and an old
build is never used."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from backgammon import native

ROOT = Path(__file__).resolve().parents[3]

# The bench's positions (bench/bench_legal_positions.py), each with its legal results and
# plays, printed as JSON by whichever generator the process imports.
RESULTS_SCRIPT = """
import json, sys
from bench.bench_legal_positions import GAMES, SEED, sample_positions
from backgammon.board import Board
from backgammon.moves import legal_plays, legal_positions
from backgammon.native import compiled_modules_in_use

samples = sample_positions(SEED, GAMES)
json.dump(
    {
        "compiled": compiled_modules_in_use(),
        "results": [
            [
                position_id,
                list(dice),
                sorted(legal_positions(position_id, dice)),
                [
                    [[move.from_point, move.to_point, move.hit] for move in play]
                    for play in legal_plays(Board.from_position_id(position_id), dice)
                ],
            ]
            for position_id, dice in samples
        ],
    },
    sys.stdout,
)
"""


def generator_results(*, pure_python: bool) -> dict[str, object]:
    environment = {**os.environ, "CRAWFORD_PURE_PYTHON": "1" if pure_python else "0"}
    completed = subprocess.run(
        [sys.executable, "-c", RESULTS_SCRIPT],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(completed.stdout)


@pytest.mark.skipif(
    not native.compiled_build_is_fresh(), reason="no fresh build (scripts/build_native.py)"
)
def test_the_compiled_generator_gives_what_its_sources_give_on_the_bench_positions() -> None:
    compiled = generator_results(pure_python=False)
    sources = generator_results(pure_python=True)

    assert compiled["compiled"] is True
    assert sources["compiled"] is False
    assert len(compiled["results"]) > 5000  # type: ignore[arg-type]
    assert compiled["results"] == sources["results"]


@pytest.mark.skipif(
    not native.compiled_build_is_fresh(), reason="no fresh build (scripts/build_native.py)"
)
@pytest.mark.skipif(
    os.environ.get("CRAWFORD_PURE_PYTHON", "") not in ("", "0"),
    reason="CRAWFORD_PURE_PYTHON asks this process for the sources",
)
def test_this_process_runs_the_compiled_generator_when_the_build_is_fresh() -> None:
    from backgammon.moves import positions

    assert native.compiled_modules_in_use()
    assert Path(positions.__file__).is_relative_to(native.BUILD_DIR)


def test_a_build_of_other_sources_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "BUILD_DIR", tmp_path)
    monkeypatch.setattr(native, "DIGEST_FILE", tmp_path / "sources.sha256")
    for module in (*native.COMPILED_MODULES, native.SHARED_LIBRARY):
        native.extension_path(module).parent.mkdir(parents=True, exist_ok=True)
        native.extension_path(module).write_bytes(b"")

    (tmp_path / "sources.sha256").write_text(native.sources_digest() + "\n")
    assert native.compiled_build_is_fresh()

    (tmp_path / "sources.sha256").write_text("0" * 64 + "\n")
    assert not native.compiled_build_is_fresh()


def test_a_build_missing_an_extension_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "BUILD_DIR", tmp_path)
    monkeypatch.setattr(native, "DIGEST_FILE", tmp_path / "sources.sha256")
    (tmp_path / "sources.sha256").write_text(native.sources_digest() + "\n")
    for module in native.COMPILED_MODULES:
        native.extension_path(module).parent.mkdir(parents=True, exist_ok=True)
        native.extension_path(module).write_bytes(b"")

    assert not native.compiled_build_is_fresh()


def test_pure_python_can_be_asked_for() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import backgammon.native as n, backgammon.moves.positions as p;"
            " print(n.compiled_modules_in_use(), p.__file__)",
        ],
        cwd=ROOT,
        env={**os.environ, "CRAWFORD_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
        check=True,
    )

    in_use, source = completed.stdout.split()
    assert in_use == "False"
    assert source.endswith("backgammon/moves/positions.py")
