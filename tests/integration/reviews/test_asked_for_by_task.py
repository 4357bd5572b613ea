"""A finished match's analysis is asked for by a task on the ``default`` queue: whatever
ended the match (a move, the deadline sweep that ends hundreds a minute) only queues it,
reading nothing more in its own process, and the analysis is listed as queued moments
later."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from matches.events import MatchFinished
from reviews.models import Analysis, AnalysisStatus
from reviews.services import on_match_finished
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, start_match

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker_process"),
    pytest.mark.slow,
]


@override_settings(ANALYSE_FINISHED_MATCHES=True)
def test_a_finished_match_is_queued_for_analysis_by_a_default_worker_not_by_its_ender(
    django_assert_num_queries: object,
) -> None:
    # given a one-point match played to its end
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=1)
    Bot({"alice": alice, "bruno": bruno}).play_out(match_id)

    # when its end is told to the analysis (as the bus does after the commit)
    Analysis.objects.filter(match_id=match_id).delete()
    with django_assert_num_queries(0):  # type: ignore[operator]
        on_match_finished(MatchFinished(match_id=match_id, tournament_id=None, winner_seat=0))

    # then the worker of the default queue lists it as queued for the review workers
    deadline = time.monotonic() + 30
    while not Analysis.objects.filter(match_id=match_id).exists():
        assert time.monotonic() < deadline, "the analysis was never asked for"
        time.sleep(0.1)
    assert Analysis.objects.get(match_id=match_id).status == AnalysisStatus.QUEUED
