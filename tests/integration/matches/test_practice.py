"""Practice against the computer: the engine plays through the same services as a person."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from analysis.engine import Strength
from matches.models import Action, Match, MatchStatus
from matches.practice import engine_turn, engine_user, engines_woken, practice_create
from matches.tasks import wake_engines
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, quick_play

pytestmark = pytest.mark.django_db


def test_a_whole_practice_match_against_the_engine_finishes() -> None:
    # given a 1-point practice match against the beginner
    player = UserFactory(username="learner")
    match = practice_create(user=player, length=1, strength="beginner")
    client = api_for(player)

    # when the person plays and the engine answers every time it is its turn
    for seq in range(1, 400):
        engine_turn(match_id=match.pk)
        state = client.get(f"/api/matches/{match.pk}/").json()
        if state["status"] != "playing":
            break
        game = state["game"]
        assert game["turn"] == "learner", "the engine left a turn untaken"
        if game["phase"] == "doubled":
            body = {"type": "take"}
        elif game["phase"] == "roll":
            body = {"type": "roll"}
        else:
            body = {"type": "play", "play": quick_play(game["legal_plays"])}
        response = client.post(
            f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
        )
        assert response.status_code == 200, response.json()

    # then the match ended with a winner, unrated, and the engine's actions are in the log
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.winner_seat in (0, 1)
    assert not match.rated
    assert Action.objects.filter(match=match, actor=match.player_1, kind="play").exists()


def test_each_strength_is_a_player_of_its_own_outside_the_ratings() -> None:
    expert = engine_user(Strength.WORLD_CLASS)

    assert expert.username == "gnubg-world-class"
    assert expert.profile.display_name == "GNU Backgammon (Expert)"
    assert not expert.has_usable_password()
    assert engine_user(Strength.WORLD_CLASS) == expert
    assert not expert.groups.filter(name="player").exists()


def test_an_unknown_strength_is_refused_with_the_choices() -> None:
    with pytest.raises(Exception, match="Choose a strength: beginner, casual"):
        practice_create(user=UserFactory(), length=1, strength="godlike")


def test_the_engine_does_nothing_when_it_is_not_its_turn() -> None:
    player = UserFactory()
    match = practice_create(user=player, length=1, strength="advanced")
    engine_turn(match_id=match.pk)
    seq_before = Match.objects.get(pk=match.pk).last_seq

    assert engine_turn(match_id=match.pk) == 0
    assert Match.objects.get(pk=match.pk).last_seq == seq_before


def test_the_lobby_starts_a_practice_match_and_opens_its_board(client: object) -> None:
    from django.test import Client

    assert isinstance(client, Client)
    player = UserFactory()
    client.force_login(player)

    response = client.post("/play/practice/", {"strength": "casual", "length": "3"})

    match = Match.objects.get(player_0=player)
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"
    assert match.player_1.username == "gnubg-casual"
    assert client.get(response["Location"]).status_code == 200


def _until_the_computer_is_to_act(match: Match, client: object) -> None:
    """The person acts until it is the computer's turn; its request is never sent here (a
    test's transaction never commits), as if the worker holding it had been killed."""
    for seq in range(1, 20):
        game = client.get(f"/api/matches/{match.pk}/").json()["game"]  # type: ignore[attr-defined]
        if game["turn"] != "learner":
            return
        body = {"type": "roll"} if game["phase"] == "roll" else {"type": "take"}
        if game["phase"] == "move":
            body = {"type": "play", "play": quick_play(game["legal_plays"])}
        client.post(  # type: ignore[attr-defined]
            f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
        )
    raise AssertionError("the computer never came to act")


@pytest.mark.usefixtures("tasks_run_in_process")
def test_a_computer_turn_whose_request_was_lost_is_asked_again() -> None:
    # given a practice match where the computer is to act and its request was lost
    player = UserFactory(username="learner")
    match = practice_create(user=player, length=3, strength="beginner")
    client = api_for(player)
    _until_the_computer_is_to_act(match, client)
    match.refresh_from_db()
    waiting_at = match.last_seq

    # when the sweep looks, 30 s later, for computers that should have acted
    woken = engines_woken(now=timezone.now() + timedelta(seconds=30))

    # then it asked this one again, and the computer took its turn
    assert woken == [match.pk]
    match.refresh_from_db()
    assert match.last_seq > waiting_at
    assert Action.objects.filter(match=match, actor=match.player_1, seq__gt=waiting_at).exists()


@pytest.mark.usefixtures("tasks_run_in_process")
def test_a_computer_that_is_only_thinking_is_left_alone() -> None:
    player = UserFactory(username="learner")
    match = practice_create(user=player, length=3, strength="beginner")
    _until_the_computer_is_to_act(match, api_for(player))

    assert wake_engines.apply().get() == 0
