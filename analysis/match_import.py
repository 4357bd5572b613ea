"""Match files of other programs read by GNU Backgammon's own importers and written as .mat.

GNU Backgammon imports GamesGrid's ``.sgg``, TrueMoneyGames' ``.tmg`` and its own ``.sgf``
(``import sgg``, ``import tmg``, ``load match``) and writes any match it holds as .mat
(``export match mat``). :func:`import_match` runs that in a GNU Backgammon of its own, started
for the one file (:mod:`analysis.gnubg_match_import` inside it), and gives back the .mat
text.

What .mat cannot say is added as header tags the .mat reader and the analysis take:
``Crawford "Off"`` for a match played without the Crawford rule, and a money session's
``Jacoby`` rule (on or off), which the program's export leaves out. Games, players, length
and scores are what .mat holds. A variant (Nackgammon, Hypergammon) is refused, the
analysis knowing standard backgammon only, and so is a match played without the doubling
cube, or one whose game starts from a position set up (GNU Backgammon saves a position
as .sgf too), which .mat cannot say either. A file the program reads no match from is refused
with what the program said about it, the file named as the player named it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analysis.engine import EngineError, EngineTimeout, InvalidMatchError
from analysis.gnubg_found import SERVER_SCRIPT, GnubgCommand

IMPORT_SCRIPT = Path(__file__).with_name("gnubg_match_import.py")
IMPORT_SECONDS = 60.0
"""A file of the largest upload is read in well under a second; past this the program hangs."""
_GAME_LINE = re.compile(r"^\s*Game\s+\d+", re.MULTILINE)
_CHATTER = ("Will not display boards", "Will not ask for confirmation")


class MatchImportRefused(InvalidMatchError):
    """GNU Backgammon read no match from the file, or one the analysis cannot take; the
    message says why in words a player understands."""


@dataclass(frozen=True)
class ImportedMatch:
    mat: str
    """The .mat text, with the rules the export leaves out written as header tags."""
    players: tuple[str, str]
    length: int
    games: int


def import_match(
    command: GnubgCommand,
    *,
    importer: str,
    content: bytes,
    filename: str,
    timeout: float = IMPORT_SECONDS,
) -> ImportedMatch:
    """``content`` read by GNU Backgammon's ``importer`` command (``import sgg``) and written
    as .mat; `MatchImportRefused` when it reads no match, `EngineError` when the program
    fails."""
    if not command.argv or command.argv[-1] != str(SERVER_SCRIPT):
        raise EngineError(f"cannot start GNU Backgammon's importer from {command.argv!r}")
    with tempfile.TemporaryDirectory(prefix="crawford-import-") as folder:
        source = Path(folder) / ("upload" + Path(filename).suffix.lower()[:8])
        source.write_bytes(content)
        exported = Path(folder) / "exported.mat"
        request = {"command": importer, "path": str(source), "export": str(exported)}
        try:
            done = subprocess.run(
                [*command.argv[:-1], str(IMPORT_SCRIPT)],
                input=json.dumps(request) + "\n",
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="replace",
                timeout=timeout,
                check=False,
                env={**os.environ, "CRAWFORD_ANALYSIS_DIR": str(IMPORT_SCRIPT.parent)},
            )
        except subprocess.TimeoutExpired:
            raise EngineTimeout(
                f"GNU Backgammon did not read the file in {timeout:.0f} s"
            ) from None
        except OSError as error:
            raise EngineError(f"GNU Backgammon could not be started: {error}") from None
        said = _said(done.stderr, str(source), filename)
        answer = _answer(done.stdout)
        if answer is None:
            raise MatchImportRefused(
                f"GNU Backgammon stopped while reading it ({said or 'no message'})"
            )
        if not answer["ok"] or not exported.is_file():
            raise MatchImportRefused(
                f"GNU Backgammon says: {said}" if said else "GNU Backgammon found no match in it"
            )
        text = exported.read_bytes().decode("utf-8", errors="replace")
    if answer.get("set_up"):
        raise MatchImportRefused(
            "a game of it starts from a position set up, not the opening: a .mat match"
            " cannot say that, so it cannot be analysed as a match"
        )
    return _with_rules(text, answer["info"], answer["games"])


def _answer(stdout: str) -> dict[str, Any] | None:
    """The script's answer: its last line that is JSON (the program's banner comes first)."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            answer: dict[str, Any] = json.loads(line)
            return answer
    return None


def _said(stderr: str, path: str, filename: str) -> str:
    """What the program said about the file, its last words first, the file named as the
    player named it."""
    lines = [
        line.strip().replace(path, filename or "the file")
        for line in stderr.splitlines()
        if line.strip() and not line.startswith(_CHATTER) and not line.startswith((" ", "+", "|"))
    ]
    return lines[-1] if lines else ""


def _with_rules(mat: str, info: dict[str, Any], games: int) -> ImportedMatch:
    variation = str(info.get("variation", "Standard"))
    if variation != "Standard":
        raise MatchImportRefused(
            f"the match is of {variation}, and only standard backgammon is analysed"
        )
    length = int(info.get("match-length", 0))
    rules = set(info.get("rules") or ())
    if "NoCube" in rules:
        raise MatchImportRefused(
            "the match was played without the doubling cube, which a .mat file cannot say:"
            " its analysis would judge cube decisions nobody could take"
        )
    tags = []
    if length and "Crawford" not in rules:
        tags.append('; [Crawford "Off"]')
    if not length:
        tags.append(f'; [Jacoby "{"On" if "Jacoby" in rules else "Off"}"]')
    written = len(_GAME_LINE.findall(mat))
    if written != games:
        raise MatchImportRefused(
            f"GNU Backgammon read {games} games but wrote {written} of them as .mat"
        )
    players = (str(info["X"]["name"]), str(info["O"]["name"]))
    return ImportedMatch("\n".join([*tags, mat]) if tags else mat, players, length, games)
