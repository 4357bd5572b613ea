"""The move generator compiled ahead of time: its hot modules built into C extensions by
mypyc (`scripts/build_native.py`), used only while they were built from the sources as they
are now.

The Python sources stay the one source of truth. The build writes the extensions, and a
digest of the sources it compiled, to ``build/native/`` (never beside the sources, so a
checkout without a build, or with an old one, imports the sources as it always did). This
module is the package's first import: `load_compiled_modules` compares that digest with the
sources' own, and when they agree puts a finder first on ``sys.meta_path`` that loads the
compiled modules; when a source changed since the build, or no build is there, the sources
are imported. The compiled modules call each other's functions directly, so it is all of
them or none.

``CRAWFORD_PURE_PYTHON=1`` imports the sources even when the build is fresh (the tests compare
the two).

Imports only the standard library: the build loads this file on its own, without running the
package (which would load the very extensions it is about to replace).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Final

COMPILED_MODULES: Final = (
    "backgammon.board",
    "backgammon.moves.steps",
    "backgammon.moves.plays",
    "backgammon.moves.search",
    "backgammon.moves.positions",
)
"""The modules the build compiles: those `legal_plays` and `legal_positions` run through."""

SHARED_LIBRARY: Final = "backgammon_native__mypyc"
"""The extension holding the compiled code of every module (each module's own extension is a
small one that loads it): mypyc's group ``backgammon_native``."""

ROOT: Final = Path(__file__).resolve().parent.parent
BUILD_DIR: Final = ROOT / "build" / "native"
DIGEST_FILE: Final = BUILD_DIR / "sources.sha256"


def source_path(module: str) -> Path:
    """The source file of one of `COMPILED_MODULES`."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def sources_digest() -> str:
    """A digest of the compiled modules' sources as they are now."""
    digest = hashlib.sha256()
    for module in COMPILED_MODULES:
        digest.update(module.encode() + b"\0" + source_path(module).read_bytes() + b"\0")
    return digest.hexdigest()


def extension_path(module: str) -> Path:
    """Where the build puts the extension of ``module`` for this interpreter."""
    return BUILD_DIR.joinpath(*module.split(".")).with_name(
        module.rpartition(".")[2] + EXTENSION_SUFFIXES[0]
    )


def compiled_build_is_fresh() -> bool:
    """Whether a build is there and was made from the sources as they are now."""
    try:
        built = DIGEST_FILE.read_text().strip()
    except OSError:
        return False
    return built == sources_digest() and all(
        extension_path(module).is_file() for module in (*COMPILED_MODULES, SHARED_LIBRARY)
    )


class _CompiledModules(MetaPathFinder):
    """Finds the compiled modules in the build, ahead of their sources."""

    def __init__(self) -> None:
        self.paths = {
            module: str(extension_path(module)) for module in (*COMPILED_MODULES, SHARED_LIBRARY)
        }

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        location = self.paths.get(fullname)
        if location is None:
            return None
        return importlib.util.spec_from_file_location(fullname, location)


def load_compiled_modules() -> bool:
    """Have the compiled modules imported in place of their sources when the build is fresh
    and ``CRAWFORD_PURE_PYTHON`` does not ask for the sources; whether they will be.

    Called by the package before it imports any of them.
    """
    if any(isinstance(finder, _CompiledModules) for finder in sys.meta_path):
        return True
    if os.environ.get("CRAWFORD_PURE_PYTHON", "") not in ("", "0"):
        return False
    if not compiled_build_is_fresh():
        return False
    sys.meta_path.insert(0, _CompiledModules())
    return True


def compiled_modules_in_use() -> bool:
    """Whether the move generator running in this process is the compiled one."""
    module = sys.modules.get("backgammon.moves.positions")
    return module is not None and not (module.__file__ or "").endswith(".py")


load_compiled_modules()
