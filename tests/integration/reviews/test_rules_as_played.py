"""A match played here is analysed under the rules it was played by: match swing's match
doubles (one of them ending the match) and a money session's automatic doubles reach the
engine beside the .mat file, which has no room for them.

Expected verdicts are worked out here from a direct evaluation of the logged position by
the engine and the stake arithmetic of :mod:`analysis.rules_as_played` (take point 25 %).
"""

from __future__ import annotations

import pytest

from analysis.engine import EvalSettings
from analysis.rules_as_played import MatchDouble
from backgammon.matchid import MatchId
from matches.engine import analysis_engine
from matches.models import Action, ActionKind, FinishReason, Match
from matches.records import match_file, rules_as_played
from reviews.models import Analysis, AnalysisStatus
from reviews.services import analysis_for_match, analysis_run
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for
from tests.integration.matches.test_match_cube import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

OPENING_DOUBLES_SEED = "2222" * 16
"""Game 1's opening throws with this seed: 4-4 (an automatic double), then 6-3."""


def test_a_swing_match_ended_by_a_match_drop_has_its_match_doubles_judged() -> None:
    # given a 3-point match with a match cube: a match double taken after the opening, the
    # taker's redouble a roll later dropped, which ends the match in its first game
    table = Table()
    doubler, taker = table.after_the_opening()
    table.ok(doubler, "match_double")
    table.ok(taker, "match_take")
    table.turn(doubler)
    table.ok(taker, "match_double")
    table.ok(doubler, "match_drop")
    match = Match.objects.get(pk=table.match_id)
    assert match.finish_reason == FinishReason.MATCH_CUBE_DROPPED
    offers = list(Action.objects.filter(match=match, kind=ActionKind.MATCH_DOUBLE).order_by("seq"))

    # when it is analysed
    analysis = analysis_for_match(match.pk, plies=0)
    assert analysis is not None
    assert analysis_run(analysis.pk)

    # then the file holds the unfinished game and the match doubles travel beside it
    assert " Game 1\n" in analysis.mat
    assert " Game 2\n" not in analysis.mat
    assert rules_as_played(match).match_doubles == (
        MatchDouble(1, 1, table.seat(doubler), offers[0].gnubg_before, True),
        MatchDouble(1, 2, table.seat(taker), offers[1].gnubg_before, False),
    )
    done = Analysis.objects.get(pk=analysis.pk)
    assert done.status == AnalysisStatus.DONE, done.error
    assert done.result is not None
    judged = [d for d in done.result["decisions"] if d["kind"] == "match cube"]
    assert [(d["seat"], d["action"]) for d in judged] == [
        (table.seat(doubler), "match double"),
        (table.seat(taker), "match take"),
        (table.seat(taker), "match double"),
        (table.seat(doubler), "match drop"),
    ]
    # and each verdict follows from the doubler's MWC in the logged position
    for offer, (double, answer) in zip(offers, (judged[:2], judged[2:]), strict=True):
        evaluated = analysis_engine().evaluate(offer.gnubg_before, EvalSettings(plies=0))
        assert evaluated.player_on_roll == offer.seat
        assert evaluated.crawford is False
        p = evaluated.player(offer.seat).mwc
        assert p is not None
        no_double, take, drop = 2 * p - 1, 2 * (2 * p - 1), 1.0
        assert double["best"] == (
            "match double" if min(take, drop) > no_double else "no match double"
        )
        assert double["error"] == pytest.approx(max(no_double - min(take, drop), 0), abs=1e-4)
        assert answer["best"] == ("match take" if 1 - p >= 0.25 else "match drop")
        chosen = take if answer["action"] == "match take" else drop
        assert answer["error"] == pytest.approx(max(chosen - min(take, drop), 0), abs=1e-4)
        assert f"{double['position_id']}:{double['match_id']}" == offer.gnubg_before


def test_a_money_game_opened_with_an_automatic_double_is_analysed_at_the_doubled_cube() -> None:
    # given a money session with automatic doubles whose first opening throw was 4-4
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    response = api_for(alice).post(
        "/api/matches/",
        {"opponent": "bruno", "money": True, "stake_cents": 100, "automatic_doubles": 1},
        format="json",
    )
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    Match.objects.filter(pk=match_id).update(dice_seed=OPENING_DOUBLES_SEED)
    assert api_for(bruno).post(f"/api/matches/{match_id}/accept/").status_code == 200
    # when its first game is played out
    bot = Bot({"alice": alice, "bruno": bruno})
    match = Match.objects.get(pk=match_id)
    while not match.games.filter(number=1, winner_seat__isnull=False).exists():
        bot.step(match_id)
    first = match.games.get(number=1)
    assert first.automatic_doubles == 1

    # and analysed with the rules as played
    rules = rules_as_played(match)
    analysed = analysis_engine().analyse_match(match_file(match), plies=0, rules=rules)
    unaware = analysis_engine().analyse_match(match_file(match), plies=0)

    # then the game's cube was 2 from its first roll, centred, and it scored what it did
    assert rules.initial_cubes == (2,)
    game = analysed.games[0]
    assert first.points is not None
    assert (game.points, unaware.games[0].points) == (first.points, first.points // 2)
    cubes = {MatchId.decode(d.match_id).cube_value for d in game.decisions}
    assert cubes == {2}
    assert {MatchId.decode(d.match_id).cube_value for d in unaware.games[0].decisions} == {1}
    assert game.statistics is not None
    for player in (0, 1):
        error = sum(d.error for d in game.decisions if d.player == player and d.kind == "checker")
        assert game.statistics[player].checker_error_cost == pytest.approx(2 * error, abs=1e-3)
