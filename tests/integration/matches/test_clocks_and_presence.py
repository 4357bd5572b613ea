"""Clocks run out through the periodic sweeper; absent players get a grace period."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from core import metrics
from matches import creation
from matches.models import (
    DEFAULT_CLOCK,
    Action,
    ActionKind,
    ClockKind,
    ClockSettings,
    FinishReason,
    Match,
    MatchStatus,
    TimeoutLoses,
)
from matches.tasks import sweep_deadlines
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, api_for, board_left, board_opened

pytestmark = pytest.mark.django_db


def _playing(
    *,
    clock: ClockSettings | None = None,
    money: bool = False,
    length: int = 3,
    under_way: bool = True,
) -> Match:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match = creation.match_challenge(
        challenger=alice,
        opponent=bruno,
        length=None if money else length,
        money_play=money,
        stake_cents=100 if money else 0,
        max_cube=2 if money else None,
        clock_settings=clock or DEFAULT_CLOCK,
    )
    creation.match_accept(match_id=match.pk, user=bruno)
    if not under_way:
        match.refresh_from_db()
        return match
    # both come to the board and the first move is made: the clocks run from here
    board_opened(match.pk, alice)
    board_opened(match.pk, bruno)
    Bot({"alice": alice, "bruno": bruno}).step(match.pk)
    match.refresh_from_db()
    assert match.show_up_by is None
    return match


def _backdate(match: Match, seconds: float) -> None:
    """Pretend the player to act was asked ``seconds`` ago."""
    match.refresh_from_db()
    started = match.turn_started_at - timedelta(seconds=seconds)
    Match.objects.filter(pk=match.pk).update(
        turn_started_at=started, deadline=match.deadline - timedelta(seconds=seconds)
    )


def test_the_move_timer_is_free_and_only_the_excess_comes_off_the_reserve() -> None:
    began = time.monotonic()
    match = _playing(clock=ClockSettings(kind=ClockKind.MOVE, move_seconds=12, reserve_seconds=60))
    state = api_for(match.player_0).get(f"/api/matches/{match.pk}/").json()
    mover_seat = state["game"]["turn_seat"]
    mover = match.player(mover_seat)
    _backdate(match, 20)

    bot = Bot({mover.username: mover})
    bot.step(match.pk)
    took_ms = (time.monotonic() - began) * 1000

    match.refresh_from_db()
    reserve = match.reserve_ms_0 if mover_seat == 0 else match.reserve_ms_1
    # 60 s less the 8 s beyond the 12 s move timer, less the time the turn really took
    # (a busy machine may take more than a second over the set-up and the move)
    assert 52_000 - took_ms <= reserve <= 52_100
    assert match.deadline is not None


def test_the_sweeper_ends_the_match_when_the_reserve_runs_out_in_tournament_style() -> None:
    match = _playing(clock=ClockSettings(kind=ClockKind.MOVE, move_seconds=5, reserve_seconds=10))
    seat = api_for(match.player_0).get(f"/api/matches/{match.pk}/").json()["game"]["turn_seat"]
    _backdate(match, 16)

    handled = sweep_deadlines()

    match.refresh_from_db()
    assert handled == 1
    assert match.status == MatchStatus.FINISHED
    assert match.winner_seat == 1 - seat
    assert match.finish_reason == FinishReason.TIMEOUT
    assert Action.objects.filter(match=match, kind=ActionKind.TIMEOUT, seat=seat).exists()
    assert sweep_deadlines() == 0


def test_in_money_play_a_timeout_loses_the_game_and_the_session_goes_on() -> None:
    match = _playing(
        clock=ClockSettings(
            kind=ClockKind.MOVE, move_seconds=5, reserve_seconds=10, timeout_loses=TimeoutLoses.GAME
        ),
        money=True,
    )
    _backdate(match, 16)

    sweep_deadlines()

    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert match.games.count() == 2
    assert match.score_0 + match.score_1 == 1


def test_a_due_deadline_that_is_not_yet_spent_is_left_alone() -> None:
    match = _playing(clock=ClockSettings(kind=ClockKind.MOVE, move_seconds=5, reserve_seconds=10))
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))

    sweep_deadlines()

    match.refresh_from_db()
    assert match.status == MatchStatus.PLAYING
    assert match.deadline > timezone.now()


def test_the_delay_clock_gives_a_match_reserve_per_point() -> None:
    match = _playing(
        clock=ClockSettings(kind=ClockKind.DELAY, delay_seconds=12, reserve_seconds=120), length=5
    )

    assert match.move_seconds == 12
    assert match.reserve_ms_0 == match.reserve_ms_1 == 5 * 120 * 1000


def test_a_player_who_leaves_gets_a_grace_and_returning_resumes_the_match() -> None:
    match = _playing(under_way=False)
    alice = match.player_0
    board_left(match.pk, alice)
    match.refresh_from_db()
    assert match.grace_ends_0 is not None
    assert match.deadline <= match.grace_ends_0

    board_opened(match.pk, alice)

    match.refresh_from_db()
    assert match.grace_ends_0 is None
    assert match.status == MatchStatus.PLAYING
    kinds = list(Action.objects.filter(match=match).values_list("kind", flat=True))
    assert kinds[-2:] == [ActionKind.DISCONNECT, ActionKind.RECONNECT]


def test_when_the_grace_runs_out_the_match_is_suspended_for_staff() -> None:
    match = _playing(under_way=False)
    Match.objects.filter(pk=match.pk).update(abandon_policy="suspend")
    board_left(match.pk, match.player_1)
    Match.objects.filter(pk=match.pk).update(
        grace_ends_1=timezone.now() - timedelta(seconds=1),
        deadline=timezone.now() - timedelta(seconds=1),
    )

    sweep_deadlines()

    match.refresh_from_db()
    assert match.status == MatchStatus.SUSPENDED
    assert Action.objects.filter(match=match, kind=ActionKind.SUSPEND).exists()


def test_a_tournament_player_who_never_shows_forfeits() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    (match,) = creation.matches_create_for_tournament(
        tournament_id=1, pairs=[creation.Pair(alice.pk, bruno.pk, 1)], show_up_seconds=60
    )
    board_opened(match.pk, alice)
    Match.objects.filter(pk=match.pk).update(
        show_up_by=timezone.now() - timedelta(seconds=1),
        deadline=timezone.now() - timedelta(seconds=1),
    )

    sweep_deadlines()

    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.winner_seat == 0
    assert match.finish_reason == FinishReason.FORFEIT


def test_forced_moves_are_played_for_a_player_who_asked() -> None:
    match = _playing(length=1)
    for player in (match.player_0, match.player_1):
        player.profile.automatic_forced_moves = True
        player.profile.save()
    bot = Bot({match.player_0.username: match.player_0, match.player_1.username: match.player_1})

    bot.play_out(match.pk)

    automatic = [
        a.detail.get("automatic") for a in Action.objects.filter(match=match, kind=ActionKind.PLAY)
    ]
    assert any(automatic)


def test_pass_and_play_turns_the_board_to_whoever_is_on_roll() -> None:
    host = UserFactory(username="host")
    match = creation.pass_and_play_create(user=host, length=1)
    client = api_for(host)

    first = client.get(f"/api/matches/{match.pk}/").json()
    assert first["pass_and_play"] is True
    assert first["rated"] is False
    seat = first["game"]["turn_seat"]
    assert first["game"]["view_seat"] == seat
    played = client.post(
        f"/api/matches/{match.pk}/actions/",
        {"type": "play", "seq": 1, "play": first["game"]["legal_plays"][0]["text"]},
        format="json",
    ).json()

    assert played["game"]["turn_seat"] == 1 - seat
    assert played["game"]["view_seat"] == 1 - seat


def test_a_timeout_the_sweeper_handles_is_counted_with_how_late_it_came() -> None:
    def lateness() -> tuple[float, float]:
        figures = {
            sample.name: sample.value
            for family in metrics.DEADLINE_LATENESS.collect()
            for sample in family.samples
        }
        return figures["crawford_deadline_lateness_seconds_count"], figures[
            "crawford_deadline_lateness_seconds_sum"
        ]

    match = _playing(clock=ClockSettings(kind=ClockKind.MOVE, move_seconds=5, reserve_seconds=10))
    _backdate(match, 17)  # the reserve ran out two seconds ago
    count, total = lateness()

    sweep_deadlines()

    assert lateness()[0] == count + 1
    assert lateness()[1] - total >= 1.5
