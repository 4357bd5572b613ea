"""Every finished match is analysed by GNU Backgammon on the ``review`` queue, and a player's
own .mat files too; the figures are the engine's, reachable over REST and on the pages."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import PerformanceRecord
from matches.models import Match
from matches.records import match_file
from reviews.models import Analysis, AnalysisStatus
from reviews.services import (
    ASKED_WITHIN,
    LOST_AFTER,
    MAX_ATTEMPTS,
    SILENT_AFTER,
    analysis_requeue,
    analysis_run,
)
from tests.factories import UserFactory
from tests.gnubg_printed import printed_statistics
from tests.integration.matches.helpers import NOT_LOGGED_IN, Bot, api_for, refusal, start_match
from tests.integration.reviews.helpers import analysis_finished

MATS = Path(__file__).resolve().parents[2] / "data" / "mat"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("analysed_at_0_ply"),
    pytest.mark.slow,
]


@pytest.fixture
def analysed_at_0_ply() -> Iterator[None]:
    with override_settings(ANALYSE_FINISHED_MATCHES=True, ANALYSIS_PLIES=0):
        yield


def test_a_finished_match_is_analysed_by_a_review_worker_with_gnubg_own_figures(
    review_worker: None, tmp_path: Path
) -> None:
    # given a 3-point match played to the end through the API
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    Bot({"alice": alice, "bruno": bruno}, doubles=True).play_out(match_id)

    # when the review worker has analysed it
    data = analysis_finished(api_for(alice), f"/api/matches/{match_id}/analysis/")

    # then each player's figures are those GNU Backgammon's own program prints for the
    # match's .mat at the same depth
    assert data["status"] == "done", data["error"]
    assert data["settings"]["plies"] == 0
    assert [p["username"] for p in data["players"]] == ["alice", "bruno"]
    mat = tmp_path / "match.mat"
    mat.write_text(match_file_of(match_id))
    assert_gnubg_prints(data["players"], mat, games=len(data["games"]))
    # and the decisions listed one by one add up to those totals
    for player in data["players"]:
        mine = [d for d in data["decisions"] if d["player"] == player["username"]]
        for kind in ("checker", "cube"):
            listed = sum(d["error"] for d in mine if d["kind"] == kind)
            assert listed == pytest.approx(player[f"{kind}_error"], abs=0.005)
    assert data["progress"]["done"] == data["progress"]["total"] > 0
    checker = [d for d in data["decisions"] if d["kind"] == "checker" and not d["forced"]]
    assert checker
    assert all(d["candidates"] for d in checker)
    assert {d["kind"] for d in data["decisions"]} == {"checker", "cube"}  # the bots double
    # and each player's PR is on record for their profile
    records = {r.user.username: r for r in PerformanceRecord.objects.select_related("user")}
    assert set(records) == {"alice", "bruno"}
    assert records["alice"].pr == pytest.approx(data["players"][0]["pr"], abs=0.01)
    # and anyone may read it (the match is public), but only a player may ask again
    assert APIClient().get(f"/api/matches/{match_id}/analysis/").status_code == 200
    stranger = api_for(UserFactory(username="carla"))
    assert stranger.post(f"/api/matches/{match_id}/analysis/").status_code == 403
    again = api_for(bruno).post(f"/api/matches/{match_id}/analysis/")
    assert again.status_code == 202
    assert again.json()["id"] == data["id"]


def match_file_of(match_id: int) -> str:
    return match_file(Match.objects.get(pk=match_id))


def assert_gnubg_prints(players: list[dict[str, Any]], mat: Path, *, games: int) -> None:
    """Each player's figures are those GNU Backgammon's own program prints for ``mat`` at
    0 ply (a separate ``gnubg``, not the engine the worker ran)."""
    printed = printed_statistics(mat, games, plies=0)[0]
    for player, shown in zip(players, printed, strict=True):
        assert (player["unforced"], player["cube_decisions"]) == (
            shown.unforced_moves,
            shown.close_cube_decisions,
        )
        assert player["checker_error"] == pytest.approx(shown.checker_error, abs=0.0006)
        assert player["cube_error"] == pytest.approx(shown.cube_error, abs=0.0006)
        assert player["luck"] == pytest.approx(shown.luck, abs=0.0006)
        assert (player["error_rate"] or 0.0) == pytest.approx(shown.error_rate, abs=0.11)
        assert (player["rating"], player["checker_rating"], player["luck_rating"]) == (
            shown.overall_rating,
            shown.checker_rating,
            shown.luck_rating,
        )


def test_an_unfinished_match_has_no_analysis_yet() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    response = api_for(alice).get(f"/api/matches/{match_id}/analysis/")
    assert response.status_code == 404
    assert "not finished" in response.json()["detail"]
    asked = api_for(alice).post(f"/api/matches/{match_id}/analysis/")
    assert asked.status_code == 409
    assert "not finished" in asked.json()["detail"]


def test_an_uploaded_match_is_analysed_in_the_players_library_and_progress_is_told_live() -> None:
    # given a player listening on their live channel
    owner = UserFactory(username="dora")

    # when they upload a .mat file
    text = (MATS / "crawford_3pt.mat").read_bytes()
    client = api_for(owner)
    response = client.post(
        "/api/analyses/",
        {"file": SimpleUploadedFile("club-night.mat", text)},
        format="multipart",
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["status"] == "queued"
    assert created["filename"] == "club-night.mat"
    assert created["names"] == ["Alice", "Bob"]
    analysis_id = created["id"]

    # and GNU Backgammon analyses it (the task's body, run here) while they listen
    frames = asyncio.run(_run_listening(analysis_id, f"user.{owner.pk}"))
    assert analysis_run(analysis_id) is False  # a second delivery does nothing

    # then the library holds it with GNU Backgammon's figures
    data = client.get(f"/api/analyses/{analysis_id}/").json()
    assert data["status"] == "done"
    assert data["match"] is None
    assert data["origin"] == "uploaded"
    assert [player["username"] for player in data["players"]] == ["Alice", "Bob"]
    assert len(data["games"]) == 3
    assert_gnubg_prints(data["players"], MATS / "crawford_3pt.mat", games=3)
    assert [row["id"] for row in client.get("/api/analyses/").json()] == [analysis_id]
    # and nobody else reads it
    assert (
        api_for(UserFactory(username="eve")).get(f"/api/analyses/{analysis_id}/").status_code == 404
    )
    # and the player's tabs heard it run, move on game by game and finish
    states = [f["analysis"] for f in frames if f["type"] == "analysis.changed"]
    assert next(s["status"] for s in states) == "running"
    assert states[-1]["status"] == "done"
    progress = [s["done"] for s in states if s["status"] == "running"]
    assert progress == sorted(progress)
    assert len(set(progress)) >= 2


def _run_and_close(analysis_id: int) -> bool:
    try:
        return analysis_run(analysis_id)
    finally:
        connection.close()  # this thread's own connection, or the test database stays in use


async def _run_listening(analysis_id: int, group: str) -> list[dict[str, Any]]:
    """Run the analysis while a channel of ``group`` listens; what it heard."""
    layer = get_channel_layer()
    channel: str = await layer.new_channel()
    await layer.group_add(group, channel)
    assert await sync_to_async(_run_and_close)(analysis_id) is True
    frames = []
    while True:
        try:
            frames.append(await asyncio.wait_for(layer.receive(channel), timeout=1.0))
        except TimeoutError:
            return frames


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", 'cannot be read: no "N point match" line'),
        (b"\x00\x01\x02 binary", "not a text file"),
        (
            b" 3 point match\n\n Game 1\n Alice : 0     Bob : 0\n"
            b"  1) 31: 8/5 6/5  61: 24/18 24/18\n",
            "line 5",
        ),
        (b"x" * (600 * 1024), "larger than"),
    ],
)
def test_an_unreadable_upload_is_refused_with_the_reason_and_nothing_is_kept(
    content: bytes, message: str
) -> None:
    client = api_for(UserFactory(username="fred"))
    response = client.post(
        "/api/analyses/", {"file": SimpleUploadedFile("bad.mat", content)}, format="multipart"
    )
    assert response.status_code == 400
    assert message in response.json()["detail"]
    assert not Analysis.objects.exists()


def test_an_upload_needs_a_file_and_a_login() -> None:
    refused = APIClient().post("/api/analyses/", {}, format="multipart")
    assert refusal(refused) == NOT_LOGGED_IN
    response = api_for(UserFactory(username="gina")).post("/api/analyses/", {}, format="multipart")
    assert response.status_code == 400
    assert 'field "file"' in response.json()["detail"]


def test_a_lost_analysis_is_queued_again_and_fails_after_the_last_attempt() -> None:
    owner = UserFactory(username="hugo")
    text = (MATS / "one_point.mat").read_bytes()
    created = api_for(owner).post(
        "/api/analyses/", {"file": SimpleUploadedFile("a.mat", text)}, format="multipart"
    )
    analysis = Analysis.objects.get(pk=created.json()["id"])
    later = timezone.now() + LOST_AFTER * 2

    # a queued analysis nobody took is queued again
    assert analysis_requeue(later) == [analysis.pk]
    # one that ran out of attempts is marked failed with the reason
    Analysis.objects.filter(pk=analysis.pk).update(attempts=MAX_ATTEMPTS)
    assert analysis_requeue(later + LOST_AFTER * 2) == []
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.FAILED
    assert "attempts" in analysis.error


def test_a_finished_match_whose_asking_was_lost_is_asked_for_by_the_sweep() -> None:
    # given two matches played to the end whose review.for_match never ran (a worker
    # killed while it did, a process stopped between the commit and the queue)
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    played = [start_match(alice, bruno, length=1) for _ in range(2)]
    with override_settings(ANALYSE_FINISHED_MATCHES=False):  # nothing asks for them
        for match_id in played:
            Bot({"alice": alice, "bruno": bruno}).play_out(match_id)
    recent, old = played
    now = timezone.now()
    Match.objects.filter(pk=recent).update(finished_at=now - LOST_AFTER * 2)
    Match.objects.filter(pk=old).update(finished_at=now - ASKED_WITHIN * 2)

    # (run eagerly, as the embedded set-up runs tasks, the asking cannot be lost apart from
    # the process that ended the match: one without an analysis was not meant to have one)
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
        assert analysis_requeue(now) == []
    assert not Analysis.objects.filter(match_id=recent).exists()

    # when the sweep passes
    asked = analysis_requeue(now)

    # then the one that finished within the window is queued for analysis, once
    assert asked == list(Analysis.objects.filter(match_id=recent).values_list("pk", flat=True))
    assert Analysis.objects.get(match_id=recent).status == AnalysisStatus.QUEUED
    assert analysis_requeue(now) == []
    # and one that finished before the window is left alone
    assert not Analysis.objects.filter(match_id=old).exists()


def test_the_pages_show_the_analysis_the_library_and_the_pr() -> None:
    owner = UserFactory(username="iris")
    client = APIClient()
    client.force_login(owner)
    text = (MATS / "crawford_3pt.mat").read_bytes()
    uploaded = client.post("/analyses/", {"file": SimpleUploadedFile("m.mat", text)})
    assert uploaded.status_code == 302
    analysis_id = Analysis.objects.get().pk
    queued = client.get(f"/analyses/{analysis_id}/")
    assert b"Waiting for GNU Backgammon" in queued.content
    analysis_run(analysis_id)
    page = client.get(f"/analyses/{analysis_id}/").content.decode()
    assert 'data-testid="analysis-players"' in page
    assert 'id="analysis-data"' in page
    library = client.get("/analyses/").content.decode()
    assert f"/analyses/{analysis_id}/" in library
    refused = client.post("/analyses/", {"file": SimpleUploadedFile("m.mat", b"nonsense")})
    assert refused.status_code == 400
    assert "cannot be read" in refused.content.decode()
    assert client.get("/ratings/pr/").status_code == 200


def _running(owner_name: str, *, silent_for: timedelta) -> Analysis:
    """An uploaded analysis some worker took, which last said it was alive so long ago."""
    owner = UserFactory(username=owner_name)
    text = (MATS / "one_point.mat").read_bytes()
    created = api_for(owner).post(
        "/api/analyses/", {"file": SimpleUploadedFile("a.mat", text)}, format="multipart"
    )
    moment = timezone.now() - silent_for
    Analysis.objects.filter(pk=created.json()["id"]).update(
        status=AnalysisStatus.RUNNING, attempts=1, started_at=moment, alive_at=moment, done=39
    )
    return Analysis.objects.get(pk=created.json()["id"])


def test_an_analysis_whose_worker_fell_silent_is_queued_again_within_a_minute() -> None:
    analysis = _running("hugo", silent_for=SILENT_AFTER + timedelta(seconds=1))

    assert analysis_requeue() == [analysis.pk]
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.QUEUED


def test_an_analysis_whose_worker_says_it_is_alive_is_left_to_it() -> None:
    # given an analysis started ten minutes ago whose worker spoke 10 s ago
    analysis = _running("hugo", silent_for=timedelta(seconds=10))
    Analysis.objects.filter(pk=analysis.pk).update(
        started_at=timezone.now() - timedelta(minutes=10)
    )

    assert analysis_requeue() == []
