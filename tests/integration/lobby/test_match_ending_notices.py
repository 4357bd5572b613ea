"""Every way a match ends is told to both players in a notice that says how: played out,
resigned, on time, forfeited, adjudicated, aborted at show-up, voided, cancelled."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from lobby.models import NoticeKind, Notification
from matches import adjudication, deadlines, presence
from matches.lifecycle import match_cancel, match_void
from matches.models import AbandonPolicy, Match, MatchStatus
from matches.state import lock_match
from tests.integration.disputes.helpers import finished_match, staff
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import Bot, board_opened, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def told(user: User) -> list[str]:
    return list(
        Notification.objects.filter(user=user, kind=NoticeKind.MATCH_OVER)
        .order_by("pk")
        .values_list("text", flat=True)
    )


def both() -> tuple[User, User]:
    return player("alice", "Alice Adams"), player("bruno", "Bruno Costa")


def left_the_board(match_id: int, user: User) -> None:
    """``user``, at the board since ``_under_way``, closes it: their grace starts."""
    presence.connection_close(channel=f"test-{match_id}-{user.pk}")


def _under_way(alice: User, bruno: User, **options: object) -> tuple[int, Bot]:
    """A match both came to and played a few actions of."""
    match_id = start_match(alice, bruno, **options)
    board_opened(match_id, alice)
    board_opened(match_id, bruno)
    bot = Bot({"alice": alice, "bruno": bruno})
    for _ in range(4):
        bot.step(match_id)
    return match_id, bot


def test_a_match_played_out_tells_the_winner_and_the_loser_the_score() -> None:
    alice, bruno = both()
    match_id, bot = _under_way(alice, bruno, length=1)

    bot.play_out(match_id)

    match = Match.objects.get(pk=match_id)
    winner, loser = (alice, bruno) if match.winner_seat == 0 else (bruno, alice)
    other = {alice: "Bruno Costa", bruno: "Alice Adams"}
    assert told(winner) == [f"You won your 1-point match against {other[winner]} 1–0."]
    assert told(loser) == [f"You lost your 1-point match against {other[loser]} 0–1."]
    notice = Notification.objects.get(user=winner, kind=NoticeKind.MATCH_OVER)
    assert notice.url == f"/matches/{match_id}/"
    assert notice.data == {"match_id": match_id, "how": "played", "won": True}


def test_a_resignation_tells_both_who_resigned() -> None:
    alice, bruno = both()

    finished_match(alice, bruno)

    assert told(alice) == [
        "You won your 1-point match against Bruno Costa 1–0: Bruno Costa resigned."
    ]
    assert told(bruno) == ["You lost your 1-point match against Alice Adams 0–1: you resigned."]


def test_a_clock_running_out_tells_both_whose_time_it_was() -> None:
    alice, bruno = both()
    match_id, _ = _under_way(alice, bruno, length=3)
    match = Match.objects.get(pk=match_id)
    assert match.deadline is not None

    deadlines.timeout_expire(match_id=match_id, now=match.deadline + timedelta(seconds=1))

    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    late, waiting = (alice, bruno) if match.winner_seat == 1 else (bruno, alice)
    [late_text] = told(late)
    [waiting_text] = told(waiting)
    assert late_text.startswith("You lost your 3-point match against")
    assert late_text.endswith(": your time ran out.")
    assert waiting_text.startswith("You won your 3-point match against")
    assert waiting_text.endswith("'s time ran out.")


def test_a_player_away_too_long_forfeits_and_both_are_told() -> None:
    alice, bruno = both()
    match_id, _ = _under_way(alice, bruno, length=3)
    Match.objects.filter(pk=match_id).update(abandon_policy=AbandonPolicy.FORFEIT)
    left_the_board(match_id, bruno)
    Match.objects.filter(pk=match_id).update(grace_ends_1=timezone.now() - timedelta(seconds=1))

    assert deadlines.grace_expire(match_id=match_id)

    assert told(alice) == [
        "You won your 3-point match against Bruno Costa 0–0: Bruno Costa forfeited, not at "
        "the board in time."
    ]
    assert told(bruno) == [
        "You lost your 3-point match against Alice Adams 0–0: you forfeited, not at the board "
        "in time."
    ]


@pytest.mark.slow
def test_an_adjudicated_match_tells_both_the_engine_decided_it() -> None:
    alice, bruno = both()
    match_id, _ = _under_way(alice, bruno, length=3)
    left_the_board(match_id, bruno)
    Match.objects.filter(pk=match_id).update(grace_ends_1=timezone.now() - timedelta(seconds=1))
    deadlines.grace_expire(match_id=match_id)  # suspended: the engine decides

    adjudication.adjudicate(match_id=match_id)

    match = Match.objects.get(pk=match_id)
    result = {True: "won", False: "lost"}
    assert told(alice) == [
        f"You {result[match.winner_seat == 0]} your 3-point match against Bruno Costa 0–0: "
        "adjudicated by the engine."
    ]
    assert told(bruno) == [
        f"You {result[match.winner_seat == 1]} your 3-point match against Alice Adams 0–0: "
        "adjudicated by the engine."
    ]


@pytest.mark.slow
def test_an_adjudicated_money_session_tells_both_it_is_over() -> None:
    alice, bruno = both()
    match_id, _ = _under_way(alice, bruno, money=True, stake_cents=50)
    left_the_board(match_id, bruno)
    Match.objects.filter(pk=match_id).update(grace_ends_1=timezone.now() - timedelta(seconds=1))
    deadlines.grace_expire(match_id=match_id)

    adjudication.adjudicate(match_id=match_id)

    assert told(alice) == [
        "Your money session at 0.50 FUN a point against Bruno Costa was adjudicated by the "
        "engine and is over, 0–0 in points. Your wallet shows what the engine's split paid."
    ]
    assert len(told(bruno)) == 1


def test_a_match_nobody_came_to_is_aborted_and_both_are_told_their_stake_is_back() -> None:
    alice, bruno = both()
    match_id = start_match(alice, bruno, length=5, stake_cents=1000)
    board_opened(match_id, alice)
    match = Match.objects.get(pk=match_id)
    assert match.show_up_by is not None

    deadlines.no_show_expire(match_id=match_id, now=match.show_up_by + timedelta(seconds=1))

    assert told(alice) == [
        "Your 5-point match for 10.00 FUN against Bruno Costa was aborted: your opponent did "
        "not come to the board in time. Your stake is back in your wallet."
    ]
    assert told(bruno) == [
        "Your 5-point match for 10.00 FUN against Alice Adams was aborted: you did not come "
        "to the board in time. Your stake is back in your wallet."
    ]


def test_a_voided_match_tells_both_after_the_result_they_were_told() -> None:
    alice, bruno = both()
    match = finished_match(alice, bruno, stake_cents=300)

    sam = staff()

    with transaction.atomic():
        locked = lock_match(match.pk)
        match_void(locked, staff=sam, key_prefix="test-void", reason="Wrong dice", cause={})

    assert told(alice)[-1] == (
        "Your 1-point match for 3.00 FUN against Bruno Costa was voided by staff. "
        "Your stake is back in your wallet."
    )
    assert told(bruno)[-1].startswith(
        "Your 1-point match for 3.00 FUN against Alice Adams was voided"
    )
    assert len(told(alice)) == len(told(bruno)) == 2


def test_a_cancelled_match_tells_both_why() -> None:
    alice, bruno = both()
    match_id = start_match(alice, bruno, length=3)

    with transaction.atomic():
        match_cancel(lock_match(match_id), cause={"correction": 1})

    assert told(alice) == [
        "Your 3-point match against Bruno Costa was cancelled: the tournament's draw was "
        "corrected before it began."
    ]
    assert len(told(bruno)) == 1


def test_the_computer_is_not_told() -> None:
    from matches.practice import practice_create

    alice = player("alice")
    match = practice_create(user=alice, length=1, strength="beginner")
    # When the computer wins the opening roll it has already played, and a match someone has
    # played in is not cancelled; this test is about who is told, so the match is taken
    # back to nobody having come whoever won the roll.
    Match.objects.filter(pk=match.pk).update(seen_0=False, seen_1=False)

    with transaction.atomic():
        match_cancel(lock_match(match.pk), cause={})

    assert len(told(alice)) == 1
    assert not Notification.objects.filter(user=match.player_1).exists()
