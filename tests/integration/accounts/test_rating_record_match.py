"""A rated match moves both players' ratings once, and is kept as their history."""

from __future__ import annotations

import pytest

from accounts.models import Profile, RatingChange
from accounts.services import rating_record_match
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_win_between_newcomers_moves_both_ratings_and_experience() -> None:
    # given two newcomers at 1500 with no experience
    winner, loser = UserFactory(), UserFactory()

    # when the first wins a 5-point match (4 * 5 * sqrt(5) * 0.5 = 22.36068 each way)
    won, lost = rating_record_match(winner=winner, loser=loser, match_length=5, match_id=41)

    # then
    assert (won.rating_before, round(won.rating_after, 5)) == (1500.0, 1522.36068)
    assert (lost.rating_before, round(lost.rating_after, 5)) == (1500.0, 1477.63932)
    assert (won.won, lost.won) == (True, False)
    assert (won.opponent, lost.opponent) == (loser, winner)
    assert won.experience_after == lost.experience_after == 5
    profiles = {p.user_id: p for p in Profile.objects.all()}
    assert round(profiles[winner.pk].rating, 5) == 1522.36068
    assert round(profiles[loser.pk].rating, 5) == 1477.63932
    assert profiles[winner.pk].experience == profiles[loser.pk].experience == 5


def test_recording_the_same_match_again_changes_nothing() -> None:
    winner, loser = UserFactory(), UserFactory()
    first = rating_record_match(winner=winner, loser=loser, match_length=3, match_id=7)

    again = rating_record_match(winner=winner, loser=loser, match_length=3, match_id=7)

    assert [c.pk for c in again] == [c.pk for c in first]
    assert RatingChange.objects.count() == 2
    assert Profile.objects.get(user=winner).experience == 3


def test_results_without_a_match_are_each_recorded() -> None:
    winner, loser = UserFactory(), UserFactory()

    for _ in range(3):
        rating_record_match(winner=winner, loser=loser, match_length=1, match_id=None)

    assert RatingChange.objects.filter(user=winner).count() == 3
    assert Profile.objects.get(user=loser).experience == 3


def test_each_player_keeps_their_own_experience_factor() -> None:
    veteran = UserFactory(rating=1700.0, experience=250)
    newcomer = UserFactory()

    won, lost = rating_record_match(winner=veteran, loser=newcomer, match_length=9, match_id=1)

    # K = 2.5 for the veteran, 5 for the newcomer: the newcomer loses twice what is won.
    assert won.rating_after - won.rating_before == pytest.approx(10.015818, abs=1e-5)
    assert lost.rating_before - lost.rating_after == pytest.approx(20.031636, abs=1e-5)
    assert (won.experience_after, lost.experience_after) == (259, 9)
