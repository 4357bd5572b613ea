"""A tournament's match with a demo player in it has the computer at the demo player's
seat: between two demo players it plays both sides, so a demo tournament advances by
itself, a few actions at a time; against a person it answers them. Without an engine the
demo player is absent, and the usual show-up rule decides the match."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks

from accounts.models import User
from core import tasks
from matches.deadlines import no_show_expire
from matches.lifecycle import ENGINE_TURN_TASK
from matches.models import Action, Match, MatchStatus
from matches.practice import MAX_ENGINE_ACTIONS, engine_turn, engines_woken
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import api_for, quick_play
from tests.integration.tournaments.helpers import open_tournament, organizer
from tournaments import scheduler, services
from tournaments.models import Tournament, TournamentState

pytestmark = pytest.mark.django_db

ENOUGH_TURNS = 300  # calls of the computer's turn: far more than a 1-point match takes


def demo_player(username: str, rating: float = 1500.0) -> User:
    return player(username, rating=rating, bot_strength="beginner")


def started_between(first: User, second: User, **settings: Any) -> tuple[Tournament, Match]:
    owner = organizer()
    tournament = open_tournament(owner, round_lengths=(1,), show_up_seconds=600, **settings)
    for entrant in (first, second):
        services.entry_register(tournament_id=tournament.pk, user=entrant)
    services.tournament_start(tournament_id=tournament.pk, user=owner)
    scheduler.matches_start(tournament_id=tournament.pk)
    return tournament, Match.objects.get(tournament_id=tournament.pk)


def test_the_computer_plays_both_demo_players_a_few_actions_at_a_time_to_the_end(
    django_capture_on_commit_callbacks: Callable[..., DjangoCaptureOnCommitCallbacks],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # given a knockout of two demo players, its one match started
    nikos, olga = demo_player("nikos"), demo_player("olga", rating=1400.0)
    tournament, match = started_between(nikos, olga)
    assert (match.seen_0, match.seen_1) == (True, True)  # the computer is at both seats
    queued: list[str] = []
    monkeypatch.setattr(tasks, "enqueue", lambda name, *args: queued.append(name))

    # when the computer is asked to take its turn, again and again
    taken = []
    for _ in range(ENOUGH_TURNS):
        with django_capture_on_commit_callbacks(execute=True):
            taken.append(engine_turn(match_id=match.pk))
        if Match.objects.get(pk=match.pk).status != MatchStatus.PLAYING:
            break

    # then each call took a bounded number of actions, both sides played, and the match
    # and the tournament are over
    assert max(taken) <= MAX_ENGINE_ACTIONS
    assert len(taken) > 1  # a match is not played out in one call
    assert ENGINE_TURN_TASK not in queued  # the sweep paces it, not a queue of its own
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert Action.objects.filter(match=match, actor=nikos, kind="play").exists()
    assert Action.objects.filter(match=match, actor=olga, kind="play").exists()
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED


def test_the_sweep_wakes_the_computer_of_a_demo_match_it_left_waiting() -> None:
    _, match = started_between(demo_player("nikos"), demo_player("olga", rating=1400.0))
    engine_turn(match_id=match.pk)

    woken = engines_woken(now=timezone.now() + timedelta(minutes=1))

    assert woken == [match.pk]
    assert engines_woken(now=timezone.now()) == []  # not before it has been quiet a while


def test_a_person_against_a_demo_player_in_a_tournament_gets_the_computers_moves() -> None:
    # given a knockout match between a person and a demo player
    newcomer, nikos = player("newcomer", rating=1400.0), demo_player("nikos")
    _, match = started_between(newcomer, nikos)
    client = api_for(newcomer)
    seat = match.seat_of(newcomer)

    # when the person acts whenever it is their turn, and the computer answers
    for seq in range(1, 400):
        engine_turn(match_id=match.pk)
        state = client.get(f"/api/matches/{match.pk}/").json()
        if state["status"] != "playing":
            break
        game = state["game"]
        assert game["turn"] == "newcomer", "the computer left the demo player's turn untaken"
        if game["phase"] == "doubled":
            body = {"type": "take"}
        elif game["phase"] == "roll":
            body = {"type": "roll"}
        else:
            body = {"type": "play", "play": quick_play(game["legal_plays"])}
        answer = client.post(
            f"/api/matches/{match.pk}/actions/", {**body, "seq": seq}, format="json"
        )
        assert answer.status_code == 200, answer.json()

    # then the match was played out, the demo player's moves in the log as theirs
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert Action.objects.filter(match=match, actor=nikos, kind="play").exists()
    assert seat is not None


def test_without_an_engine_a_demo_player_is_absent_and_forfeits_at_the_show_up_time(
    settings: Any,
) -> None:
    settings.CRAWFORD_ENGINE = "none"
    newcomer, nikos = player("newcomer", rating=1400.0), demo_player("nikos")
    _, match = started_between(newcomer, nikos)
    assert not match.seen(match.seat_of(nikos))

    # the person comes; the demo player, whom nothing can play, does not
    api_for(newcomer).get(f"/api/matches/{match.pk}/")
    Match.objects.filter(pk=match.pk).update(**{f"seen_{match.seat_of(newcomer)}": True})
    assert engine_turn(match_id=match.pk) == 0
    no_show_expire(match_id=match.pk, now=timezone.now() + timedelta(minutes=11))

    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.player(match.winner_seat) == newcomer
