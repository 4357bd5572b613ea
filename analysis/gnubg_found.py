"""Which GNU Backgammon this machine has, and how to start it.

Two forms of the same engine and command interpreter can serve :mod:`analysis.gnubg_server`:

- *the program*: Debian's ``/usr/games/gnubg`` (``apt-get install gnubg``), its embedded
  Python running the server script;
- *the package*: the ``gnubg`` Python package (installed into the virtual environment by
  ``scripts/setup.sh venv``), imported by this Python running the same script.

The *choice* says which to use: ``auto`` (the program where it is installed, else the
package), ``program``, ``package``, or ``none`` (no engine: practice and analysis are
shown as unavailable). :func:`gnubg_found` answers with the command to start, or with the
reason there is none, in words an operator can act on.
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

GNUBG_EXECUTABLE = "/usr/games/gnubg"
PROGRAM_MET = "/usr/share/gnubg/met/Kazaross-XG2.xml"
PACKAGE_MET = Path("data") / "met" / "Kazaross-XG2.xml"
SERVER_SCRIPT = Path(__file__).with_name("gnubg_server.py")
CHOICES = ("auto", "program", "package", "none")
INSTALL_PROGRAM = "apt-get install gnubg"
INSTALL_PACKAGE = "scripts/setup.sh venv installs it"
_PROBE = "import gnubg, os; print(os.path.dirname(gnubg.__file__))"
_PROBE_SECONDS = 60.0


@dataclass(frozen=True)
class GnubgCommand:
    """How to start one GNU Backgammon serving the JSON-lines requests."""

    kind: str
    argv: tuple[str, ...]
    met_path: str
    described: str


@dataclass(frozen=True)
class EngineStatus:
    """The engine this process would start, or why there is none."""

    command: GnubgCommand | None
    reason: str = ""

    @property
    def available(self) -> bool:
        return self.command is not None

    @property
    def described(self) -> str:
        """Which engine, as "the program /usr/games/gnubg", or "unavailable: <why>"."""
        if self.command is None:
            return f"unavailable: {self.reason}"
        return self.command.described


def gnubg_found(
    choice: str = "auto", *, executable: str = GNUBG_EXECUTABLE, python: str = sys.executable
) -> EngineStatus:
    """The engine ``choice`` names on this machine (see the module's docstring)."""
    if choice not in CHOICES:
        return EngineStatus(None, f"the engine choice {choice!r} is none of {', '.join(CHOICES)}")
    if choice == "none":
        return EngineStatus(None, "the engine is turned off (CRAWFORD_ENGINE=none)")
    program = _program(executable)
    if choice == "program" or (choice == "auto" and program is not None):
        if program is None:
            return EngineStatus(
                None, f"GNU Backgammon is not installed at {executable}: {INSTALL_PROGRAM}"
            )
        return EngineStatus(program)
    package, why = _package(python, os.environ.get("PYTHONPATH", ""))
    if package is not None:
        return EngineStatus(package)
    if choice == "package":
        return EngineStatus(
            None, f"the gnubg Python package cannot be imported ({why}): {INSTALL_PACKAGE}"
        )
    return EngineStatus(
        None,
        f"GNU Backgammon is not installed: neither the program {executable} "
        f"({INSTALL_PROGRAM}) nor the gnubg Python package ({why}; {INSTALL_PACKAGE})",
    )


def _program(executable: str) -> GnubgCommand | None:
    if not os.access(executable, os.X_OK):
        return None
    return GnubgCommand(
        kind="program",
        argv=(executable, "-t", "-q", "-r", "-p", str(SERVER_SCRIPT)),
        met_path=PROGRAM_MET,
        described=f"the program {executable}",
    )


@functools.lru_cache(maxsize=8)
def _package(python: str, python_path: str) -> tuple[GnubgCommand | None, str]:
    """The package as ``python`` imports it (``python_path``: the PYTHONPATH it sees, a
    key of the cache only), or None and why not. Asked once a process: the import takes
    a moment and the answer does not change while the process lives."""
    try:
        probe = subprocess.run(
            [python, "-c", _PROBE],
            capture_output=True,
            text=True,
            timeout=_PROBE_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return None, f"{python} could not be run: {error}"
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["no message"])[-1]
        return None, f"{python} cannot import it: {last}"
    folder = Path(probe.stdout.strip().splitlines()[-1])
    return (
        GnubgCommand(
            kind="package",
            argv=(python, str(SERVER_SCRIPT)),
            met_path=str(folder / PACKAGE_MET),
            described=f"the gnubg Python package in {folder}",
        ),
        "",
    )
