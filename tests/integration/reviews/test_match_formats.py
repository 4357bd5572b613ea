"""An upload's format is told by its content, the name breaking a tie; a reader of another
format plugs into the registry and its files are analysed like any other."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backgammon.matfile import parse_mat
from reviews import match_formats
from reviews.match_formats import MatchFormat, UnreadableMatch, detected, register
from reviews.models import Analysis
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for

FILES = Path(__file__).resolve().parents[2] / "data" / "match_files"
MAT = (FILES / "three_games.mat").read_bytes()
SGG = (FILES / "three_games.sgg").read_bytes()
TMG = (FILES / "three_games.tmg").read_bytes()
SGF = (FILES / "bgstudio_9pt.sgf").read_bytes()
SNOWIE = (FILES / "opening.txt").read_bytes()


@pytest.mark.parametrize(
    ("content", "filename", "key"),
    [
        (MAT, "match.mat", "mat"),
        (MAT, "match.txt", "mat"),
        (b"\xef\xbb\xbf" + MAT.replace(b"\n", b"\r\n"), "export", "mat"),
        (SGF, "match.sgf", "sgf"),
        (SGF, "match.mat", "sgf"),
        (SGG, "match.sgg", "sgg"),
        (SGG, "download", "sgg"),
        (TMG, "match.tmg", "tmg"),
        (TMG, "match.sgg", "tmg"),
        (SNOWIE, "position.txt", "snowie"),
        # nothing recognised: the name says which reader is to tell why
        (b"", "empty.mat", "mat"),
        (b"\x00\x01 binary", "odd.sgg", "sgg"),
        (b"\x00\x01 binary", "odd.txt", "mat"),
    ],
)
def test_the_format_is_the_content_s_then_the_name_s(
    content: bytes, filename: str, key: str
) -> None:
    found = detected(content, filename)

    assert found is not None
    assert found.key == key


@pytest.mark.parametrize("filename", ["notes.doc", "noname", "scan.pdf"])
def test_a_file_neither_content_nor_name_places_is_of_no_format(filename: str) -> None:
    assert detected(b"Dear club, the results.\n", filename) is None


def test_a_snowie_position_is_refused_in_words() -> None:
    found = detected(SNOWIE, "position.txt")
    assert found is not None

    with pytest.raises(UnreadableMatch, match="holds one position, not a match"):
        found.read(SNOWIE, "position.txt")


_SIGNATURE = b"TEST\x00match"


def _signed(content: bytes) -> bool:
    return content.startswith(_SIGNATURE)


def _signed_as_mat(content: bytes, filename: str) -> str:
    """A binary format of this test: a signature, then a .mat text."""
    return content.removeprefix(_SIGNATURE).decode()


@pytest.mark.django_db
def test_a_reader_registered_for_a_binary_format_has_its_files_analysed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given a reader plugged in, as the .xg reader is
    monkeypatch.setattr(match_formats, "_FORMATS", list(match_formats.match_formats()))
    register(MatchFormat("bin", "Test binary .bin", (".bin",), _signed, _signed_as_mat))

    # when a file of it is uploaded under any name
    response = api_for(UserFactory()).post(
        "/api/analyses/",
        {"file": SimpleUploadedFile("upload", _SIGNATURE + MAT)},
        format="multipart",
    )

    # then its match is kept and named by the format
    assert response.status_code == 201, response.json()
    assert (response.json()["format"], response.json()["format_name"]) == (
        "bin",
        "Test binary .bin",
    )
    kept = parse_mat(Analysis.objects.get().mat)
    assert kept.final_score == parse_mat(MAT.decode()).final_score
