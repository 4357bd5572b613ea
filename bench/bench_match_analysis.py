"""Benchmark: a whole match analysed, through Crawford and through GNU Backgammon alone.

A *match* here is one .mat file (a money session counts as one); a *roll* is one throw of
the dice the file records, a dance included: the unit a match's analysis time grows with.

The same files are analysed at each depth, in the same run, three ways taking turns file by
file (so other work on the machine weighs on all three alike):

* crawford: ``GnubgProcess.analyse_match(text, plies=P)`` on one warm process. The process
  is started and warmed by one 0-ply evaluation before any timing; the first match it
  analyses also loads the module that runs the analysis inside the program, which is timed.
  Timed: all a caller waits for, from the request to the
  :class:`analysis.match_analysis.MatchAnalysis` built from the answer: the program's
  analysis and what Crawford adds around it (the import checked, the match dumped with its
  analysis, boards and statistics, each action's equities in EMG and MWC, the answer
  through the pipe).
* gnubg fresh: ``gnubg -t -q -r`` started for the file and fed on stdin what a user types:
  the analysis settings of the reference (``tests.gnubg_exported.export_commands``: plies,
  cubeful, prune, deterministic, noise 0, for chequer play and cube decisions, the same as
  Crawford's ``configure``), ``import mat "<file>"``, ``analyse match`` and ``show
  statistics match``, the last so that this way too ends with a result to read. Timed from
  the program's start to its exit, its output read. ``-r`` (no ``.gnubgrc``) as Crawford's
  process has it, so no one's own settings change the figures; both use the program's
  default match equity table, the one Crawford sets (Kazaross XG2), and its default of one
  calculation thread. ``--no-fresh`` leaves it out.
* gnubg one process (the baseline): the same commands, file after file, to one ``gnubg -t
  -q -r`` started before timing: a bare ``analyse match`` in a warm program. After each
  file, untimed, it exports its analysis (``export match text``), and every one of
  Crawford's decisions is compared with the program's (tests/gnubg_exported.py: the best
  play, the played one's error, the cube verdict).

Crawford's result holds more than the statistics page (every decision's candidates and
equities), so its overhead over the one-process baseline is the price of that and of the
pipe (goal: at most 1.25x); over the fresh baseline it is what a warm process saves.

Printed for each depth: seconds a match each way (the median of ``--rounds``; each file's
line for up to 12 files), rolls per second over all the files, Crawford's time as a ratio to
each baseline over all the files, the matches an hour one worker keeps up with on a match
like seven_point.mat (or the longest file given without it), the decisions that differ from
the program's (goal: none) and the files a way could not analyse (left out of the times).

Run: ``.venv/bin/python bench/bench_match_analysis.py [--plies 0,2] [--rounds 1] [--count N]
[--no-fresh] [--small] [file.mat ...]`` (the files default to every one in tests/data/mat;
``--count``: the first N given, by name; ``--small``: 0 ply and the two smallest of them).
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis.engine import EngineError, EvalSettings
from analysis.gnubg_process import GNUBG_EXECUTABLE, GnubgProcess
from analysis.match_analysis import MatchAnalysis
from tests.gnubg_exported import Difference, differences, export_commands, read_export

MAT_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "mat"
TYPICAL = "seven_point.mat"
OPENING = "4HPwATDgc/ABMA:MAEAAAAAAAAE"  # the starting position, money play
ROLL = re.compile(r"\b[1-6][1-6]:")
STATISTICS_HEADING = "Chequerplay statistics"  # missing when no match was imported
GNUBG = [GNUBG_EXECUTABLE, "-t", "-q", "-r"]
WAYS = ("crawford", "gnubg fresh", "gnubg one process")
GOAL = 1.25  # crawford / gnubg one process
FILES_LISTED = 12  # more files: only their totals
DIFFERENCES_LISTED = 5  # a match's first few differences


def gnubg_commands(mat: Path, plies: int) -> str:
    """What a user types to have GNU Backgammon analyse ``mat`` as Crawford has it analysed:
    the reference's commands (tests/gnubg_exported.py) with the statistics page in place of
    the export, so that this way too ends with a result to read."""
    commands = export_commands(mat, plies, Path("unused"))
    assert commands[-1].startswith("export match text")
    return "\n".join([*commands[:-1], "show statistics match"])


def gnubg_fresh(mat: Path, plies: int) -> float:
    started = time.perf_counter()
    done = subprocess.run(
        GNUBG,
        input=gnubg_commands(mat, plies) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    took = time.perf_counter() - started
    if STATISTICS_HEADING not in done.stdout:
        raise RuntimeError(f"gnubg did not analyse {mat.name}: {done.stderr.strip()[-500:]}")
    return took


class GnubgSession:
    """One ``gnubg -t -q -r`` fed commands as a user types them, file after file.

    The program has no command that echoes, but it answers a word it does not know on
    stderr, at once and only after every command before it is done; such a word after a
    file's commands therefore marks when they are all done.
    """

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            GNUBG,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.output: list[str] = []
        self.errors: list[str] = []
        self.sent = 0
        threading.Thread(
            target=self.output.extend, args=(self.process.stdout,), daemon=True
        ).start()
        self.run("")  # started and ready before anything is timed

    def run(self, commands: str) -> float:
        assert self.process.stdin is not None
        assert self.process.stderr is not None
        self.sent += 1
        marker = f"crawford-bench-done-{self.sent}"
        started = time.perf_counter()
        self.process.stdin.write(f"{commands}\n{marker}\n")
        self.process.stdin.flush()
        for line in self.process.stderr:
            if f"`{marker}'" in line:
                return time.perf_counter() - started
            if line.strip():
                self.errors.append(line.strip())
        raise RuntimeError("gnubg exited: " + " / ".join(self.errors[-3:]))

    def close(self) -> int:
        """End the program; the number of analysed matches' statistics pages it printed."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)
        return sum(STATISTICS_HEADING in line for line in self.output)


def crawford(engine: GnubgProcess, mat_text: str, plies: int) -> tuple[float, MatchAnalysis]:
    started = time.perf_counter()
    analysis = engine.analyse_match(mat_text, plies=plies)
    took = time.perf_counter() - started
    if analysis.plies != plies or not analysis.games:
        raise RuntimeError(f"the analysis came back at {analysis.plies} plies, or empty")
    return took, analysis


def disagreements(session: GnubgSession, analysis: MatchAnalysis) -> list[Difference]:
    """Where ``analysis`` differs from the match ``session`` has just analysed, as the
    program's own text export gives it (not timed)."""
    with tempfile.TemporaryDirectory(prefix="crawford-bench-export-") as folder:
        session.run(f'export match text "{Path(folder) / "match.txt"}"')
        return differences(analysis, read_export(Path(folder)))


def overhead(ratio: float) -> str:
    if ratio >= 1:
        return f"overhead {100 * (ratio - 1):.0f}%"
    return f"{100 * (1 - ratio):.0f}% less time"


@dataclass
class Measured:
    """Seconds a match of each file each way (the median of the rounds), each file's
    decisions compared with the program's export, with those that differ, and the files
    either way could not analyse (with why), which are left out of the times."""

    seconds: dict[str, dict[Path, float]]
    decisions: dict[Path, int]
    differing: dict[Path, list[Difference]]
    failed: dict[Path, str]


def measure(
    engine: GnubgProcess, files: list[Path], plies: int, rounds: int, ways: tuple[str, ...]
) -> Measured:
    """Each file each way, ``rounds`` times; the first round's analyses compared."""
    texts = {mat: mat.read_text(encoding="utf-8") for mat in files}
    times: dict[str, dict[Path, list[float]]] = {way: {mat: [] for mat in files} for way in ways}
    decisions: dict[Path, int] = {}
    differing: dict[Path, list[Difference]] = {}
    failed: dict[Path, str] = {}
    session, pages, analysed = GnubgSession(), 0, 0
    for round_number in range(rounds):
        for index, mat in enumerate(files, start=1):
            if mat in failed:
                continue
            print(
                f"{plies} ply, round {round_number + 1}: {index}/{len(files)} {mat.name}",
                file=sys.stderr,
                flush=True,
            )
            try:
                took, analysis = crawford(engine, texts[mat], plies)
            except EngineError as error:
                failed[mat] = f"crawford: {error}"
                continue
            times["crawford"][mat].append(took)
            if "gnubg fresh" in ways:
                times["gnubg fresh"][mat].append(gnubg_fresh(mat, plies))
            try:
                times["gnubg one process"][mat].append(session.run(gnubg_commands(mat, plies)))
                analysed += 1
                if round_number == 0:
                    decisions[mat] = len(analysis.decisions)
                    differing[mat] = disagreements(session, analysis)
            except RuntimeError as error:
                failed[mat] = f"gnubg one process: {error}"
                pages += session.close()
                session = GnubgSession()
    pages += session.close()
    if pages != analysed:
        raise RuntimeError(
            f"gnubg's one process printed {pages} statistics pages of {analysed}: "
            + " / ".join(session.errors[-3:])
        )
    seconds = {
        way: {mat: statistics.median(spent) for mat, spent in by_file.items() if mat not in failed}
        for way, by_file in times.items()
    }
    return Measured(seconds, decisions, differing, failed)


def report(plies: int, given: list[Path], rolls: dict[Path, int], measured: Measured) -> None:
    seconds = measured.seconds
    files = [mat for mat in given if mat not in measured.failed]
    rolls = {mat: rolls[mat] for mat in files}
    ways = tuple(seconds)
    name_width = max(len(mat.name) for mat in files) + 2
    print()
    print(f"{plies} ply, seconds a match:")
    print(f"  {'file':{name_width}}rolls" + "".join(f"{way:>19}" for way in ways))
    for mat in files if len(files) <= FILES_LISTED else ():
        cells = "".join(f"{seconds[way][mat]:19.3f}" for way in ways)
        print(f"  {mat.name:{name_width}}{rolls[mat]:5d}{cells}")
    total_rolls = sum(rolls.values())
    total = {way: sum(seconds[way].values()) for way in ways}
    mean = "".join(f"{total[way] / len(files):19.3f}" for way in ways)
    print(f"  {'mean':{name_width}}{total_rolls / len(files):5.0f}{mean}")
    per_second = "".join(f"{total_rolls / total[way]:19.1f}" for way in ways)
    print(f"  {'rolls/s':{name_width}}{'':5}{per_second}")
    ratios = [
        f"crawford/{way} {total['crawford'] / total[way]:.2f}x "
        f"({overhead(total['crawford'] / total[way])})"
        for way in ways[1:]
    ]
    print(f"{plies} ply: ratio " + ", ".join(ratios) + f" (goal <= {GOAL:.2f}x one process)")
    typical = next((mat for mat in files if mat.name == TYPICAL), max(files, key=rolls.__getitem__))
    hourly = {way: 3600 / seconds[way][typical] for way in ways}
    print(
        f"{plies} ply: matches/h one worker keeps up with, like {typical.name} "
        f"({rolls[typical]} rolls): crawford {hourly['crawford']:,.0f} = "
        + ", ".join(
            f"{hourly['crawford'] / hourly[way]:.2f}x {way}'s {hourly[way]:,.0f}"
            for way in ways[1:]
        )
    )
    differing = [difference for found in measured.differing.values() for difference in found]
    matches = sum(bool(found) for found in measured.differing.values())
    print(
        f"{plies} ply: decisions differing from gnubg's export: {len(differing)} of "
        f"{sum(measured.decisions.values())}, in {matches} of {len(files)} matches (goal: none)"
    )
    for mat, found in measured.differing.items():
        for difference in found[:DIFFERENCES_LISTED]:
            print(f"  {mat.name}: {difference}")
    print(f"{plies} ply: matches a way could not analyse: {len(measured.failed)} (goal: none)")
    for mat, why in measured.failed.items():
        print(f"  {mat.name}: {why[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", type=Path, help=".mat files (default: tests/data/mat)")
    parser.add_argument("--plies", help="depths, comma-separated (default 0,2)")
    parser.add_argument("--rounds", type=int, default=1, help="each file's time is the median")
    parser.add_argument("--count", type=int, help="only the first COUNT files (by name)")
    parser.add_argument("--no-fresh", action="store_true", help="leave out gnubg fresh")
    parser.add_argument("--small", action="store_true", help="0 ply, the two smallest files")
    options = parser.parse_args()

    files: list[Path] = sorted(mat.resolve() for mat in options.files)
    if not files:
        files = sorted(MAT_DIR.glob("*.mat"))
        if options.small:
            files = sorted(files, key=lambda mat: mat.stat().st_size)[:2]
    files = files[: options.count]
    plies = [
        int(depth) for depth in (options.plies or ("0" if options.small else "0,2")).split(",")
    ]
    ways = tuple(way for way in WAYS if not (options.no_fresh and way == "gnubg fresh"))
    rolls = {mat: len(ROLL.findall(mat.read_text(encoding="utf-8"))) for mat in files}

    with GnubgProcess() as engine:
        engine.start()
        engine.evaluate(OPENING, EvalSettings(plies=0))
        print(f"engine: {engine.info.name} {engine.info.version}, MET {engine.info.met}")
        print(f"{len(files)} files, {sum(rolls.values())} rolls, {options.rounds} round(s)")
        print("  crawford: one warm process, started and given a 0-ply evaluation before timing")
        if "gnubg fresh" in ways:
            print("  gnubg fresh: a new gnubg -t -q -r for each file, start to exit")
        print("  gnubg one process (the baseline): the same commands to one gnubg started before")
        print("  timing; it then exports its analysis, untimed, to compare every decision with")
        for depth in plies:
            report(depth, files, rolls, measure(engine, files, depth, options.rounds, ways))


if __name__ == "__main__":
    main()
