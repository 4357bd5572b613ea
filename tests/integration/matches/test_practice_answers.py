"""At every strength the computer answers every resignation and every double it is offered,
and never leaves the board waiting."""

from __future__ import annotations

from typing import Any

import pytest

from analysis.engine import Strength
from matches.models import Action, ActionKind
from matches.practice import engine_turn, practice_create
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, quick_play

pytestmark = pytest.mark.django_db


class Learner:
    """A person playing the computer through the API, one action at a time."""

    def __init__(self, strength: Strength, length: int = 5) -> None:
        self.user = UserFactory(username=f"learner-{strength.value}")
        self.match = practice_create(user=self.user, length=length, strength=strength.value)
        self.client = api_for(self.user)
        self.seq = 0

    def state(self) -> dict[str, Any]:
        engine_turn(match_id=self.match.pk)
        return dict(self.client.get(f"/api/matches/{self.match.pk}/").json())

    def act(self, **body: Any) -> dict[str, Any]:
        self.seq += 1
        response = self.client.post(
            f"/api/matches/{self.match.pk}/actions/", {**body, "seq": self.seq}, format="json"
        )
        assert response.status_code == 200, response.json()
        return dict(response.json())

    def to_my_roll(self) -> dict[str, Any]:
        """Play on until the learner is to roll (or double) in a game still on."""
        for _ in range(40):
            state = self.state()
            game = state["game"]
            assert game["turn"] == self.user.username, "the engine left a turn untaken"
            if game["phase"] == "roll":
                return state
            if game["phase"] == "doubled":
                self.act(type="take")
            else:
                self.act(type="play", play=quick_play(game["legal_plays"]))
        raise AssertionError("never came to roll")


@pytest.mark.parametrize("strength", list(Strength), ids=[s.value for s in Strength])
@pytest.mark.parametrize("level", ["single", "gammon", "backgammon"])
def test_the_computer_answers_a_resignation_at_every_strength(
    strength: Strength, level: str
) -> None:
    learner = Learner(strength)
    learner.to_my_roll()

    learner.act(type="resign", resign=level)
    after = learner.state()

    answers = Action.objects.filter(
        match=learner.match,
        kind__in=[ActionKind.ACCEPT_RESIGN, ActionKind.REJECT_RESIGN],
        actor=learner.match.player_1,
    )
    assert answers.count() == 1
    if answers.get().kind == ActionKind.ACCEPT_RESIGN:
        assert after["score"][1] >= 1
    else:
        assert after["game"]["resignation"] is None
        assert after["game"]["turn"] == learner.user.username


@pytest.mark.parametrize("strength", list(Strength), ids=[s.value for s in Strength])
def test_the_computer_answers_a_double_at_every_strength(strength: Strength) -> None:
    learner = Learner(strength)
    learner.to_my_roll()

    learner.act(type="double")
    after = learner.state()

    answer = Action.objects.filter(
        match=learner.match, kind__in=[ActionKind.TAKE, ActionKind.DROP]
    ).get()
    if answer.kind == ActionKind.TAKE:
        assert after["game"]["cube"]["value"] == 2
        assert after["game"]["turn"] == learner.user.username
    else:
        assert after["score"] == [1, 0]
