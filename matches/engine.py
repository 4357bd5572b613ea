"""The engine as this process uses it: GNU Backgammon kept warm, started on first use.

Two processes, so neither waits behind the other: the *play engine* answers the computer
opponent's moves and adjudications in milliseconds; the *analysis engine* runs whole-match
analyses, which take seconds to minutes. Workers keep each for their lifetime; the one
server of ``make run`` keeps both.

Which GNU Backgammon runs is ``CRAWFORD_ENGINE`` (``analysis.gnubg_found``): Debian's
program, or the ``gnubg`` Python package. Match analysis needs the program (the package's
match record has no statistics), so with the package alone analyses are unavailable while
practice and adjudication work.
"""

from __future__ import annotations

import atexit
import threading

from django.conf import settings

from analysis.gnubg_found import EngineStatus
from analysis.gnubg_process import GnubgProcess
from core.metrics import engine_called

NO_ANALYSIS_IN_THE_PACKAGE = (
    "match analysis needs Debian's GNU Backgammon program (apt-get install gnubg): "
    "the gnubg Python package keeps no match statistics"
)

_lock = threading.Lock()
_engines: dict[tuple[str, str, str], GnubgProcess] = {}


def _process(role: str, choice: str) -> GnubgProcess:
    key = (role, choice, settings.GNUBG_PROGRAM)
    with _lock:
        process = _engines.get(key)
        if process is None:
            process = GnubgProcess(settings.GNUBG_PROGRAM, choice=choice, on_call=engine_called)
            _engines[key] = process
            atexit.register(process.close)
        return process


def engine() -> GnubgProcess:
    """The play engine: practice moves and adjudications."""
    return _process("play", settings.CRAWFORD_ENGINE)


def analysis_engine() -> GnubgProcess:
    """The analysis engine: a process of its own, and always Debian's program."""
    choice = settings.CRAWFORD_ENGINE
    return _process("analysis", "program" if choice == "auto" else choice)


def engine_status() -> EngineStatus:
    """Whether the computer opponent and adjudication have an engine here, or why not."""
    return engine().status()


def analysis_status() -> EngineStatus:
    """Whether finished and uploaded matches can be analysed here, or why not."""
    if settings.CRAWFORD_ENGINE == "package":
        return EngineStatus(None, NO_ANALYSIS_IN_THE_PACKAGE)
    found = analysis_engine().status()
    if found.available or settings.CRAWFORD_ENGINE == "none":
        return found
    if engine_status().available:  # the package alone
        return EngineStatus(None, NO_ANALYSIS_IN_THE_PACKAGE)
    return engine_status()
