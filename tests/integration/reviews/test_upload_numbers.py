"""An uploaded .mat file whose numbers no analysis can take is refused with the line and
why, never a server error: the match length, the scores, the cube and the points won."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from reviews.models import Analysis
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for

pytestmark = pytest.mark.django_db

MATS = Path(__file__).resolve().parents[2] / "data" / "mat"
ONE_POINT = (MATS / "one_point.mat").read_text()
MONEY = (MATS / "money_session.mat").read_text()


def upload(text: str) -> tuple[int, dict[str, object]]:
    client = api_for(UserFactory())
    response = client.post(
        "/api/analyses/",
        {"file": SimpleUploadedFile("club.mat", text.encode())},
        format="multipart",
    )
    return response.status_code, response.json()


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        (ONE_POINT.replace(" 1 point match", " 99999999 point match"), 2, "64 points at most"),
        (ONE_POINT.replace(" 1 point match", " " + "9" * 5000 + " point match"), 2, "64 points"),
        (MONEY.replace("Alice : 2 ", "Alice : 99999999 "), 55, "a score is 32767 at most"),
        (MONEY.replace("Alice : 2 ", "Alice : " + "9" * 5000 + " "), 55, "a score is 32767"),
        (ONE_POINT.replace("Bob : 0", "Bob : 1"), 5, "it was over before this game"),
        (
            MONEY.replace("Doubles => 2                Takes", "Doubles => 99999999   Takes"),
            28,
            "a cube is 32768 at most",
        ),
        (MONEY.replace("Wins 1 point", "Wins 99999999 points"), 91, "98304 points at most"),
    ],
    ids=["length", "length-digits", "score", "score-digits", "score-over", "cube", "points"],
)
def test_an_upload_with_a_number_past_the_bounds_is_refused_naming_the_line(
    text: str, line: int, why: str
) -> None:
    status, body = upload(text)

    assert status == 400
    assert str(body["detail"]).startswith(f"This .mat file cannot be read: line {line}: ")
    assert why in str(body["detail"])
    assert not Analysis.objects.exists()


def test_a_64_point_match_is_the_longest_taken() -> None:
    status, body = upload(ONE_POINT.replace(" 1 point match", " 64 point match"))

    assert status == 201, body
    assert body["length"] == 64
    assert Analysis.objects.get().match_length == 64
