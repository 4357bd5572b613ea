"""Compile the move generator's hot modules into C extensions with mypyc, in ``build/native/``
(see `backgammon.native`, which decides at import whether they are used).

    .venv/bin/python scripts/build_native.py           # when a source changed since the build
    .venv/bin/python scripts/build_native.py --force   # always (the image, another Python)

Run by scripts/setup.sh (so by `make run`, `make test`, `make lint` and CI) and by the
Dockerfile. Needs mypy (mypyc comes with it), setuptools and a C compiler with Python's
headers. The new build is made beside the old one and put in its place at the end, so a
process running on the old extensions keeps its files.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def native_module() -> ModuleType:
    """`backgammon.native` loaded from its file alone: importing the package would load the
    extensions this build replaces."""
    spec = importlib.util.spec_from_file_location(
        "_backgammon_native_build", ROOT / "backgammon" / "native.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(native: ModuleType, digest: str) -> None:
    # setuptools and mypyc are imported here: a fresh build needs neither.
    from mypyc.build import mypycify
    from setuptools import Distribution

    build_dir: Path = native.BUILD_DIR
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="native-", dir=build_dir.parent))
    try:
        sources = [
            str(native.source_path(module).relative_to(ROOT)) for module in native.COMPILED_MODULES
        ]
        extensions = mypycify(
            # The project's mypy settings load Django's plugin; compiling needs none of them.
            ["--config-file=", *sources],
            group_name=native.SHARED_LIBRARY.removesuffix("__mypyc"),
            target_dir=str(work / "c"),
        )
        # A Distribution of its own: setuptools' setup() would read pyproject.toml.
        distribution = Distribution({"name": "backgammon-native", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.build_lib = str(work / "lib")
        command.build_temp = str(work / "temp")
        distribution.run_command("build_ext")
        (work / "lib" / native.DIGEST_FILE.name).write_text(digest + "\n")
        old = work / "old"
        if build_dir.exists():
            build_dir.rename(old)
        (work / "lib").rename(build_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="build even when fresh")
    arguments = parser.parse_args()
    native = native_module()
    if not arguments.force and native.compiled_build_is_fresh():
        return 0

    os.chdir(ROOT)
    print("Compiling the move generator (mypyc):", ", ".join(native.COMPILED_MODULES))
    build(native, native.sources_digest())
    if not native.compiled_build_is_fresh():
        print("The build did not leave every extension in build/native/", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
