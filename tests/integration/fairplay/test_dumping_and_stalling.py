"""Rating and money flowing one way between two accounts, and players who walk away,
reach staff as cases with the matches behind them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from accounts.models import RatingChange, Standing, User
from accounts.standing import require_may_seek
from core.errors import Forbidden
from fairplay.detectors import dumping
from fairplay.models import Case, CaseKind
from matches import creation
from matches.models import ClockKind, ClockSettings, FinishReason, Match
from matches.tasks import sweep_deadlines
from reviews.models import Analysis, AnalysisSource, AnalysisStatus
from reviews.services import analysis_for_match, analysis_run
from tests.factories import UserFactory
from tests.integration.disputes.helpers import finished_match, staff
from tests.integration.fairplay.helpers import case_seen_by, cases_seen_by
from tests.integration.matches.helpers import Bot, api_for, board_opened, start_match

# The detectors run where they do in production: on a Celery worker, after the match commits.
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("celery_worker_process"),
    pytest.mark.slow,
]


def test_a_dozen_first_turn_resignations_to_one_opponent_reach_staff_within_a_minute() -> None:
    # given Carl, who resigns a dozen rated one-point matches to Bruno at his first turn
    bruno, carl = UserFactory(username="bruno"), UserFactory(username="carl")
    sam = staff()
    matches = [finished_match(bruno, carl) for _ in range(12)]

    # then staff see one dumping case about Carl, with every match and the rating moved
    cases = cases_seen_by(sam, kind="dumping")
    assert [(case["subject"], case["others"]) for case in cases] == [("carl", ["bruno"])]
    case_id = cases[0]["id"]
    # the case grows while it waits: after the last match all twelve are in it
    wait_until(lambda: len(case_seen_by(sam, case_id)["evidence"]["matches"]) == 12)
    evidence = case_seen_by(sam, case_id)["evidence"]
    assert {row["match"] for row in evidence["matches"]} == {m.pk for m in matches}
    assert evidence["early_resignations"] == 12
    assert evidence["matches_lost"] == evidence["matches_played"] == 12
    lost = sum(c.delta for c in RatingChange.objects.filter(user=carl))
    assert evidence["rating_lost"] == pytest.approx(lost, abs=0.01)
    assert lost < 0
    assert Case.objects.filter(kind=CaseKind.DUMPING).count() == 1


def test_clear_takes_dropped_to_one_opponent_are_flagged_with_the_positions() -> None:
    # given Carl, who drops every double Bruno offers at his first roll of a game, over a
    # 5-point match (four drops before the Crawford game) analysed by GNU Backgammon
    bruno, carl = UserFactory(username="bruno"), UserFactory(username="carl")
    sam = staff()
    match_id = start_match(bruno, carl, length=5)
    _drop_every_double(match_id, bruno, carl)
    with override_settings(ANALYSIS_PLIES=0):
        analysis = analysis_for_match(match_id)
        assert analysis is not None
        analysis_run(analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == "done", analysis.error
    dumping.scan_analysis(analysis.pk)  # as the worker does after the analysis

    # then the drops GNU Backgammon rates clear takes are in a dumping case about Carl
    case = Case.objects.get(kind=CaseKind.DUMPING)
    assert (case.subject, list(case.others.all())) == (carl, [bruno])
    drops = case_seen_by(sam, case.pk)["evidence"]["wrong_drops"]
    assert len(drops) >= settings.FAIRPLAY["WRONG_DROPS"]
    for drop in drops:
        assert drop["best"] == "take"
        assert drop["error"] >= settings.FAIRPLAY["WRONG_DROP_ERROR"]
        assert drop["position_id"]
    # and Bruno, who took nothing and dropped nothing, is not suspected
    assert not Case.objects.filter(subject=bruno).exists()


@pytest.mark.parametrize(("equity", "flagged"), [(0.55, True), (0.1, False)])
def test_resignations_in_positions_the_engine_rates_winning_are_flagged(
    equity: float, flagged: bool
) -> None:
    # given three matches Carl resigned to Bruno where, by the stored analysis, the last
    # play before the resignation (Bruno's) left Carl ahead by ``equity``
    bruno, carl = UserFactory(username="bruno"), UserFactory(username="carl")
    for _ in range(settings.FAIRPLAY["WINNING_RESIGNATIONS"]):
        match = finished_match(bruno, carl)
        bruno_seat = match.seat_of(bruno)
        analysis = Analysis.objects.create(
            match=match,
            source=AnalysisSource.PLAYED,
            mat="",
            plies=0,
            status=AnalysisStatus.DONE,
            result={"decisions": [_checker_play(game=1, seat=bruno_seat, equity=-equity)]},
        )
        dumping.scan_analysis(analysis.pk)

    # then a dumping case names those resignations, only when Carl was clearly winning
    cases = Case.objects.filter(kind=CaseKind.DUMPING, subject=carl)
    assert cases.exists() is flagged
    if flagged:
        resigned = cases.get().evidence["resigned_winning"]
        assert [line["equity"] for line in resigned] == [equity] * 3


def _checker_play(*, game: int, seat: int, equity: float) -> dict[str, object]:
    """A checker play as the analysis stores it: the best play's equity for its mover."""
    return {
        "game": game,
        "number": 1,
        "seat": seat,
        "kind": "checker",
        "position_id": "4HPwATDgc/ABMA",
        "match_id": "cAkAAAAAAAAA",
        "played": "13/7",
        "best": "13/7",
        "error": 0.0,
        "candidates": [{"move": "13/7", "equity": equity, "mwc": None}],
    }


def _drop_every_double(match_id: int, doubler: User, dropper: User) -> None:
    bots = {
        doubler.username: Bot({doubler.username: doubler}, doubles=True),
        dropper.username: Bot({dropper.username: dropper}, drops=True),
    }
    for _ in range(500):
        state = api_for(doubler).get(f"/api/matches/{match_id}/").json()
        if state["status"] != "playing":
            return
        bot = bots[state["game"]["turn"]]
        bot.last = None
        bot.step(match_id)
    raise AssertionError("the match did not end")


def test_a_few_resignations_or_unrated_ones_open_nothing_and_one_more_rated_one_does() -> None:
    # given Carl, who resigns to Bruno at his first turn one rated match too few to be
    # suspected, and three unrated ones with no stake (nothing moves, nothing to dump)
    bruno, carl = UserFactory(username="bruno"), UserFactory(username="carl")
    sam = staff()
    enough = settings.FAIRPLAY["EARLY_RESIGNATIONS"]
    for _ in range(enough - 1):
        finished_match(bruno, carl)
    for _ in range(3):
        finished_match(bruno, carl, rated=False)
    # the detector runs on the worker; run it here too so the test does not race it
    for match in Match.objects.all():
        dumping.scan_match(match.pk)

    # then staff see nothing
    assert cases_seen_by(sam, within=0, kind="dumping") == []

    # when Carl resigns one more rated match at his first turn
    last = finished_match(bruno, carl)
    dumping.scan_match(last.pk)

    # then staff see a dumping case about Carl that counts the rated matches alone
    cases = cases_seen_by(sam, kind="dumping")
    assert [(case["subject"], case["others"]) for case in cases] == [("carl", ["bruno"])]
    evidence = case_seen_by(sam, cases[0]["id"])["evidence"]
    assert evidence["early_resignations"] == evidence["matches_played"] == enough
    assert {row["match"] for row in evidence["matches"]} == set(
        Match.objects.filter(rated=True).values_list("pk", flat=True)
    )


def test_a_player_who_lets_the_clock_run_out_again_and_again_is_cooled_down() -> None:
    # given Dora, who keeps letting her clock run out against different opponents
    dora = UserFactory(username="dora")
    sam = staff()
    for index in range(settings.FAIRPLAY["STALLED_MATCHES"]):
        opponent = UserFactory(username=f"opponent{index}")
        _time_out(dora, opponent)

    # then a stalling case reaches staff, and Dora may not seek for a while
    cases = cases_seen_by(sam, kind="stalling")
    assert [case["subject"] for case in cases] == ["dora"]
    stalls = case_seen_by(sam, cases[0]["id"])["evidence"]["stalls"]
    assert len(stalls) == settings.FAIRPLAY["STALLED_MATCHES"]
    assert {stall["reason"] for stall in stalls} == {FinishReason.TIMEOUT}
    wait_until(lambda: Standing.objects.filter(user=dora, cooldown_until__isnull=False).exists())
    cooldown = Standing.objects.get(user=dora).cooldown_until
    hours = settings.FAIRPLAY["COOLDOWN_HOURS"]
    assert timedelta(hours=hours - 1) < cooldown - timezone.now() <= timedelta(hours=hours)
    with pytest.raises(Forbidden, match="cannot post or take seeks until"):
        require_may_seek(dora)
    # and her opponents, who won on time, are not suspected of anything
    assert Case.objects.filter(kind=CaseKind.STALLING).count() == 1


def _time_out(staller, opponent) -> None:  # type: ignore[no-untyped-def]
    """A 1-point match in which ``staller`` lets the clock run out at her turn."""
    match = creation.match_challenge(
        challenger=opponent,
        opponent=staller,
        length=1,
        clock_settings=ClockSettings(kind=ClockKind.MOVE, move_seconds=5, reserve_seconds=10),
    )
    creation.match_accept(match_id=match.pk, user=staller)
    board_opened(match.pk, opponent)
    board_opened(match.pk, staller)
    # Both play until a move has been made (no clock runs before: the show-up period) and
    # it is her turn; then she stops.
    bot = Bot({opponent.username: opponent, staller.username: staller})
    match.refresh_from_db()
    while match.show_up_by is not None or bot.state(match.pk)["game"]["turn"] != staller.username:
        bot.step(match.pk)
        bot.last = None
        match.refresh_from_db()
    late = match.deadline - timezone.now() + timedelta(seconds=30)  # her time is up
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=match.turn_started_at - late, deadline=match.deadline - late
    )
    assert sweep_deadlines() == 1
    match.refresh_from_db()
    assert match.finish_reason == FinishReason.TIMEOUT
    assert match.player(match.winner_seat) == opponent


def wait_until(condition, within: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    import time

    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, "not within a minute"
        time.sleep(0.2)
