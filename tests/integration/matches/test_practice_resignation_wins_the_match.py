"""The computer accepts a resignation that wins it the match, however much more than the
points offered it expects from playing on: playing on could only lose the match."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from analysis.engine import EvalSettings, Strength
from matches.engine import engine
from matches.lifecycle import ENGINE_SEAT
from matches.models import Action, ActionKind, Match, MatchStatus
from matches.practice import engine_turn, practice_create
from matches.state import current_game, game_state, match_gnubg_id
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, quick_play

pytestmark = pytest.mark.django_db

# With these dice the learner, playing `quick_play`, falls far behind within a few rolls.
SEED = "04" * 32


def expected_by_the_computer(match_id: int) -> float:
    """The points a game is worth to the computer from here (its wins, gammons and
    backgammons), per unit of the cube, with the learner to roll."""
    match = Match.objects.get(pk=match_id)
    game = current_game(match)
    position = match_gnubg_id(match, game, game_state(game))
    outlook = engine().evaluate(position, EvalSettings(plies=0)).player(ENGINE_SEAT)
    return outlook.win + outlook.win_gammon + outlook.win_backgammon


@pytest.mark.parametrize("strength", [Strength.BEGINNER, Strength.WORLD_CLASS], ids=str)
def test_a_single_game_resigned_in_a_one_point_match_is_accepted(strength: Strength) -> None:
    # given a 1-point match in which the computer expects more than a single game
    learner = UserFactory(username="learner")
    with mock.patch("matches.dice.new_seed", return_value=SEED):
        match = practice_create(user=learner, length=1, strength=strength.value)
    client = api_for(learner)
    seq = 0

    def act(**body: Any) -> None:
        nonlocal seq
        seq += 1
        answer = client.post(
            f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
        )
        assert answer.status_code == 200, answer.json()

    for _ in range(60):
        engine_turn(match_id=match.pk)
        game = client.get(f"/api/matches/{match.pk}/").json()["game"]
        assert game["turn"] == "learner", "the computer left a turn untaken"
        if game["phase"] == "roll" and expected_by_the_computer(match.pk) > 1:
            break
        if game["phase"] == "roll":
            act(type="roll")
        elif game["phase"] == "doubled":
            act(type="take")
        else:
            act(type="play", play=quick_play(game["legal_plays"]))
    else:
        raise AssertionError("the computer never got far enough ahead")

    # when the learner resigns a single game, which is the match
    act(type="resign", resign="single")
    engine_turn(match_id=match.pk)

    # then the computer accepts it and wins the match
    match.refresh_from_db()
    assert Action.objects.filter(match=match, kind=ActionKind.ACCEPT_RESIGN).exists()
    assert match.status == MatchStatus.FINISHED
    assert match.winner_seat == ENGINE_SEAT
    assert match.finish_reason == "resigned"
