"""Stalling counts every walk-away: a money session or a swing game whose player left and
whose grace ran out is adjudicated as a split with no winner, and still counts against the
player who left, whatever the split gave them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone

from accounts.models import Standing, User
from fairplay.detectors import stalling
from fairplay.models import Case, CaseKind
from matches.models import FinishReason, Match, MatchStatus
from matches.tasks import adjudicate_match, sweep_deadlines
from tests.factories import UserFactory
from tests.integration.matches.helpers import Bot, board_left, start_match
from tests.integration.tournaments.helpers import (
    live_matches,
    open_tournament,
    organizer,
    players,
    register_all,
)
from tournaments import services

pytestmark = pytest.mark.slow

ONE_STALL_IS_ENOUGH = override_settings(FAIRPLAY={**settings.FAIRPLAY, "STALLED_MATCHES": 1})


def _walk_away(match_id: int, seat: int) -> None:
    """``seat`` leaves the board and their grace runs out: the sweeper suspends the match
    and the engine splits it."""
    match = Match.objects.get(pk=match_id)
    board_left(match_id, match.player(seat))
    past = timezone.now() - timedelta(seconds=1)
    field = "grace_ends_0" if seat == 0 else "grace_ends_1"
    Match.objects.filter(pk=match_id).update(**{field: past, "deadline": past})
    sweep_deadlines()
    if Match.objects.get(pk=match_id).status == MatchStatus.SUSPENDED:
        adjudicate_match.apply(args=[match_id])


def _assert_counted_against(leaver: User, stayer: User, match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.finish_reason) == (MatchStatus.FINISHED, FinishReason.ADJUDICATED)
    assert match.winner_seat is None  # a split: nobody won
    days = int(settings.FAIRPLAY["STALLING_DAYS"])
    assert [stall["match"] for stall in stalling.stalls_of(leaver, days=days)] == [match_id]
    assert stalling.stalls_of(stayer, days=days) == []
    with ONE_STALL_IS_ENOUGH:
        stalling.scan_match(match_id)
    case = Case.objects.get(kind=CaseKind.STALLING)
    assert case.subject == leaver
    assert Standing.objects.get(user=leaver).cooldown_until > timezone.now()
    assert not Standing.objects.filter(user=stayer, cooldown_until__isnull=False).exists()


@pytest.mark.django_db
def test_walking_away_from_a_money_session_counts_against_the_player_who_left() -> None:
    # given a money session Bruno leaves in the middle of a game
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, money=True, stake_cents=100, max_cube=4, currency="FUN")
    bot = Bot({"alice": alice, "bruno": bruno})
    for _ in range(6):
        bot.step(match_id)
    seat = 0 if Match.objects.get(pk=match_id).player_0_id == bruno.pk else 1

    # when his grace runs out and the engine splits the game
    _walk_away(match_id, seat)

    # then the walk-away is his, whichever way the split went
    _assert_counted_against(bruno, alice, match_id)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("tasks_run_in_process")
def test_walking_away_from_a_swing_game_counts_against_the_player_who_left() -> None:
    # given a swing game of two players, adjudicated by the engine when one walks away
    field = players(2)
    tournament = open_tournament(
        organizer(),
        name="Thursday Swing",
        format="swing",
        starting_chips=1000,
        cpp_levels=(50, 100),
        cpp_step=50,
        abandon_policy="engine",
    )
    register_all(tournament, field)
    services.tournament_start(tournament_id=tournament.pk, user=tournament.organizer)
    (match,) = live_matches(tournament)
    bot = Bot({user.username: user for user in field})
    for _ in range(4):
        bot.step(match.pk)
    leaver, stayer = match.player_1, match.player_0

    # when the second player's grace runs out
    _walk_away(match.pk, 1)

    # then the game is split in chips with no winner, and the walk-away is theirs
    _assert_counted_against(leaver, stayer, match.pk)
