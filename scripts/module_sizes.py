"""Fail when a module of a Django app is over 500 lines: split it by concern instead.

Every app is checked as it is found on disk: a folder at the root with an ``apps.py`` or an
``__init__.py`` (so a new app, or a new package of plumbing, is covered the day it lands).
Migrations are written by Django, and the pure cores (``backgammon``, ``analysis``,
``tournaments/formats``) are not apps; tests, benchmarks and scripts are not modules of the
apps.
"""

from __future__ import annotations

import sys
from pathlib import Path

LIMIT = 500
ROOT = Path(__file__).resolve().parent.parent
NOT_APPS = frozenset({"backgammon", "analysis", "tests", "bench", "scripts"})
# Folders inside an app that are not its modules: written by Django, or a pure core.
SKIPPED = (Path("migrations"), Path("tournaments", "formats"))


def apps(root: Path = ROOT) -> list[Path]:
    """The folders at ``root`` that hold an app or a package the apps import."""
    return sorted(
        folder
        for folder in root.iterdir()
        if folder.is_dir()
        and not folder.name.startswith((".", "_"))
        and folder.name not in NOT_APPS
        and ((folder / "apps.py").is_file() or (folder / "__init__.py").is_file())
    )


def _skipped(relative: Path) -> bool:
    return "migrations" in relative.parts or any(
        relative.parts[: len(folder.parts)] == folder.parts for folder in SKIPPED
    )


def oversized(root: Path = ROOT) -> list[tuple[Path, int]]:
    found = []
    for app in apps(root):
        for path in sorted(app.rglob("*.py")):
            relative = path.relative_to(root)
            if _skipped(relative):
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT:
                found.append((relative, lines))
    return found


if __name__ == "__main__":
    too_big = oversized()
    for path, lines in too_big:
        print(f"{path}: {lines} lines, over {LIMIT}: split it by concern")
    sys.exit(1 if too_big else 0)
