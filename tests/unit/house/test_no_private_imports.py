"""No module imports another module's private names: what a package offers the rest of the
project is its public names (its ``__init__``), so a module's ``_helpers`` can change freely."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SKIPPED = {"tests", "bench", "scripts", ".venv", "node_modules", "static", "templates", "docs"}


def _first_party() -> set[str]:
    return {
        folder.name
        for folder in ROOT.iterdir()
        if folder.is_dir() and (folder / "__init__.py").is_file() and folder.name not in SKIPPED
    }


def _modules() -> list[Path]:
    packages = _first_party()
    return sorted(
        path
        for package in packages
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


def private_imports(source: str, first_party: set[str]) -> list[str]:
    """Each ``from first_party... import _name`` in ``source``, as text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] not in first_party:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"from {node.module} import {alias.name}")
    return found


def test_no_module_imports_a_private_name_of_another() -> None:
    first_party = _first_party()
    offending = {
        str(path.relative_to(ROOT)): found
        for path in _modules()
        if (found := private_imports(path.read_text(encoding="utf-8"), first_party))
    }
    assert offending == {}


def test_the_check_sees_a_private_import() -> None:
    source = "from accounts.ledger.rules import _helper\nfrom accounts.money import money_text\n"
    assert private_imports(source, {"accounts"}) == ["from accounts.ledger.rules import _helper"]
