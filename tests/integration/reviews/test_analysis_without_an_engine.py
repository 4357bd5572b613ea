"""Where match analysis cannot run (no GNU Backgammon, or only the gnubg Python package,
which keeps no match statistics), asking for one is shown as unavailable with the reason:
the buttons and the upload form give way to it, the API answers 503 with it, and an
analysis queued before is failed with it rather than retried for ever."""

from __future__ import annotations

from html import escape
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django import Settings as SettingsWrapper

from matches.engine import NO_ANALYSIS_IN_THE_PACKAGE
from matches.models import Match, MatchStatus
from reviews.models import Analysis, AnalysisStatus
from reviews.services import analysis_run
from tests.engines import MISSING_PROGRAM, hide_the_package
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, start_match

pytestmark = pytest.mark.django_db

MATS = Path(__file__).resolve().parents[2] / "data" / "mat"
NO_ENGINE = f"neither the program {MISSING_PROGRAM} (apt-get install gnubg)"


@pytest.fixture
def no_engine(settings: SettingsWrapper, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    settings.GNUBG_PROGRAM = MISSING_PROGRAM
    hide_the_package(monkeypatch, tmp_path)


@pytest.fixture
def package_alone(settings: SettingsWrapper) -> None:
    settings.GNUBG_PROGRAM = MISSING_PROGRAM


def _finished_match() -> tuple[int, Client]:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    Match.objects.filter(pk=match_id).update(status=MatchStatus.FINISHED, winner_seat=0)
    client = Client()
    client.force_login(alice)
    return match_id, client


def _mat() -> SimpleUploadedFile:
    return SimpleUploadedFile("one.mat", (MATS / "one_point.mat").read_bytes())


@pytest.mark.parametrize(
    ("hidden", "why"), [("no_engine", NO_ENGINE), ("package_alone", NO_ANALYSIS_IN_THE_PACKAGE)]
)
def test_asking_for_a_matchs_analysis_answers_503_with_the_reason(
    request: pytest.FixtureRequest, hidden: str, why: str
) -> None:
    request.getfixturevalue(hidden)
    match_id, _ = _finished_match()
    alice = Match.objects.get(pk=match_id).player_0

    answer = api_for(alice).post(f"/api/matches/{match_id}/analysis/")

    assert answer.status_code == 503
    assert answer.json()["detail"].startswith("Analysis is unavailable here: ")
    assert why in answer.json()["detail"]
    assert not Analysis.objects.exists()


@pytest.mark.usefixtures("no_engine")
def test_the_match_analysis_page_shows_the_reason_instead_of_the_button() -> None:
    match_id, client = _finished_match()

    page = client.get(f"/matches/{match_id}/analysis/").content.decode()
    asked = client.post(f"/matches/{match_id}/analysis/", follow=True)

    assert 'data-testid="request-analysis"' not in page
    assert 'data-testid="analysis-unavailable"' in page
    assert NO_ENGINE in page
    assert asked.status_code == 200
    assert not Analysis.objects.exists()


@pytest.mark.usefixtures("package_alone")
def test_an_upload_is_refused_with_the_reason(client: Client) -> None:
    user = UserFactory()
    client.force_login(user)

    page = client.get("/analyses/").content.decode()
    posted = client.post("/analyses/", {"file": _mat()})
    answer = api_for(user).post("/api/analyses/", {"file": _mat()}, format="multipart")

    assert 'data-testid="upload-form"' not in page
    assert escape(NO_ANALYSIS_IN_THE_PACKAGE) in page
    assert posted.status_code == 503
    assert (answer.status_code, answer.json()["detail"]) == (
        503,
        f"Analysis is unavailable here: {NO_ANALYSIS_IN_THE_PACKAGE}",
    )
    assert not Analysis.objects.exists()


def test_an_analysis_queued_before_the_engine_went_is_failed_with_the_reason(
    client: Client, settings: SettingsWrapper
) -> None:
    # given an upload queued while the engine was there
    user = UserFactory()
    client.force_login(user)
    client.post("/analyses/", {"file": _mat()})
    analysis = Analysis.objects.get()

    # when it is run where only the package is left
    settings.GNUBG_PROGRAM = MISSING_PROGRAM
    analysis_run(analysis.pk)

    # then it failed with the reason, once
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.FAILED
    assert analysis.error == f"analysis is unavailable here: {NO_ANALYSIS_IN_THE_PACKAGE}"
