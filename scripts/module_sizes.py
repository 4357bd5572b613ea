"""Fail when a module of a Django app is over 500 lines: split it by concern instead.

Migrations are written by Django, and the pure cores (``backgammon``, ``analysis``,
``tournaments/formats``) are not apps; tests and benchmarks are not modules of the apps.
"""

from __future__ import annotations

import sys
from pathlib import Path

LIMIT = 500
APPS = ("accounts", "matches", "tournaments", "disputes", "lobby", "config", "core")
ROOT = Path(__file__).resolve().parent.parent


def oversized() -> list[tuple[Path, int]]:
    found = []
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts or "formats" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT:
                found.append((path.relative_to(ROOT), lines))
    return found


if __name__ == "__main__":
    too_big = oversized()
    for path, lines in too_big:
        print(f"{path}: {lines} lines, over {LIMIT}: split it by concern")
    sys.exit(1 if too_big else 0)
