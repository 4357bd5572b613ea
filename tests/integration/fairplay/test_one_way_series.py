"""A one-way series between two accounts: losses the players' ratings make improbable open
a dumping case; losses they expect do not."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings

from fairplay.models import Case, CaseKind
from fairplay.selectors import case_match_ids
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match

# The detector runs in this process as the match commits (tasks_run_in_process), with the
# other signs of dumping set out of reach so that only the series can open a case.
pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("tasks_run_in_process"),
]
ONLY_THE_SERIES = {
    **settings.FAIRPLAY,
    "EARLY_RESIGNATIONS": 1000,
    "WRONG_DROPS": 1000,
    "WINNING_RESIGNATIONS": 1000,
}


@pytest.mark.parametrize(
    ("loser_rating", "lost", "flagged"),
    [(1500.0, 14, True), (1500.0, 13, False), (1200.0, 14, False)],
)
def test_a_one_way_series_is_flagged_only_when_the_ratings_make_it_improbable(
    loser_rating: float, lost: int, flagged: bool
) -> None:
    # given Carl, who lost ``lost`` one-point matches for stakes in a row to Bruno (1500);
    # unrated, so both ratings stay what they were
    bruno = UserFactory(username="bruno", rating=1500.0)
    carl = UserFactory(username="carl", rating=loser_rating)
    with override_settings(FAIRPLAY=ONLY_THE_SERIES):
        matches = [
            finished_match(bruno, carl, rated=False, stake_cents=100, currency="FUN")
            for _ in range(lost)
        ]

    # then only 14 straight losses between equals (a chance of 1 in 16,384) is a case;
    # 13 is not (1 in 8,192), and 14 to a player 300 points stronger is what the ratings
    # expect
    cases = Case.objects.filter(kind=CaseKind.DUMPING, subject=carl)
    assert cases.exists() is flagged
    if flagged:
        case = cases.get()
        series = case.evidence["one_way_series"]
        assert series["matches"] == series["lost"] == 14
        assert series["chance"] == pytest.approx(0.5**14, abs=1e-6)
        assert "14 of 14 lost" in case.summary
        assert [row["win_chance"] for row in case.evidence["matches"]] == [0.5] * 14
        assert sorted(case_match_ids(case)) == sorted(match.pk for match in matches)
        assert case.evidence["money_to_winner"]["FUN"] > 0
