"""Staff screen match files from any site: every player in them with the engine-fit figures
and the verdict the live detector would give, from the command line and the API alike.

The files are GNU Backgammon playing itself, written by the program's own ``export match
mat``: ``engine_selfplay`` at 0 ply without noise (the depth the tests analyse at: every
play is the analysis's best), ``noisy_players`` at 0 ply with the noise of a beginner's
judgement (0.06), both sides each time.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import override_settings

from fairplay.screening import MAX_SCREEN_FILE_BYTES, MAX_SCREEN_FILES
from tests.factories import UserFactory
from tests.integration.disputes.helpers import staff
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[2] / "data" / "mat" / "fairplay"
ENGINE = FILES / "engine_selfplay_0ply_5pt.mat"
NOISY = FILES / "noisy_players_0ply_5pt.mat"


@pytest.fixture(autouse=True)
def at_zero_ply(settings: object) -> Iterator[None]:
    limits = {
        "ENGINE_WINDOW": 10,
        "ENGINE_MIN_DECISIONS": 20,
        "ENGINE_Z": 3.0,
        "ENGINE_AGREEMENT": 0.9,
    }
    with override_settings(ANALYSIS_PLIES=0, FAIRPLAY=limits):
        yield


def screened_by_command(*paths: Path) -> dict[str, dict[str, Any]]:
    out = StringIO()
    call_command("fairplay_screen", "--json", *map(str, paths), stdout=out, stderr=StringIO())
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    return {str(row["player"]): row for row in rows}


def test_the_engine_playing_itself_is_flagged_and_noisy_players_are_not() -> None:
    rows = screened_by_command(NOISY, ENGINE)

    assert list(rows) == ["novice_a", "novice_b", "engine_a", "engine_b"]
    for name in ("engine_a", "engine_b"):
        assert rows[name]["flagged"] is True
        assert rows[name]["agreement"] == 1.0
        assert rows[name]["pr"] == 0.0
        assert rows[name]["signs"]
    for name in ("novice_a", "novice_b"):
        assert rows[name]["flagged"] is False
        assert rows[name]["agreement"] < 0.9
        assert rows[name]["pr"] > 0
    assert {row["matches"] for row in rows.values()} == {1}
    assert all(row["decisions"] >= row["checker_plays"] > 0 for row in rows.values())


def test_the_command_names_an_unreadable_file_and_screens_the_others(tmp_path: Path) -> None:
    broken = tmp_path / "broken.mat"
    broken.write_text('; [Site "somewhere"]\n\n 5 point match\n\n Game 1\n nobody\n')
    errors = StringIO()

    out = StringIO()
    call_command("fairplay_screen", "--json", str(broken), str(ENGINE), stdout=out, stderr=errors)

    assert "broken.mat: refused: This .mat file cannot be read" in errors.getvalue()
    assert [json.loads(line)["player"] for line in out.getvalue().splitlines()] == [
        "engine_a",
        "engine_b",
    ]
    with pytest.raises(CommandError, match="No file could be analysed"):
        call_command("fairplay_screen", str(broken), stdout=StringIO(), stderr=StringIO())


def test_the_api_gives_staff_what_the_command_gives() -> None:
    answer = api_for(staff()).post(
        "/api/fairplay/screen/",
        {"files": [upload(NOISY), upload(ENGINE)]},
        format="multipart",
    )

    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["files"] == [
        {"file": NOISY.name, "players": ["novice_a", "novice_b"], "refused": ""},
        {"file": ENGINE.name, "players": ["engine_a", "engine_b"], "refused": ""},
    ]
    by_command = screened_by_command(NOISY, ENGINE)
    assert {row["player"]: row for row in body["players"]} == by_command


def test_only_staff_screen_files() -> None:
    answer = api_for(UserFactory()).post(
        "/api/fairplay/screen/", {"files": [upload(ENGINE)]}, format="multipart"
    )

    assert answer.status_code == 403
    assert answer.json()["detail"] == "Only staff screen match files."


@pytest.mark.parametrize(
    ("files", "detail"),
    [
        ([], 'Send one match file or more in the multipart field "files".'),
        (
            [SimpleUploadedFile("notes.doc", b"Dear club, here are the results.\n")],
            "notes.doc: This is not a match file this site reads: it is none of Jellyfish .mat,"
            " GNU Backgammon .sgf, GamesGrid .sgg, TrueMoneyGames .tmg, eXtreme Gammon .xg.",
        ),
        (
            [SimpleUploadedFile("a.mat", b"5 point match\n")] * (MAX_SCREEN_FILES + 1),
            f"Send {MAX_SCREEN_FILES} files at most; these are {MAX_SCREEN_FILES + 1}.",
        ),
        (
            [SimpleUploadedFile("photo.mat", b"\x89PNG\x00\x00")],
            "photo.mat: This is not a text file: a .mat file is text.",
        ),
        (
            [SimpleUploadedFile("big.mat", b" " * (MAX_SCREEN_FILE_BYTES + 1))],
            "big.mat: The file is larger than 512 KB.",
        ),
    ],
)
def test_a_bad_upload_is_refused_with_the_reason(
    files: list[SimpleUploadedFile], detail: str
) -> None:
    answer = api_for(staff()).post("/api/fairplay/screen/", {"files": files}, format="multipart")

    assert answer.status_code == 400
    assert answer.json()["detail"] == detail


def test_one_unreadable_file_refuses_the_upload_before_anything_is_analysed() -> None:
    broken = SimpleUploadedFile("broken.mat", b" 5 point match\n\n Game 1\n nobody\n")

    answer = api_for(staff()).post(
        "/api/fairplay/screen/", {"files": [upload(ENGINE), broken]}, format="multipart"
    )

    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("broken.mat: This .mat file cannot be read: ")


def upload(path: Path) -> SimpleUploadedFile:
    return SimpleUploadedFile(path.name, path.read_bytes())
