""" "Your turn" reaches a player whose board is not open: one notice per match, kept fresh."""

from __future__ import annotations

import pytest

from accounts.models import User
from lobby.models import NoticeKind, Notification
from lobby.notifications import notices_read
from tests.integration.lobby.helpers import player
from tests.integration.matches.helpers import Bot, board_opened, start_match

pytestmark = pytest.mark.django_db(transaction=True)


def _turn_notices(user: User) -> list[Notification]:
    return list(Notification.objects.filter(user=user, kind=NoticeKind.TURN))


def _play_until_each_has_waited(bot: Bot, match_id: int, turns: int) -> None:
    """Act until the turn has passed from one player to the other ``turns`` times."""
    passes, last = 0, None
    while passes < turns:
        state = bot.step(match_id)
        to_act = state["game"]["turn"]
        if to_act != last:
            passes, last = passes + 1, to_act


def test_a_player_away_from_the_board_has_one_turn_notice_per_match_however_many_turns() -> None:
    # given a 3-point match neither player has open
    alice, bruno = player("alice", "Alice Adams"), player("bruno", "Bruno Costa")
    match_id = start_match(alice, bruno, length=3)
    bot = Bot({"alice": alice, "bruno": bruno})

    # when the turn passes back and forth several times
    _play_until_each_has_waited(bot, match_id, turns=6)

    # then each has a single "your turn" for this match, unread, pointing to the board
    for user, other in ((alice, "Bruno Costa"), (bruno, "Alice Adams")):
        [notice] = _turn_notices(user)
        assert notice.read_at is None
        assert notice.url == f"/matches/{match_id}/"
        assert notice.text == f"Your turn against {other}: 0–0 in your 3-point match."


def test_a_read_turn_notice_comes_back_unread_on_the_next_turn() -> None:
    alice, bruno = player("alice"), player("bruno")
    match_id = start_match(alice, bruno, length=3)
    bot = Bot({"alice": alice, "bruno": bruno})
    _play_until_each_has_waited(bot, match_id, turns=2)
    [before] = _turn_notices(alice) or _turn_notices(bruno)
    notices_read(user_id=before.user_id, url=f"/matches/{match_id}/")

    _play_until_each_has_waited(bot, match_id, turns=3)

    [after] = Notification.objects.filter(pk=before.pk)
    assert after.read_at is None
    assert after.created_at > before.created_at


def test_a_player_with_the_board_open_is_not_told_it_is_their_turn() -> None:
    alice, bruno = player("alice"), player("bruno")
    match_id = start_match(alice, bruno, length=3)
    board_opened(match_id, bruno)

    _play_until_each_has_waited(Bot({"alice": alice, "bruno": bruno}), match_id, turns=6)

    assert _turn_notices(bruno) == []
    assert len(_turn_notices(alice)) == 1


def test_the_turn_notices_of_a_finished_match_are_read() -> None:
    alice, bruno = player("alice"), player("bruno")
    match_id = start_match(alice, bruno, length=1)
    bot = Bot({"alice": alice, "bruno": bruno})
    _play_until_each_has_waited(bot, match_id, turns=3)
    assert Notification.objects.filter(kind=NoticeKind.TURN, read_at__isnull=True).exists()

    bot.play_out(match_id)

    assert not Notification.objects.filter(kind=NoticeKind.TURN, read_at__isnull=True).exists()
