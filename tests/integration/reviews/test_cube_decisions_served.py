"""A cube decision's equities and proper action reach the API and the analysis page; an
analysis stored before they were kept still reads (cube null, no table), never a 500.

The analysis is GNU Backgammon's saved answer for tests/data/mat/crawford_3pt.mat at 0 ply.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from analysis.match_analysis import match_analysis
from matches.models import Match
from reviews.api import CubeOptionSerializer, CubeSerializer, DecisionSerializer
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.results import result_of
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match

pytestmark = pytest.mark.django_db

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "mat" / "crawford_3pt.analysis.json"
PLAYERS = ["alice", "bruno"]


def analysed(result: dict[str, Any]) -> Match:
    match = finished_match(UserFactory(username="alice"), UserFactory(username="bruno"))
    Analysis.objects.create(
        match=match,
        source=AnalysisSource.PLAYED,
        mat="(stored)",
        players=PLAYERS,
        match_length=3,
        plies=0,
        status=AnalysisStatus.DONE,
        result=result,
        finished_at=timezone.now(),
    )
    return match


def sample_result() -> dict[str, Any]:
    return result_of(match_analysis(json.loads(SAMPLE.read_text())), PLAYERS)


def test_the_api_gives_each_cube_decision_its_table() -> None:
    match = analysed(sample_result())

    response = Client().get(f"/api/matches/{match.pk}/analysis/")

    assert response.status_code == 200
    decisions = response.json()["decisions"]
    assert set(decisions[0]) == set(DecisionSerializer().fields)
    assert {d["cube"] is None for d in decisions if d["kind"] == "checker"} == {True}
    cube = [d for d in decisions if d["kind"] == "cube"]
    assert cube
    for decision in cube:
        table = decision["cube"]
        assert set(table) == set(CubeSerializer().fields)
        assert [o["action"] for o in table["options"]] == [
            "no double",
            "double, take",
            "double, pass",
        ]
        for option in table["options"]:
            assert set(option) == set(CubeOptionSerializer().fields)
            assert option["mwc"] is not None  # match play
        # the proper action's row is 0 from the optimum, the others at most that
        assert min(abs(o["diff"]) for o in table["options"]) == 0
        assert any(o["played"] for o in table["options"])
    # the double of the last game and its take: gnubg's "Double, pass", the take marked
    double, take = (d for d in cube if d["action"] in ("double", "take"))
    assert double["cube"]["verdict"] == take["cube"]["verdict"] == "Double, pass"
    assert [o["played"] for o in take["cube"]["options"]] == [False, True, False]
    assert take["best"] == "drop"
    assert take["error"] == pytest.approx(0.1671, abs=1e-4)
    # the too-good positions are named, and not doubling there is no error
    too_good = [d for d in cube if d["cube"]["too_good"]]
    assert too_good
    assert {(d["action"], d["best"], d["error"]) for d in too_good} == {
        ("no double", "too good", 0)
    }
    assert {d["cube"]["verdict"] for d in too_good} == {"Too good to double, pass"}


def test_the_schema_documents_the_cube_table() -> None:
    schema = Client().get("/api/schema/?format=json").json()

    components = schema["components"]["schemas"]
    decision = components["Decision"]["properties"]
    assert "cube" in decision
    cube = components["Cube"]["properties"]
    assert {"verdict", "too_good", "centred", "options"} <= set(cube)
    verdicts = components[cube["verdict"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"]
    assert "Too good to double, pass" in verdicts
    assert "Redouble, take" in verdicts
    option = components["CubeOption"]["properties"]
    assert {"action", "equity", "diff", "mwc", "diff_mwc", "played"} <= set(option)


def test_an_analysis_stored_before_the_tables_still_reads() -> None:
    # given an analysis stored before cube decisions kept their equities
    old = sample_result()
    for decision in old["decisions"]:
        del decision["cube"]
        if decision["best"] == "too good":
            decision["best"] = "no double"
    match = analysed(old)

    # when the API and the page are read
    response = Client().get(f"/api/matches/{match.pk}/analysis/")
    page = Client().get(f"/matches/{match.pk}/analysis/")

    # then the cube decisions come with cube null, and the page has no table to show
    assert response.status_code == 200
    assert {d["cube"] for d in response.json()["decisions"]} == {None}
    assert page.status_code == 200
    data = json.loads(
        re.search(
            r'<script id="analysis-data" type="application/json">(.*?)</script>',
            page.content.decode(),
            re.S,
        ).group(1)  # type: ignore[union-attr]
    )
    assert {d["cube"] for d in data["decisions"]} == {None}


def test_the_page_carries_the_table_beside_the_board() -> None:
    match = analysed(sample_result())

    html = Client().get(f"/matches/{match.pk}/analysis/").content.decode()

    table = html[html.index('data-testid="cube-equities"') :]
    table = table[: table.index("</div>")]
    assert "<th>Cube action</th><th>Equity</th>" in table
    data = json.loads(
        re.search(
            r'<script id="analysis-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)  # type: ignore[union-attr]
    )
    cube = [d["cube"] for d in data["decisions"] if d["kind"] == "cube"]
    assert cube
    assert all(c is not None and len(c["options"]) == 3 for c in cube)
