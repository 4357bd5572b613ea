"""``core.rows.written_together``: writes held and sent in one message with the next
statement, each still reading its own result; and a player's action as four statements."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, models, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import Profile
from core import rows
from lobby.models import NoticeKind, Notification
from matches import presence
from matches.actions import PlayerAction
from matches.models import Action, ActionKind, Match
from matches.play import action_submit
from matches.selectors import match_snapshot
from matches.state import lock_match, locked_presence
from tests.factories import UserFactory
from tests.integration.matches.helpers import board_opened, start_match

pytestmark = pytest.mark.django_db


def _statement(sql: str | None) -> str:
    """The statement's first word; a prepared statement is logged without its text."""
    return sql.split()[0] if sql else "PREPARED"


def _match() -> Match:
    alice = UserFactory(username="alice")
    bruno = UserFactory(username="bruno")
    return Match.objects.get(pk=start_match(alice, bruno, length=3))


def test_held_writes_travel_with_the_next_statement_and_read_their_results() -> None:
    match = _match()
    with transaction.atomic(), CaptureQueriesContext(connection) as sent:
        locked = lock_match(match.pk)
        with rows.written_together():
            action = rows.insert(
                Action(match=locked, seq=locked.last_seq + 1, kind=ActionKind.RECONNECT)
            )
            locked.last_seq += 1
            rows.save_changed(locked)
            assert action.pk is None  # held: nothing sent yet
            assert len(sent.captured_queries) == 1  # the lock (the test's transaction is open)
            # A read in the block sees the held writes: they go first, in its message.
            seen = Action.objects.filter(match=locked, seq=locked.last_seq).exists()
            assert len(sent.captured_queries) == 2
            assert action.pk is not None
            assert seen
    assert Match.objects.get(pk=match.pk).last_seq == locked.last_seq
    assert Action.objects.filter(pk=action.pk, seq=locked.last_seq).exists()


def test_what_is_held_at_the_end_of_the_block_is_sent_then() -> None:
    match = _match()
    with transaction.atomic():
        locked = lock_match(match.pk)
        with rows.written_together():
            locked.last_seq += 5
            rows.save_changed(locked)
            profile = Profile.objects.get(user=locked.player_0)
            profile.display_name = "Alice 100%"
            rows.remember(profile)
            profile.display_name = "Alice the 100%"
            rows.save_changed(profile)
        assert Match.objects.get(pk=match.pk).last_seq == locked.last_seq
    assert Profile.objects.get(user=locked.player_0).display_name == "Alice the 100%"


def test_a_statement_without_parameters_keeps_its_percent_signs() -> None:
    match = _match()
    with transaction.atomic():
        locked = lock_match(match.pk)
        with rows.written_together():
            locked.last_seq += 1
            rows.save_changed(locked)
            with connection.cursor() as cursor:
                cursor.execute("SELECT '100%'")
                assert cursor.fetchone() == ("100%",)
    assert Match.objects.get(pk=match.pk).last_seq == locked.last_seq


def test_held_writes_go_first_on_their_own_before_a_prepared_statement() -> None:
    """A prepared statement takes a single statement: what is held is sent before it."""
    match = _match()
    with transaction.atomic():
        locked = lock_match(match.pk)
        with rows.written_together():
            locked.last_seq += 3
            rows.save_changed(locked)
            again = lock_match(match.pk)  # the lock is a prepared statement
            assert again.last_seq == locked.last_seq


def test_a_held_update_of_a_row_that_is_gone_fails_the_block() -> None:
    match = _match()

    def update_a_deleted_profile() -> None:
        with transaction.atomic():
            locked = lock_match(match.pk)
            profile = locked.player_0.profile
            with rows.written_together():
                Profile.objects.filter(pk=profile.pk).delete()  # a statement: nothing held
                profile.display_name = "Ghost"
                rows.save_changed(profile)

    with pytest.raises(models.ObjectDoesNotExist):
        update_a_deleted_profile()
    assert Profile.objects.filter(user=match.player_0).exists()  # rolled back


@pytest.mark.django_db(transaction=True)
def test_a_players_action_is_four_statements_with_presence_read_under_the_lock() -> None:
    match = _match()
    for seat, user in enumerate((match.player_0, match.player_1)):
        presence.connection_open(match_id=match.pk, user=user, channel=f"ch.{seat}")
    presence.connection_open(match_id=match.pk, user=None, channel="ch.watcher", address="::1")
    game = match_snapshot(match, viewer=match.player_0)["game"]
    user = match.player(game["turn_seat"])
    assert game["phase"] == "move"  # the opening roll is made for the players
    play = match_snapshot(match, viewer=user)["game"]["legal_plays"][0]["text"]
    with CaptureQueriesContext(connection) as sent:
        result = action_submit(
            match_id=match.pk, user=user, action=PlayerAction.PLAY, play=play, seq=1
        )
    assert result.applied
    # The lock (with the connections counted), the log row with the game and the match, and
    # nothing after the commit: the frames and the turn notice use the counts.
    statements = [_statement(query["sql"]) for query in sent.captured_queries]
    assert statements == ["BEGIN", "PREPARED", "INSERT", "COMMIT"]
    assert locked_presence(result.match) == (1, 1, 1)
    saved = Match.objects.get(pk=match.pk)
    assert saved.last_seq == result.match.last_seq
    assert saved.last_client_seq(game["turn_seat"]) == 1


@pytest.mark.django_db(transaction=True)
def test_a_board_closed_while_the_move_waits_for_the_lock_gets_the_turn_notice() -> None:
    """A lock statement that waits reads the connections as they were before the holder's
    changes: the mover's action must not take the closed board for an open one."""
    # given both players at the board, and one of them closing it, the match locked
    match = _match()
    seat = match_snapshot(match, viewer=None)["game"]["turn_seat"]
    mover, other = match.player(seat), match.player(1 - seat)
    board_opened(match.pk, mover)
    channel = board_opened(match.pk, other)
    play = match_snapshot(match, viewer=mover)["game"]["legal_plays"][0]["text"]
    closed = threading.Event()

    def close_the_board() -> None:
        try:
            with transaction.atomic():
                presence.connection_close(channel=channel)
                closed.set()
                time.sleep(0.3)  # the move waits for the lock meanwhile
        finally:
            connection.close()

    closing = threading.Thread(target=close_the_board)
    closing.start()
    closed.wait()

    # when the other moves meanwhile
    action_submit(match_id=match.pk, user=mover, action=PlayerAction.PLAY, play=play, seq=1)
    closing.join()

    # then the player who left is told it is their turn
    assert Notification.objects.filter(user=other, kind=NoticeKind.TURN).exists()
