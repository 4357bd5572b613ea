"""GNU Backgammon hidden from the processes a test starts, as on a machine without it.

Debian's program is hidden by naming a path where there is none; the ``gnubg`` Python
package by a folder first on ``PYTHONPATH`` whose ``gnubg`` cannot be imported, so the
Python that would run it finds no engine, as it would where the package is not installed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

MISSING_PROGRAM = "/nonexistent/games/gnubg"


def hide_the_package(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """Every Python started from now on fails to import ``gnubg``."""
    shadow = folder / "gnubg"
    shadow.mkdir(parents=True, exist_ok=True)
    (shadow / "__init__.py").write_text(
        "raise ImportError(\"No module named 'gnubg' (hidden by the test)\")\n"
    )
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")])
    )
