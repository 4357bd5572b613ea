"""A match brought in any format GNU Backgammon imports is analysed as the match it holds.

The files are in tests/data/match_files (how each was made: its README): GNU Backgammon's
own .sgf of a real room export, GamesGrid .sgg and TrueMoneyGames .tmg files of the match
of three_games.mat, and a Snowie .txt position. Every game, score, result and player must
survive the trip through GNU Backgammon's importer into the .mat the analysis takes; what
cannot be read is refused with a 400 and the reason, and nothing is kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from backgammon.matfile import MatRecord, parse_mat, replay
from reviews.models import Analysis, AnalysisStatus
from reviews.services import analysis_run
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[2] / "data" / "match_files"
ROOM_EXPORT = FILES / "bgstudio_9pt.mat"
"""The real Backgammon Studio export bgstudio_9pt.sgf was saved from by GNU Backgammon."""


def upload(name: str, content: bytes, client: APIClient | None = None) -> tuple[int, Any]:
    client = client or api_for(UserFactory())
    response = client.post(
        "/api/analyses/", {"file": SimpleUploadedFile(name, content)}, format="multipart"
    )
    return response.status_code, response.json()


def games(record: MatRecord) -> list[tuple[Any, ...]]:
    """Each game as the analysis sees it: score, Crawford, result, and every position met
    (move texts aside: programs write the same play in other orders)."""
    return [
        (game.score_before, game.crawford, game.winner, game.points, replay(game))
        for game in record.games
    ]


def swapped(record: MatRecord) -> list[tuple[Any, ...]]:
    """``games`` of the same match with the players' sides exchanged."""
    return [
        (game.score_before[::-1], game.crawford, 1 - game.winner, game.points, positions)
        for game, (_, _, _, _, positions) in zip(record.games, games(record), strict=True)
        if game.winner is not None
    ]


def test_gnu_backgammon_s_sgf_of_a_room_export_is_analysed_as_that_match() -> None:
    status, body = upload("mitnick.sgf", (FILES / "bgstudio_9pt.sgf").read_bytes())

    assert status == 201, body
    assert (body["format"], body["format_name"]) == ("sgf", "GNU Backgammon .sgf")
    assert body["names"] == ["mitnick", "Llabba"]
    assert body["length"] == 9
    kept = parse_mat(Analysis.objects.get(pk=body["id"]).mat)
    original = parse_mat(ROOM_EXPORT.read_text(encoding="utf-8"))
    assert games(kept) == games(original)
    assert kept.final_score == original.final_score


@pytest.mark.parametrize("name", ["three_games.sgg", "three_games.tmg"])
def test_a_gamesgrid_or_truemoneygames_file_is_analysed_as_the_match_it_holds(name: str) -> None:
    status, body = upload(name, (FILES / name).read_bytes())

    assert status == 201, body
    assert body["format"] == name.rsplit(".", 1)[1]
    # GNU Backgammon's importers put the file's second player on the left
    assert body["names"] == ["Bob", "Alice"]
    assert body["length"] == 3
    kept = parse_mat(Analysis.objects.get(pk=body["id"]).mat)
    reference = parse_mat((FILES / "three_games.mat").read_text())
    assert games(kept) == swapped(reference)
    assert kept.final_score == (1, 3)
    assert kept.crawford_rule


def test_a_match_played_without_the_crawford_rule_is_analysed_without_it() -> None:
    status, body = upload("club.sgg", (FILES / "no_crawford.sgg").read_bytes())

    assert status == 201, body
    kept = parse_mat(Analysis.objects.get(pk=body["id"]).mat)
    assert not kept.crawford_rule
    assert not any(game.crawford for game in kept.games)
    # the analysis, by GNU Backgammon, plays the game at 2-1 of 3 as no Crawford game
    assert analysis_run(body["id"])
    analysed = Analysis.objects.get(pk=body["id"])
    assert analysed.status == AnalysisStatus.DONE, analysed.error
    assert analysed.result is not None
    assert [game["crawford"] for game in analysed.result["games"]] == [False, False, False]


def test_a_money_session_keeps_its_jacoby_rule() -> None:
    status, body = upload("session.tmg", (FILES / "money_jacoby.tmg").read_bytes())

    assert status == 201, body
    assert body["length"] == 0
    kept = parse_mat(Analysis.objects.get(pk=body["id"]).mat)
    assert ("Jacoby", "On") in kept.tags
    assert len(kept.games) == 3


def test_the_format_is_told_by_the_content_not_the_name() -> None:
    status, body = upload("match.txt", (FILES / "three_games.sgg").read_bytes())
    assert status == 201, body
    assert body["format"] == "sgg"

    status, body = upload("match.sgf", (FILES / "three_games.mat").read_bytes())
    assert status == 201, body
    assert body["format"] == "mat"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "opening.txt",
            (FILES / "opening.txt").read_bytes(),
            "This .txt file cannot be read: a Snowie .txt file holds one position, not a match",
        ),
        (
            "club.sgg",
            b"hello\nthis is no match\n",
            "This .sgg file cannot be read: GNU Backgammon says: club.sgg: not a valid SGG file",
        ),
        (
            "club.sgg",
            (FILES / "three_games.sgg").read_bytes().replace(b"Backgammon\n", b"Chouette\n"),
            "This .sgg file cannot be read: GNU Backgammon stopped while reading it",
        ),
        (
            "club.tmg",
            (FILES / "three_games.tmg").read_bytes().replace(b"2 4 24/18 13/9", b"2 4 24/1"),
            "This .tmg file cannot be read: line ",
        ),
        (
            "club.tmg",
            (FILES / "three_games.tmg").read_bytes().replace(b"Cube: 1", b"Cube: 0"),
            "This .tmg file cannot be read: the match was played without the doubling cube",
        ),
        (
            "opening.sgf",
            (FILES / "opening_position.sgf").read_bytes(),
            "This .sgf file cannot be read: a game of it starts from a position set up",
        ),
        (
            "notes.doc",
            b"Dear club, here are the results.\n",
            "This is not a match file this site reads: it is none of Jellyfish .mat,"
            " GNU Backgammon .sgf, GamesGrid .sgg, TrueMoneyGames .tmg, eXtreme Gammon .xg.",
        ),
    ],
    ids=[
        "snowie-position",
        "sgg-unreadable",
        "sgg-crashes-the-program",
        "tmg-illegal",
        "tmg-without-cube",
        "sgf-of-a-position",
        "none",
    ],
)
def test_a_file_that_cannot_be_read_is_refused_with_why_and_nothing_is_kept(
    name: str, content: bytes, message: str
) -> None:
    status, body = upload(name, content)

    assert status == 400, body
    assert str(body["detail"]).startswith(message)
    assert not Analysis.objects.exists()


def test_the_analysis_page_and_the_library_name_the_format_the_file_came_in() -> None:
    owner = UserFactory()
    client = APIClient()
    client.force_login(owner)

    uploaded = client.post(
        "/analyses/",
        {"file": SimpleUploadedFile("club.tmg", (FILES / "three_games.tmg").read_bytes())},
    )

    assert uploaded.status_code == 302
    analysis = Analysis.objects.get()
    assert analysis.file_format == "tmg"
    page = client.get(f"/analyses/{analysis.pk}/").content.decode()
    assert 'uploaded as <span translate="no">TrueMoneyGames .tmg</span>' in page
    library = client.get("/analyses/").content.decode()
    assert "(TrueMoneyGames .tmg)" in library
    assert ".sgg" in library.split('accept="', 1)[1].split('"', 1)[0]
    detail = client.get(f"/api/analyses/{analysis.pk}/").json()
    assert (detail["format"], detail["format_name"]) == ("tmg", "TrueMoneyGames .tmg")
