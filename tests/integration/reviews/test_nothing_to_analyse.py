"""A match that ended before any game was finished has nothing to analyse: no analysis is
queued, nothing fails when it ends, and a player asking for one is told why."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from matches.models import FinishReason, Match, MatchStatus
from matches.tasks import adjudicate_match, sweep_deadlines
from reviews.models import Analysis
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, board_left, start_match


@pytest.mark.django_db(transaction=True)
@override_settings(ANALYSE_FINISHED_MATCHES=True)
def test_a_match_adjudicated_in_its_first_game_queues_no_analysis_and_nothing_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # given a 3-point match whose first game is a few moves old when bruno leaves for good
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    bot = Bot({"alice": alice, "bruno": bruno})
    for _ in range(6):
        bot.step(match_id)
    board_left(match_id, bruno)
    past = timezone.now() - timedelta(seconds=1)
    Match.objects.filter(pk=match_id).update(grace_ends_1=past, deadline=past)
    sweep_deadlines()

    # when the engine settles it (its end is told to every subscriber on commit)
    with caplog.at_level(logging.ERROR):
        adjudicate_match.apply(args=[match_id])

    # then it is over, no analysis waits for it and no subscriber failed
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED
    assert match.finish_reason == FinishReason.ADJUDICATED
    assert not Analysis.objects.filter(match_id=match_id).exists()
    assert [record.getMessage() for record in caplog.records] == []
    # and a player asking for its analysis is told why there is none
    answer = api_for(alice).post(f"/api/matches/{match_id}/analysis/")
    assert answer.status_code == 409
    assert "nothing to analyse" in answer.json()["detail"]
