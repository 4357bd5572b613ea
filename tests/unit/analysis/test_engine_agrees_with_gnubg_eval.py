"""Our evaluations are GNU Backgammon's: the same figures its ``eval`` command prints.

The reference is the program itself in text mode, fed ``set gnubgid <id>`` and ``eval`` as a
person would type them, its printout parsed here. Nothing in the reference uses ``analysis``.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from analysis.engine import EvalSettings, Evaluation
from analysis.gnubg_process import GnubgProcess

GNUBG = "/usr/games/gnubg"
TOLERANCE = 0.001


@dataclass(frozen=True)
class Case:
    name: str
    gnubg_id: str
    jacoby: bool = False
    beavers: bool = False

    @property
    def is_match(self) -> bool:
        return self.name.startswith("match")


CASES = [
    Case("money, centred cube, player 1 on roll", "mGfwATDQ5+ABMA:cAkAAAAAAAAE"),
    Case("money, centred cube, Jacoby and beavers", "4DZ4ACzsnoMDAA:MAEAAAAAAAAA", True, True),
    Case("money, cube on 2 owned by the player on roll", "7O41AADYzowxAA:AQEAAAAAAAAE"),
    Case("money, cube on 4 owned by the opponent", "mGfwATDQ5+ABMA:QgkAAAAAAAAE"),
    Case("match to 7 at 0-0", "mGfwATDQ5+ABMA:MAHgAAAAAAAE"),
    Case("match to 7, Crawford game at 6-3, trailer on roll", "4DZ4ACzsnoMDAA:8AngAGAAGAAE"),
    Case("match to 7, post-Crawford at 6-4, trailer on roll", "7O41AADYzowxAA:cAngAGAAIAAE"),
    Case("match to 7 at 2-3, cube on 2 owned by the player on roll", "4DZ4ACzsnoMDAA:AQHgACAAGAAE"),
    Case("match to 5 at 1-2, cube on 2 owned by the opponent", "7O41AADYzowxAA:EQGgABAAEAAE"),
]


# --- the reference: the program's own printout -------------------------------------------

ROW = re.compile(r"^\s*(static|\d ply):\s+(.*)$")
CUBE_LINE = re.compile(r"^\d\. (.+?)\s{2,}([+-]?\s*[\d.]+%?)")
PROPER = re.compile(r"^Proper cube action: (.+?)(?: \([\d.]+%\))?$")


def number(text: str) -> float:
    """A figure as printed, ``+0.12345`` or ``56.2610%`` (read as a fraction)."""
    text = text.replace(" ", "")
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


@dataclass
class Row:
    probabilities: list[float]
    cubeless: float
    cubeful_no_double: float


@dataclass
class Printout:
    """One ``eval``: a row per depth, and the cube analysis when the cube can be turned."""

    rows: dict[int, Row] = field(default_factory=dict)
    cube: dict[str, float] = field(default_factory=dict)
    proper_action: str | None = None

    def optimal(self) -> float:
        """The value after the correct cube action, read from the printed cube analysis."""
        if not self.cube:
            return self.rows[2].cubeful_no_double
        return max(self.cube["no_double"], min(self.cube["take"], self.cube["pass"]))


def parse_eval(text: str) -> Printout:
    printout = Printout()
    for line in text.splitlines():
        if match := ROW.match(line):
            depth = 0 if match.group(1) == "static" else int(match.group(1).split()[0])
            figures = [number(figure) for figure in match.group(2).split()]
            printout.rows[depth] = Row(figures[:5], figures[5], figures[6])
        elif match := CUBE_LINE.match(line):
            label = match.group(1).lower()
            action = (
                "no_double" if label.startswith("no ") else "pass" if "pass" in label else "take"
            )
            printout.cube[action] = number(match.group(2))
        elif match := PROPER.match(line):
            printout.proper_action = match.group(1).strip()
    return printout


def program_eval(requests: list[tuple[Case, str]]) -> list[Printout]:
    """``eval`` of each case, shown as equity or as MWC, in one run of the program.

    Printouts are told apart by their ``Position ID:`` heading, which only ``eval`` writes
    with a tab.
    """
    commands = ["set output digits 5"]
    for case, shown_as in requests:
        commands += [
            f"set beavers {3 if case.beavers else 0}",
            f"set gnubgid {case.gnubg_id}",
            f"set output mwc {'on' if shown_as == 'mwc' else 'off'}",
            "eval",
        ]
    completed = subprocess.run(
        [GNUBG, "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    printouts = completed.stdout.split("Position ID:\t")[1:]
    assert len(printouts) == len(requests), completed.stdout[-2000:]
    return [parse_eval(printout) for printout in printouts]


# --- fixtures ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def gnubg_installed() -> None:
    if not os.access(GNUBG, os.X_OK):
        pytest.fail(f"GNU Backgammon is not installed at {GNUBG}: apt-get install gnubg")


@pytest.fixture(scope="module")
def engine(gnubg_installed: None) -> Iterator[GnubgProcess]:
    with GnubgProcess() as process:
        yield process


@pytest.fixture(scope="module")
def reference(gnubg_installed: None) -> dict[tuple[str, str], Printout]:
    requests = [(case, "equity") for case in CASES]
    requests += [(case, "mwc") for case in CASES if case.is_match]
    printouts = program_eval(requests)
    return {
        (case.gnubg_id, shown_as): printout
        for (case, shown_as), printout in zip(requests, printouts, strict=True)
    }


def evaluate(engine: GnubgProcess, case: Case, plies: int = 2) -> Evaluation:
    settings = EvalSettings(plies=plies, jacoby=case.jacoby, beavers=case.beavers)
    return engine.evaluate(case.gnubg_id, settings)


def chances_on_roll(evaluation: Evaluation) -> list[float]:
    """Win, W(g), W(bg), L(g), L(bg) for the player on roll, as the program prints them."""
    on_roll = evaluation.player(evaluation.player_on_roll)
    opponent = evaluation.player(1 - evaluation.player_on_roll)
    return [
        on_roll.win,
        on_roll.win_gammon,
        on_roll.win_backgammon,
        opponent.win_gammon,
        opponent.win_backgammon,
    ]


# --- tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_chances_at_2_ply_equal_the_programs(
    engine: GnubgProcess, reference: dict[tuple[str, str], Printout], case: Case
) -> None:
    evaluation = evaluate(engine, case)

    printed = reference[case.gnubg_id, "equity"].rows[2]
    assert chances_on_roll(evaluation) == pytest.approx(printed.probabilities, abs=TOLERANCE)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_cubeless_equity_equals_the_programs(
    engine: GnubgProcess, reference: dict[tuple[str, str], Printout], case: Case
) -> None:
    evaluation = evaluate(engine, case)

    on_roll = evaluation.player_on_roll
    assert evaluation.player(on_roll).cubeless_equity == pytest.approx(
        reference[case.gnubg_id, "equity"].rows[2].cubeless, abs=TOLERANCE
    )
    if case.is_match:
        assert evaluation.player(on_roll).cubeless_mwc == pytest.approx(
            reference[case.gnubg_id, "mwc"].rows[2].cubeless, abs=TOLERANCE
        )


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_cubeful_equity_after_the_correct_cube_action_equals_the_programs(
    engine: GnubgProcess, reference: dict[tuple[str, str], Printout], case: Case
) -> None:
    evaluation = evaluate(engine, case)

    printed = reference[case.gnubg_id, "equity"]
    on_roll = evaluation.player(evaluation.player_on_roll)
    opponent = evaluation.player(1 - evaluation.player_on_roll)
    assert evaluation.cube.no_double == pytest.approx(
        printed.rows[2].cubeful_no_double, abs=TOLERANCE
    )
    assert on_roll.cubeful_equity == pytest.approx(printed.optimal(), abs=TOLERANCE)
    assert opponent.cubeful_equity == pytest.approx(-printed.optimal(), abs=TOLERANCE)
    if printed.cube:
        assert evaluation.cube.double_take == pytest.approx(printed.cube["take"], abs=TOLERANCE)
        assert evaluation.cube.double_pass == pytest.approx(printed.cube["pass"], abs=TOLERANCE)
        assert evaluation.cube.action == printed.proper_action


@pytest.mark.parametrize("case", [case for case in CASES if case.is_match], ids=lambda c: c.name)
def test_match_winning_chances_equal_the_programs(
    engine: GnubgProcess, reference: dict[tuple[str, str], Printout], case: Case
) -> None:
    evaluation = evaluate(engine, case)

    printed = reference[case.gnubg_id, "mwc"].optimal()
    on_roll = evaluation.player(evaluation.player_on_roll)
    opponent = evaluation.player(1 - evaluation.player_on_roll)
    assert on_roll.mwc == pytest.approx(printed, abs=TOLERANCE)
    assert opponent.mwc == pytest.approx(1 - printed, abs=TOLERANCE)


@pytest.mark.parametrize("plies", [0, 1])
@pytest.mark.parametrize("case", [CASES[2], CASES[7]], ids=lambda case: case.name)
def test_shallower_evaluations_equal_the_programs_rows(
    engine: GnubgProcess, reference: dict[tuple[str, str], Printout], case: Case, plies: int
) -> None:
    evaluation = evaluate(engine, case, plies=plies)

    printed = reference[case.gnubg_id, "equity"].rows[plies]
    assert chances_on_roll(evaluation) == pytest.approx(printed.probabilities, abs=TOLERANCE)
    assert evaluation.cube.no_double == pytest.approx(printed.cubeful_no_double, abs=TOLERANCE)


def test_match_equity_table_and_engine_are_recorded(engine: GnubgProcess) -> None:
    evaluation = evaluate(engine, CASES[4])

    recorded = evaluation.to_dict()["engine"]
    assert recorded["name"] == "GNU Backgammon"
    assert recorded["version"] == "1.07.001"
    assert "Kazaross XG2" in recorded["met"]
    assert recorded["met_path"].endswith("Kazaross-XG2.xml")
