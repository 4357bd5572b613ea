"""A match voided by a dispute decision leaves the ratings: both players' rating changes of
it are undone (as a fair-play void undoes a series), and the rating chart on their pages no
longer draws it."""

from __future__ import annotations

import pytest

from accounts.models import Profile, RatingChange
from accounts.selectors import rating_history
from disputes import services
from disputes.models import Dispute
from tests.factories import UserFactory
from tests.integration.disputes.helpers import file, finished_match, staff

pytestmark = pytest.mark.django_db


def test_a_voided_result_leaves_both_ratings_and_the_rating_chart() -> None:
    # given Alice beat Bruno in a rated match, and each has an earlier rated result
    alice, bruno, sam = UserFactory(username="alice"), UserFactory(username="bruno"), staff()
    finished_match(bruno, alice)
    before = {user.username: Profile.objects.get(user=user).rating for user in (alice, bruno)}
    charted = {user.username: rating_history(profile=user.profile) for user in (alice, bruno)}
    match = finished_match(alice, bruno)
    assert RatingChange.objects.filter(match_id=match.pk).count() == 2
    assert Profile.objects.get(user=alice).rating > before["alice"]
    response = file(bruno, match, category="disconnection")
    assert response.status_code == 201, response.json()

    # when staff void the match
    services.dispute_decide(
        dispute_id=Dispute.objects.get(pk=response.json()["id"]).pk,
        staff=sam,
        decision="void",
        reason="Server fault mid-game.",
    )

    # then both ratings are what they were before it, and the chart draws it no more
    for user in (alice, bruno):
        profile = Profile.objects.get(user=user)
        assert profile.rating == pytest.approx(before[user.username])
        assert rating_history(profile=profile) == charted[user.username]
    voided = RatingChange.objects.filter(match_id=match.pk)
    assert all(change.voided_at is not None for change in voided)
