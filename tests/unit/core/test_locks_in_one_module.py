"""Every lock goes through ``core.locks``: no other module of the project calls
``select_for_update`` or writes a ``FOR UPDATE`` or an advisory lock itself, and the house
plan's "One lock order" lists the kinds in the module's order."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from core.locks import Lock

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = (
    "config", "core", "accounts", "analysis", "backgammon", "matches", "reviews",
    "tournaments", "disputes", "fairplay", "lobby",
)  # fmt: skip
LOCKING = re.compile(r"FOR (NO KEY )?UPDATE|FOR (KEY )?SHARE|pg_(try_)?advisory", re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the nodes that are docstrings (prose may name a lock)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def _locks_taken_in(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    prose = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "select_for_update":
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} select_for_update")
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in prose
            and LOCKING.search(node.value)
        ):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value.strip()[:40]!r}")
    return found


def test_no_module_but_core_locks_takes_a_lock_itself() -> None:
    elsewhere = [
        taken
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != ROOT / "core" / "locks.py" and "migrations" not in path.parts
        for taken in _locks_taken_in(path)
    ]
    assert elsewhere == []


def test_the_house_plan_lists_the_lock_order_as_the_module_names_it() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("\n## One lock order\n", 1)[1].split("\n## ", 1)[0]
    named = [name for name in re.findall(r"`([A-Z_]+)`", section) if name in Lock.__members__]
    assert list(dict.fromkeys(named)) == [kind.name for kind in Lock]
