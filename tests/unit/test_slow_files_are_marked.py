"""Every test file that starts Celery workers, private Redis or PostgreSQL servers or the
embedded server is marked ``slow`` as a whole, so ``make test-fast`` (``-m "not slow"``)
never starts one.

A file starts them when it imports ``tests/workers.py``, ``tests/private_services.py`` or
``tests/embedded.py``, or names a fixture of a ``conftest.py`` that starts them (directly, or
through another such fixture). Browser tests need no mark of their own: tests/conftest.py
marks every test under tests/browser ``slow``.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
STARTERS = {"tests.workers", "tests.private_services", "tests.embedded"}
# What the starters' modules offer that brings a process up.
STARTING_NAMES = {"start_worker", "PrivateRedis", "PrivatePostgres"}


def _names(node: ast.AST) -> set[str]:
    """Every name, argument and string a piece of code mentions."""
    found: set[str] = set()
    for child in ast.walk(node):
        if isinstance(child, ast.Name):
            found.add(child.id)
        elif isinstance(child, ast.arg):
            found.add(child.arg)
        elif isinstance(child, ast.Constant) and isinstance(child.value, str):
            found.add(child.value)
    return found


def _is_fixture(function: ast.FunctionDef) -> bool:
    return any("fixture" in ast.unparse(decorator) for decorator in function.decorator_list)


def starting_fixtures() -> set[str]:
    """The conftest fixtures that start a worker or a server, directly or through another."""
    fixtures = {
        node.name: _names(node)
        for conftest in TESTS.rglob("conftest.py")
        for node in ast.walk(ast.parse(conftest.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and _is_fixture(node)
    }
    starting: set[str] = set()
    while True:
        more = {
            name
            for name, mentioned in fixtures.items()
            if name not in starting and mentioned & (STARTING_NAMES | starting)
        }
        if not more:
            return starting
        starting |= more


def starts_processes(tree: ast.Module, fixtures: set[str]) -> bool:
    imports = any(
        (isinstance(node, ast.ImportFrom) and node.module in STARTERS)
        or (isinstance(node, ast.Import) and any(a.name in STARTERS for a in node.names))
        for node in ast.walk(tree)
    )
    return imports or bool(_names(tree) & fixtures)


def marked_slow(tree: ast.Module) -> bool:
    """The module's ``pytestmark`` holds ``pytest.mark.slow``."""
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in targets):
                return any(
                    isinstance(child, ast.Attribute)
                    and child.attr == "slow"
                    and ast.unparse(child.value) == "pytest.mark"
                    for child in ast.walk(node)
                )
    return False


def unmarked() -> list[str]:
    fixtures = starting_fixtures()
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        relative = path.relative_to(TESTS)
        if relative.parts[0] == "browser" or path == Path(__file__).resolve():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if starts_processes(tree, fixtures) and not marked_slow(tree):
            found.append(str(relative))
    return found


def test_the_suites_own_fixtures_that_start_workers_are_found() -> None:
    assert {"celery_worker_process", "review_worker"} <= starting_fixtures()


def test_every_file_that_starts_workers_or_servers_is_marked_slow() -> None:
    assert unmarked() == []


def test_a_file_that_names_a_worker_fixture_without_the_mark_is_found() -> None:
    fixtures = starting_fixtures()
    bare = ast.parse(
        '@pytest.mark.usefixtures("celery_worker_process")\ndef test_x() -> None:\n    pass\n'
    )
    marked = ast.parse(f"import pytest\npytestmark = [pytest.mark.slow]\n{ast.unparse(bare)}")
    importing = ast.parse("from tests.private_services import PrivateRedis\n")

    assert starts_processes(bare, fixtures)
    assert not marked_slow(bare)
    assert marked_slow(marked)
    assert starts_processes(importing, fixtures)
    assert not starts_processes(ast.parse("def test_y() -> None:\n    pass\n"), fixtures)
