"""Every translation file is complete and its compiled catalog is the one served.

Django reads the compiled ``.mo`` files beside the ``.po`` sources in ``locale/``; both are
kept in the repository so ``make run`` needs no gettext tools. ``make messages`` refreshes
them; this test fails when a source has an empty or fuzzy entry, or when the compiled file
is not what the source compiles to (a translation edited but not compiled).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "locale").glob("*/LC_MESSAGES/*.po"))


def test_there_is_an_italian_catalog() -> None:
    assert ROOT / "locale/it/LC_MESSAGES/django.po" in SOURCES


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_each_catalog_is_complete_and_compiled(source: Path, tmp_path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "GNU gettext's msgfmt is needed to check the catalogs (apt-get install gettext)"
    compiled = tmp_path / "compiled.mo"

    report = subprocess.run(
        [msgfmt, "--check", "--statistics", "-o", str(compiled), str(source)],
        capture_output=True,
        text=True,
        check=True,
    ).stderr

    assert "untranslated" not in report, report
    assert "fuzzy" not in report, report
    assert compiled.read_bytes() == source.with_suffix(".mo").read_bytes(), (
        f"{source.with_suffix('.mo')} is not compiled from its source: run `make messages`"
    )
