"""What GNU Backgammon itself says about each decision of a match, to check ours against.

A separate ``gnubg -t`` (not our server, not our module run inside the program) is fed what a
user types: the analysis settings, ``import mat``, ``analyse match`` and ``export match text``;
the program's own text export is read back here, decision by decision:

- a *move* record: the rolled dice, the analysis's candidate plays in rank order (rank 1 is
  the best play) and the played one marked ``*`` with its equity difference to the best;
  before it, when the player could double, the cube analysis of that roll's no-double;
- a *double* record (``on roll, cube decision?``) and a *response* record (``doubles to N``,
  then ``accepts``, ``rejects`` or ``beavers``), each with its cube analysis.

A cube analysis prints the three cubeful equities (no double, double/take, double/pass) from
the view of the player who decides, so negated for the one who responds, and the *proper
cube action* in words ("No double, take (25.9%)", "Too good to double, pass", ...).

The export prints ``DIGITS`` decimals (``set output digits``); a figure read back is within
half a unit of the last digit of the program's own, a difference of two within one unit,
and the program adds them up in single precision (``FLOAT32``): :data:`ONE_FIGURE` and
:data:`TWO_FIGURES` are the tolerances that precision justifies, and no more.

:func:`differences` compares an :class:`analysis.match_analysis.MatchAnalysis` with it:
every decision's best play or best cube action, the error of the played one, and the cube
verdict (:func:`verdict_differs`, the one place to compare the verdict's words).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from analysis.gnubg_process import GNUBG_EXECUTABLE
from analysis.match_analysis import CLOSE_CUBE, Decision, MatchAnalysis
from backgammon.errors import NotationError
from backgammon.notation import format_play, parse_moves

DIGITS = 5
FLOAT32 = 1e-6
ONE_FIGURE = 0.5 * 10**-DIGITS + FLOAT32
TWO_FIGURES = 10**-DIGITS + FLOAT32

_HEADER = re.compile(r"^Move number \d+:\s")
_POSITION = re.compile(r"Position ID: (\S+)")
_RANK = re.compile(
    r"^(?P<played>\*)?\s+(?P<rank>\d+\.|\?\?)\s+\S+ \S+-ply\s+(?P<move>.+?)\s+"
    r"Eq\.: (?P<equity>[+-]\d+\.\d+)(?: \((?P<diff>[+-]\d+\.\d+)\))?$"
)
_CUBEFUL = re.compile(
    r"^\d\. (?P<label>No double|No redouble|Double, take|Redouble, take|Double, pass|"
    r"Redouble, pass|Double, beaver|Redouble, beaver)\s+(?P<equity>[+-]\d+\.\d+)"
)
_PROPER = "Proper cube action: "
_RESPONSES = {"accepts": "take", "rejects": "drop", "beavers": "beaver"}


@dataclass(frozen=True)
class ExportedCube:
    """One cube analysis: the three equities from the doubler's view, and the verdict."""

    no_double: float
    double_take: float
    double_pass: float
    proper: str

    def best(self, action: str) -> str:
        """The best action for the player taking ``action``, in our words, as the verdict says:
        ``double`` or ``no double`` for the doubler, ``take`` or ``drop`` for the responder."""
        doubler, _, responder = self.proper.partition(", ")
        if action in ("no double", "double"):
            # "Optional double": doubling is worth the no-double to within 0.00001.
            doubler_acts = doubler.startswith(("Double", "Redouble", "Optional"))
            return "double" if doubler_acts else "no double"
        return "drop" if responder.startswith("pass") else "take"

    def error(self, action: str) -> float:
        """What ``action`` gave up against the best, from the printed equities."""
        doubled = min(self.double_take, self.double_pass)
        if action in ("no double", "double"):
            chosen = self.no_double if action == "no double" else doubled
            return max(self.no_double, doubled) - chosen
        chosen = self.double_take if action in ("take", "beaver") else self.double_pass
        return chosen - doubled

    @property
    def close(self) -> bool:
        """As :data:`analysis.match_analysis.CLOSE_CUBE` has a no-double listed."""
        return min(self.double_take, self.double_pass) - self.no_double > -CLOSE_CUBE


@dataclass(frozen=True)
class Exported:
    """One decision as the export prints it; ``action`` as our :class:`Decision` names it."""

    game: int
    kind: str
    action: str
    position_id: str
    played: str = ""
    best: str = ""
    error: float = 0.0
    cube: ExportedCube | None = None


@dataclass(frozen=True)
class Difference:
    """Where our decision and the program's differ; ``number`` is ours (0: none of ours)."""

    game: int
    number: int
    action: str
    field: str
    ours: str
    gnubg: str

    def __str__(self) -> str:
        return (
            f"game {self.game} decision {self.number} ({self.action}): {self.field} "
            f"ours {self.ours!r}, gnubg {self.gnubg!r}"
        )


def export_commands(mat: Path, plies: int, out: Path) -> list[str]:
    """What a user types to have the program analyse ``mat`` and export every decision."""
    settings = [
        f"set analysis {decision} evaluation {setting}"
        for decision in ("chequerplay", "cubedecision")
        for setting in (f"plies {plies}", "cubeful on", "prune on", "deterministic on", "noise 0")
    ]
    return [
        "set display off",
        f"set output digits {DIGITS}",
        "set output mwc off",
        *settings,
        "set confirm new off",
        f'import mat "{mat}"',
        "analyse match",
        f'export match text "{out}"',
    ]


def exported_match(mat: Path, plies: int) -> list[list[Exported]]:
    """Each game's decisions as a separate ``gnubg -t -q -r`` analyses and exports them."""
    with tempfile.TemporaryDirectory(prefix="crawford-export-") as folder:
        out = Path(folder) / "match.txt"
        subprocess.run(
            [GNUBG_EXECUTABLE, "-t", "-q", "-r"],
            input="\n".join(export_commands(mat, plies, out)) + "\n",
            capture_output=True,
            text=True,
            timeout=3600,
            check=True,
        )
        return read_export(Path(folder))


def read_export(folder: Path) -> list[list[Exported]]:
    """The games of an ``export match text`` in ``folder``: ``match.txt``, ``match_002.txt``..."""
    files = sorted(folder.glob("*.txt"), key=lambda path: (len(path.name), path.name))
    if not files:
        raise RuntimeError(f"GNU Backgammon exported nothing into {folder}")
    return [list(_game(number, path.read_text())) for number, path in enumerate(files, start=1)]


def _game(number: int, text: str) -> Iterator[Exported]:
    records = re.split(r"^(?=Move number \d+:)", text, flags=re.MULTILINE)
    for record in records:
        if _HEADER.match(record):
            yield from _record(number, record.splitlines())


def _record(game: int, lines: Sequence[str]) -> Iterator[Exported]:
    header = lines[0]
    found = next((_POSITION.search(line) for line in lines if _POSITION.search(line)), None)
    position_id = found.group(1) if found else ""
    starred = next((line for line in lines if line.startswith("* ")), "")
    responding = bool(re.search(r"doubles to \d+$", header))
    cube = _cube(lines, responding=responding)
    if header.endswith("on roll, cube decision?"):
        if cube is not None:
            yield Exported(game, "cube", "double", position_id, cube=cube)
        return
    if responding:
        response = _RESPONSES.get(starred.rsplit(" ", 1)[-1])
        if response is not None and cube is not None:
            yield Exported(game, "cube", response, position_id, cube=cube)
        return
    if not re.search(r"to play \d\d$", header):
        return
    if cube is not None:
        yield Exported(game, "cube", "no double", position_id, cube=cube)
    ranks = [match for line in lines if (match := _RANK.match(line))]
    played = next((rank for rank in ranks if rank.group("played")), None)
    if played is None:
        yield Exported(game, "checker", "move", position_id)
        return
    yield Exported(
        game,
        "checker",
        "move",
        position_id,
        played=written(played.group("move")),
        best=written(ranks[0].group("move")),
        error=-float(played.group("diff") or 0.0),
    )


def _cube(lines: Sequence[str], *, responding: bool) -> ExportedCube | None:
    """The record's cube analysis, from the view of the player who doubles."""
    equities: dict[str, float] = {}
    proper = None
    for line in lines:
        if found := _CUBEFUL.match(line):
            label = found.group("label").lower().replace("redouble", "double")
            equities[label] = float(found.group("equity"))
        elif line.startswith(_PROPER):
            proper = line[len(_PROPER) :].strip()
    if proper is None or len(equities) != 3:
        return None
    # A response's analysis is printed from the responder's view.
    sign = -1.0 if responding else 1.0
    take = equities.get("double, take", equities.get("double, beaver"))
    assert take is not None, f"no double/take equity in {equities}"
    return ExportedCube(
        no_double=sign * equities["no double"],
        double_take=sign * take,
        double_pass=sign * equities["double, pass"],
        proper=proper,
    )


def written(play: str) -> str:
    """A play as our move list writes it (``backgammon.notation``), the program's as it came
    when it is no play."""
    try:
        return format_play(parse_moves(play))
    except NotationError:
        return play


def verdict_differs(decision: Decision, exported: ExportedCube) -> tuple[str, str] | None:
    """Our cube verdict and the program's, when they differ. The doubler's decision is
    compared on the proper action in words (the program's line without its take point in
    brackets); an answer on the best answer, as the program prints the answer's block from
    the answering player's view (a too-good double reads "Double, pass" there)."""
    proper = re.sub(r"\s*\(\d+(?:\.\d+)?%\)$", "", exported.proper.strip())
    if decision.action in ("no double", "double") and decision.cube is not None:
        ours = decision.cube.verdict.value
        return None if ours == proper else (ours, proper)
    gnubg = exported.best(decision.action)
    best = "take" if decision.best == "beaver" else decision.best
    return None if best == gnubg else (best, gnubg)


def differences(
    analysis: MatchAnalysis, exported: Sequence[Sequence[Exported]]
) -> list[Difference]:
    """Every way our decisions differ from the program's export, game by game, in order."""
    found: list[Difference] = []
    if len(analysis.games) != len(exported):
        found.append(
            Difference(0, 0, "match", "games", str(len(analysis.games)), str(len(exported)))
        )
    for game, theirs in zip(analysis.games, exported, strict=False):
        found.extend(_game_differences(game.number, game.decisions, theirs))
    return found


def _game_differences(
    game: int, ours: Sequence[Decision], theirs: Sequence[Exported]
) -> Iterator[Difference]:
    index = 0
    for entry in theirs:
        decision = ours[index] if index < len(ours) else None
        if entry.action == "no double" and not _same_decision(decision, entry):
            # We list a no-double only when it was close.
            assert entry.cube is not None
            if entry.cube.close:
                yield Difference(game, 0, "no double", "listed", "absent", "close")
            continue
        if decision is None or (decision.kind, decision.action) != (entry.kind, entry.action):
            ours_named = "none" if decision is None else decision.action
            yield Difference(game, 0, entry.action, "decision", ours_named, entry.action)
            return
        index += 1
        yield from _decision_differences(decision, entry)
    for decision in ours[index:]:
        yield Difference(game, decision.number, decision.action, "decision", "listed", "none")


def _same_decision(decision: Decision | None, entry: Exported) -> bool:
    return (
        decision is not None
        and decision.kind == entry.kind
        and decision.action == entry.action
        and decision.position_id == entry.position_id
    )


def _decision_differences(decision: Decision, entry: Exported) -> Iterator[Difference]:
    def differ(field: str, ours: object, gnubg: object) -> Difference:
        return Difference(
            decision.game, decision.number, decision.action, field, str(ours), str(gnubg)
        )

    if decision.position_id != entry.position_id:
        yield differ("position", decision.position_id, entry.position_id)
    if entry.kind == "checker":
        if decision.played != entry.played:
            yield differ("played", decision.played, entry.played)
        if decision.best != entry.best:
            yield differ("best", decision.best, entry.best)
        if abs(decision.error - entry.error) > ONE_FIGURE:
            yield differ("error", f"{decision.error:.6f}", f"{entry.error:.{DIGITS}f}")
        return
    assert entry.cube is not None
    if verdict := verdict_differs(decision, entry.cube):
        yield differ("verdict", *verdict)
    error = max(entry.cube.error(decision.action), 0.0)
    if abs(decision.error - error) > TWO_FIGURES:
        yield differ("error", f"{decision.error:.6f}", f"{error:.{DIGITS}f}")
