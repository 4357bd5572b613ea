"""An eXtreme Gammon .xg file uploaded is analysed as the match it holds, or refused with
what is wrong with it, never a server error."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backgammon.matfile import parse_mat
from reviews.models import Analysis, AnalysisStatus
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db

XG = Path(__file__).resolve().parents[2] / "data" / "xg"


def upload(name: str, content: bytes) -> tuple[int, dict[str, object]]:
    client = api_for(UserFactory())
    response = client.post(
        "/api/analyses/", {"file": SimpleUploadedFile(name, content)}, format="multipart"
    )
    return response.status_code, response.json()


def test_an_xg_file_is_queued_for_analysis_as_its_match() -> None:
    status, body = upload("unger-job.xg", (XG / "unger_job_7pt.xg").read_bytes())

    assert status == 201, body
    assert body["length"] == 7
    analysis = Analysis.objects.get()
    assert analysis.status == AnalysisStatus.QUEUED
    assert analysis.players == ["Kévin Unger", "Maxence Job"]
    assert analysis.filename == "unger-job.xg"
    assert len(parse_mat(analysis.mat).games) == 7


def test_an_xg_file_that_cannot_be_read_is_refused_saying_why() -> None:
    status, body = upload("cut.xg", (XG / "made_by_a_tool.xg").read_bytes())

    assert status == 400
    assert str(body["detail"]).startswith("This .xg file cannot be read: ")
    assert "last record is cut short" in str(body["detail"])
    assert not Analysis.objects.exists()
