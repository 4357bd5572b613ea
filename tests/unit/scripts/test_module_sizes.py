"""The size rule covers every app found on disk, a new one too, and no pure core."""

from __future__ import annotations

from pathlib import Path

from scripts.module_sizes import LIMIT, ROOT, apps, oversized


def _module(path: Path, lines: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("x = 1\n" * lines, encoding="utf-8")


def test_every_app_of_the_project_is_checked_and_no_pure_core() -> None:
    names = {app.name for app in apps()}

    assert {"accounts", "matches", "tournaments", "reviews", "disputes", "fairplay"} <= names
    assert {"lobby", "config"} <= names
    assert not names & {"backgammon", "analysis", "tests", "bench", "scripts", "static"}
    on_disk = {folder.name for folder in ROOT.iterdir() if (folder / "apps.py").is_file()}
    assert on_disk <= names


def test_a_new_app_or_package_over_the_limit_is_named_and_migrations_and_formats_are_not(
    tmp_path: Path,
) -> None:
    # given a project with a new app, a new package of plumbing, and a pure core
    _module(tmp_path / "clubs" / "apps.py", 3)
    _module(tmp_path / "clubs" / "ladders.py", LIMIT + 1)
    _module(tmp_path / "clubs" / "migrations" / "0001_initial.py", LIMIT + 1)
    _module(tmp_path / "core" / "__init__.py", 1)
    _module(tmp_path / "core" / "bus.py", LIMIT + 20)
    _module(tmp_path / "core" / "rows.py", LIMIT)
    _module(tmp_path / "tournaments" / "apps.py", 3)
    _module(tmp_path / "tournaments" / "formats" / "swiss.py", LIMIT + 1)
    _module(tmp_path / "backgammon" / "__init__.py", 1)
    _module(tmp_path / "backgammon" / "moves.py", LIMIT + 1)
    _module(tmp_path / "docs" / "architecture.py", LIMIT + 1)  # no app: nothing marks it

    # then the two new modules over the limit are named, and nothing else
    assert oversized(tmp_path) == [
        (Path("clubs", "ladders.py"), LIMIT + 1),
        (Path("core", "bus.py"), LIMIT + 20),
    ]
