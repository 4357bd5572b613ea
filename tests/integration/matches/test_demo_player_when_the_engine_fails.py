"""A demo player whose computer fails for good: their play-money match or money session
ends as a practice match does, voided, with every stake it held back where it came from,
and both players told. The engine here is a real program that fails as it starts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks
from pytest_django import Settings as SettingsWrapper

from accounts import ledger
from accounts.models import User
from lobby.models import NoticeKind, Notification
from matches.creation import match_challenge
from matches.models import Action, Match, MatchStatus
from matches.money import escrow_ref
from matches.practice import ENGINE_GIVE_UP, engine_turn, engines_woken
from tests.factories import UserFactory
from tests.integration.matches.helpers import api_for, until_the_computer_is_to_act

pytestmark = pytest.mark.django_db

BROKEN = "#!/bin/sh\necho 'GNU Backgammon: cannot open the neural net weights' >&2\nexit 3\n"


@pytest.fixture
def broken_engine(settings: SettingsWrapper, tmp_path: Path) -> None:
    program = tmp_path / "gnubg"
    program.write_text(BROKEN)
    program.chmod(0o755)
    settings.CRAWFORD_ENGINE = "program"
    settings.GNUBG_PROGRAM = str(program)


def players() -> tuple[User, User]:
    newcomer = UserFactory(username="newcomer", display_name="Newcomer")
    nikos = UserFactory(username="nikos", display_name="Nikos", bot_strength="beginner")
    return newcomer, nikos


def fun(user: User) -> int:
    return ledger.balance(user=user, currency="FUN")


def given_up(match: Match, callbacks: Callable[..., DjangoCaptureOnCommitCallbacks]) -> None:
    """The person plays until the computer is to act, and it fails that long after."""
    until_the_computer_is_to_act(match, api_for(match.player_0))
    with callbacks(execute=True):
        engine_turn(match_id=match.pk, now=timezone.now() + ENGINE_GIVE_UP)


@pytest.mark.usefixtures("broken_engine", "tasks_run_in_process")
def test_a_money_session_against_a_demo_player_is_voided_and_every_stake_returned(
    django_capture_on_commit_callbacks: Callable[..., DjangoCaptureOnCommitCallbacks],
) -> None:
    # given a money session at 0.10 FUN a point against Nikos, whose computer then fails
    newcomer, nikos = players()
    before = fun(newcomer), fun(nikos), ledger.currency_total(currency="FUN")
    match = match_challenge(
        challenger=newcomer, opponent=nikos, money_play=True, stake_cents=10, currency="FUN"
    )
    assert fun(newcomer) < before[0]  # the first game's exposure is held

    # when it has failed to move for the give-up time
    given_up(match, django_capture_on_commit_callbacks)

    # then the session is voided, and what it held is back in both wallets to the cent
    match.refresh_from_db()
    assert match.status == MatchStatus.CANCELLED
    assert (fun(newcomer), fun(nikos), ledger.currency_total(currency="FUN")) == before
    assert ledger.escrow_balance(escrow_ref=escrow_ref(match), currency="FUN") == 0
    over = Action.objects.get(match=match, kind="match_over")
    assert over.detail["engine_failed"] == "GNU Backgammon failed to make its move"
    # and both sides are told why, the person without a word of "practice"
    told = dict(
        Notification.objects.filter(kind=NoticeKind.PRACTICE_VOIDED).values_list(
            "user__username", "text"
        )
    )
    assert told == {
        "newcomer": "Your money session at 0.10 FUN a point against Nikos was voided: GNU "
        "Backgammon failed to make its move. The game in play is void and its stakes are "
        "back in your wallet.",
        "nikos": "Your money session at 0.10 FUN a point against Newcomer was voided: GNU "
        "Backgammon failed to make its move. The game in play is void and its stakes are "
        "back in your wallet.",
    }
    assert engines_woken(now=timezone.now() + ENGINE_GIVE_UP) == []


@pytest.mark.usefixtures("broken_engine", "tasks_run_in_process")
def test_a_staked_match_against_a_demo_player_is_voided_and_both_stakes_returned(
    django_capture_on_commit_callbacks: Callable[..., DjangoCaptureOnCommitCallbacks],
) -> None:
    newcomer, nikos = players()
    before = fun(newcomer), fun(nikos), ledger.currency_total(currency="FUN")
    match = match_challenge(
        challenger=newcomer, opponent=nikos, length=3, stake_cents=500, currency="FUN"
    )

    given_up(match, django_capture_on_commit_callbacks)

    match.refresh_from_db()
    assert (match.status, match.winner_seat) == (MatchStatus.CANCELLED, None)
    assert (fun(newcomer), fun(nikos), ledger.currency_total(currency="FUN")) == before
    assert ledger.escrow_balance(escrow_ref=escrow_ref(match), currency="FUN") == 0
    told = dict(
        Notification.objects.filter(kind=NoticeKind.PRACTICE_VOIDED).values_list(
            "user__username", "text"
        )
    )
    assert told["newcomer"] == (
        "Your 3-point match for 5.00 FUN against Nikos was voided: GNU Backgammon failed "
        "to make its move. Your stake is back in your wallet."
    )
    assert set(told) == {"newcomer", "nikos"}
