"""What GNU Backgammon itself prints for a .mat file: a separate ``gnubg -t`` fed ``import
mat``, ``analyse match`` and ``show statistics`` (for the match, then game by game), whose text
is read back here, to check Crawford's figures against."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from analysis.gnubg_process import GNUBG_EXECUTABLE

_FIGURE = re.compile(r"([+-]?\d+\.\d+)\s*\(\s*([+-]?\d+\.\d+)%?\)")
_COLUMNS = (41, 65)


@dataclass(frozen=True)
class Printed:
    """One player's lines of a ``show statistics`` page."""

    unforced_moves: int
    close_cube_decisions: int
    checker_error: float
    checker_error_rate: float
    cube_error: float
    cube_error_rate: float
    error_rate: float
    luck: float
    luck_rate: float
    checker_rating: str
    cube_rating: str
    overall_rating: str
    luck_rating: str


def printed_statistics(
    path: Path, games: int, *settings: str, plies: int = 0
) -> list[tuple[Printed, Printed]]:
    """What gnubg's own CLI prints at ``plies``: the match's statistics, then each game's
    (after ``settings``, commands run before the import)."""
    commands = [
        "set display off",
        *settings,
        f"import mat {path}",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        "analyse match",
        "show statistics match",
        "first game",
        *["show statistics game", "next game"] * games,
    ]
    output = subprocess.run(
        [GNUBG_EXECUTABLE, "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    pages = output.split("\nPlayer ")[1:]
    assert len(pages) == games + 1
    return [_page(page) for page in pages]


def _page(page: str) -> tuple[Printed, Printed]:
    lines: dict[str, list[str]] = {}
    for line in page.splitlines():
        lines.setdefault(line[: _COLUMNS[0]].strip(), []).append(line)

    def counts(label: str) -> tuple[int, int]:
        first, second = lines[label][0][_COLUMNS[0] :].split()[:2]
        return int(first), int(second)

    def figures(label: str, occurrence: int) -> tuple[float, float]:
        found = _FIGURE.findall(lines[label][occurrence])
        return -float(found[0][0]), -float(found[1][0])

    def words(label: str) -> tuple[str, str]:
        line = lines[label][0]
        return line[_COLUMNS[0] : _COLUMNS[1]].strip(), line[_COLUMNS[1] :].strip()

    money = any(label.endswith("(Points)") for label in lines)
    unit = "Points" if money else "MWC"
    total, rate = f"Error total EMG ({unit})", f"Error rate mEMG ({unit})"
    luck_total, luck_rate = f"Luck total EMG ({unit})", f"Luck rate mEMG ({unit})"
    columns = zip(
        counts("Unforced moves"),
        counts("Close or actual cube decisions"),
        figures(total, 0),
        figures(rate, 0),
        figures(total, 1),
        figures(rate, 1),
        figures(rate, 2),
        (-x for x in figures(luck_total, 0)),
        (-x for x in figures(luck_rate, 0)),
        words("Chequerplay rating"),
        words("Cube decision rating"),
        words("Overall rating"),
        words("Luck rating"),
        strict=True,
    )
    first, second = (Printed(*column) for column in columns)
    return first, second


@dataclass(frozen=True)
class PrintedCube:
    """One "Cube analysis" of GNU Backgammon's text export: the cubeful figures of no
    double, double/take and double/pass (EMG, or MWC with ``set output mwc on``) from the
    view of the player to act, and the proper cube action in its words."""

    no_double: float
    double_take: float
    double_pass: float
    verdict: str


_CUBEFUL = re.compile(
    r"^\d\. (No double|No redouble|Double, take|Redouble, take|Double, pass|"
    r"Redouble, pass)\s+([+-]?\d+\.\d+)(%?)"
)
_PROPER = re.compile(r"^Proper cube action: (.*?)(?: \(-?\d+\.\d+%\))?$")


def printed_cube_analyses(
    path: Path, tmp: Path, *settings: str, plies: int = 0, mwc: bool = False
) -> list[list[PrintedCube]]:
    """Each game's cube analyses, in order, from ``export match text`` after ``analyse
    match`` at ``plies`` (``settings`` run before the import); MWC as a fraction with
    ``mwc``."""
    export = tmp / "match.txt"
    commands = [
        "set display off",
        *settings,
        f"import mat {path}",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        "analyse match",
        f"set output mwc {'on' if mwc else 'off'}",
        f"export match text {export}",
    ]
    subprocess.run(
        [GNUBG_EXECUTABLE, "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    # gnubg writes game 1 to the name given, then match_002.txt, match_003.txt ...
    files = [export, *sorted(tmp.glob("match_[0-9][0-9][0-9].txt"))]
    return [_cube_blocks(file.read_text(encoding="utf-8")) for file in files]


def _cube_blocks(text: str) -> list[PrintedCube]:
    blocks = []
    figures: dict[str, float] = {}
    for line in text.splitlines():
        cubeful = _CUBEFUL.match(line)
        if cubeful:
            label, value, percent = cubeful.groups()
            action = label.lower().replace("redouble", "double")
            figures[action] = float(value) / (100 if percent else 1)
            continue
        proper = _PROPER.match(line)
        if proper:
            blocks.append(
                PrintedCube(
                    figures["no double"],
                    figures["double, take"],
                    figures["double, pass"],
                    proper.group(1),
                )
            )
            figures = {}
    return blocks
