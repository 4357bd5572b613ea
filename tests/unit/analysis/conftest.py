"""What the analysis tests share: one warm GNU Backgammon per test module."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from analysis.gnubg_process import GNUBG_EXECUTABLE, GnubgProcess


@pytest.fixture(scope="module")
def engine() -> Iterator[GnubgProcess]:
    """Debian's program, started once for the module's tests and stopped after them."""
    if not os.access(GNUBG_EXECUTABLE, os.X_OK):
        pytest.fail(f"GNU Backgammon is not installed at {GNUBG_EXECUTABLE}: apt-get install gnubg")
    with GnubgProcess() as process:
        yield process
