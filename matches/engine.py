"""The analysis engine as this process uses it: one warm GNU Backgammon, started on first use.

Analysis workers keep it for their lifetime, so an evaluation costs milliseconds rather
than a program start.
"""

from __future__ import annotations

import atexit
import threading

from analysis.gnubg_process import GnubgProcess
from core.metrics import engine_called

_lock = threading.Lock()
_engine: GnubgProcess | None = None


def engine() -> GnubgProcess:
    global _engine
    with _lock:
        if _engine is None:
            _engine = GnubgProcess(on_call=engine_called)
            atexit.register(_engine.close)
        return _engine
