"""A computer that cannot move never sticks its practice match: it is asked again by the
sweep, and once it has failed for ``ENGINE_GIVE_UP`` the match is voided and the player
told why. The engine here is a real program that fails: one that exits as it starts."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django import DjangoCaptureOnCommitCallbacks
from pytest_django import Settings as SettingsWrapper

from lobby.models import NoticeKind, Notification
from matches.models import Action, Match, MatchStatus
from matches.practice import ENGINE_GIVE_UP, engine_turn, engines_woken, practice_create
from tests.engines import MISSING_PROGRAM, hide_the_package
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


@pytest.mark.usefixtures("broken_engine", "tasks_run_in_process")
def test_a_failed_move_leaves_the_match_playing_and_is_asked_again() -> None:
    # given a practice match where the computer is to act, and its engine fails
    player = UserFactory(username="learner")
    match = practice_create(user=player, length=3, strength="beginner")
    until_the_computer_is_to_act(match, api_for(player))
    waiting_at = Match.objects.get(pk=match.pk).last_seq

    # when it is asked to move, then asked again by the sweep a little later
    assert engine_turn(match_id=match.pk) == 0
    woken = engines_woken(now=timezone.now() + timedelta(seconds=30))

    # then nothing broke: the match is still played, the computer's turn still waits
    assert woken == [match.pk]
    match.refresh_from_db()
    assert (match.status, match.last_seq) == (MatchStatus.PLAYING, waiting_at)


@pytest.mark.usefixtures("broken_engine", "tasks_run_in_process")
def test_a_computer_that_fails_for_good_has_its_match_voided_and_the_player_told(
    django_capture_on_commit_callbacks: Callable[..., DjangoCaptureOnCommitCallbacks],
    client: Client,
) -> None:
    # given a practice match whose computer has failed to move for the give-up time
    player = UserFactory(username="learner")
    match = practice_create(user=player, length=3, strength="beginner")
    until_the_computer_is_to_act(match, api_for(player))

    # when it is asked once more, that long after its turn came
    with django_capture_on_commit_callbacks(execute=True):
        engine_turn(match_id=match.pk, now=timezone.now() + ENGINE_GIVE_UP)

    # then the match is voided, the board says so, and the player has a notice saying why
    match.refresh_from_db()
    assert match.status == MatchStatus.CANCELLED
    assert match.winner_seat is None
    over = Action.objects.filter(match=match, kind="match_over").get()
    assert over.detail["reason"] == "voided"
    assert over.detail["engine_failed"] == "GNU Backgammon failed to make its move"
    notice = Notification.objects.get(user=player, kind=NoticeKind.PRACTICE_VOIDED)
    assert notice.text == (
        "Your practice match was voided: GNU Backgammon failed to make its move. "
        "Nothing is recorded."
    )
    assert notice.url == f"/matches/{match.pk}/"
    client.force_login(player)
    assert client.get(f"/api/matches/{match.pk}/").json()["status"] == "cancelled"
    assert engines_woken(now=timezone.now() + ENGINE_GIVE_UP) == []


@pytest.mark.usefixtures("tasks_run_in_process")
def test_an_engine_gone_from_the_machine_voids_the_match_at_once(
    settings: SettingsWrapper,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Callable[..., DjangoCaptureOnCommitCallbacks],
) -> None:
    # given a practice match where the computer is to act
    player = UserFactory(username="learner")
    match = practice_create(user=player, length=3, strength="beginner")
    until_the_computer_is_to_act(match, api_for(player))

    # when GNU Backgammon is no longer installed as it is asked to move
    settings.GNUBG_PROGRAM = MISSING_PROGRAM
    hide_the_package(monkeypatch, tmp_path)
    with django_capture_on_commit_callbacks(execute=True):
        engine_turn(match_id=match.pk)

    # then retrying cannot help: the match is voided now, and the player told why
    match.refresh_from_db()
    assert match.status == MatchStatus.CANCELLED
    notice = Notification.objects.get(user=player, kind=NoticeKind.PRACTICE_VOIDED)
    assert notice.text == (
        "Your practice match was voided: GNU Backgammon is not installed on this site. "
        "Nothing is recorded."
    )
    over = Action.objects.filter(match=match, kind="match_over").get()
    assert over.detail["error"].startswith(
        f"GNU Backgammon is not installed: neither the program {MISSING_PROGRAM}"
    )
