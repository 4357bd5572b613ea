"""The analysis page of a match played here names its players as every other page does, by
their display names; the match file GNU Backgammon reads keeps their usernames."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone

from analysis.match_analysis import match_analysis
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.services import result_of
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match

pytestmark = pytest.mark.django_db

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "mat" / "crawford_3pt.analysis.json"


def test_the_analysis_page_names_the_players_by_their_display_names() -> None:
    # given a finished match between Alice and Bruno, analysed (GNU Backgammon's saved answer)
    alice = UserFactory(username="alice", display_name="Alice Adams")
    bruno = UserFactory(username="bruno", display_name="Bruno Bianchi")
    match = finished_match(alice, bruno)
    players = ["alice", "bruno"]
    Analysis.objects.create(
        match=match,
        source=AnalysisSource.PLAYED,
        mat="(stored)",
        players=players,
        match_length=3,
        plies=0,
        status=AnalysisStatus.DONE,
        result=result_of(match_analysis(json.loads(SAMPLE.read_text())), players),
        finished_at=timezone.now(),
    )

    # when the page is read
    html = Client().get(f"/matches/{match.pk}/analysis/").content.decode()

    # then the heading, the players' table and the replay's names are the display names
    heading = re.search(r'data-testid="analysis-name-0">(.*?)<.*?analysis-name-1">(.*?)<', html)
    assert heading is not None
    assert heading.groups() == ("Alice Adams", "Bruno Bianchi")
    table = html[html.index('data-testid="analysis-players"') :]
    assert "<th>Alice Adams</th><th>Bruno Bianchi</th>" in table[: table.index("</thead>")]
    assert '"names": ["Alice Adams", "Bruno Bianchi"]' in html
