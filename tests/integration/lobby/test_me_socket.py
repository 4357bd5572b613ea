"""/ws/me/: logged-in players only; every tab hears new notices and the unread count; a tab
that shows a notice's page reads it, and is shown the matches still waiting for the player."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from accounts.models import User
from lobby.models import Notification
from lobby.notifications import notify
from tests.integration.lobby.helpers import me_socket, next_frame, player, socket_to
from tests.integration.matches.helpers import board_opened, start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _turn(user: User, match_id: int) -> Notification | None:
    return notify(
        user_id=user.pk,
        kind="turn",
        key=f"turn:{match_id}",
        text="Your turn against Bruno.",
        url=f"/matches/{match_id}/",
        again=True,
    )


async def test_an_anonymous_visitor_is_turned_away() -> None:
    socket = await socket_to("/ws/me/", None)

    opened, _ = await socket.connect()
    closed = await socket.receive_output(timeout=5)

    assert opened  # and then closed, so that a browser can read why
    assert (closed["type"], closed["code"]) == ("websocket.close", 4401)


async def test_every_tab_hears_a_notice_and_a_tab_showing_its_page_reads_it() -> None:
    # given Alice with two tabs
    alice = await sync_to_async(player)("alice")
    lobby_tab, board_tab = await me_socket(alice), await me_socket(alice)

    # when she is told it is her turn
    await sync_to_async(_turn)(alice, 12)

    # then both tabs hear it
    for tab in (lobby_tab, board_tab):
        frame = await next_frame(tab, "notice")
        assert (frame["notice"]["text"], frame["unread"]) == ("Your turn against Bruno.", 1)

    # when one tab shows the board it points to
    await board_tab.send_json_to({"type": "page", "url": "/matches/12/"})

    # then it is read, and every tab hears the count
    assert await next_frame(board_tab, "page") == {"type": "page", "unread": 0, "waiting": []}
    for tab in (lobby_tab, board_tab):
        assert await next_frame(tab, "unread") == {"type": "unread", "unread": 0}
    assert await sync_to_async(Notification.objects.filter(read_at__isnull=True).count)() == 0
    await lobby_tab.disconnect()
    await board_tab.disconnect()


def _waiting_matches(alice: User) -> int:
    """Three challenges of Alice's accepted: one still waits for her, she came to one
    already, and one's show-up time passed; and a turn notice. Returns the waiting one."""
    waiting, came, late = (start_match(alice, player(name), length=3) for name in "bcd")
    board_opened(came, alice)
    notice = Notification.objects.get(user=alice, data__match_id=late)
    notice.data["show_up_by"] = (timezone.now() - timedelta(minutes=1)).isoformat()
    notice.save()
    _turn(alice, 12)
    return waiting


async def test_a_page_opening_is_shown_the_matches_still_waiting_for_the_player() -> None:
    # given a match ready and still waiting for Alice, one she came to, one she was late
    # for, and a turn
    alice = await sync_to_async(player)("alice")
    waiting = await sync_to_async(_waiting_matches)(alice)
    tab = await me_socket(alice)

    # when a page opens
    await tab.send_json_to({"type": "page", "url": "/tournaments/"})

    # then it is shown the match that still waits, and the count
    frame = await next_frame(tab, "page")
    assert frame["unread"] == 4
    assert [notice["data"]["match_id"] for notice in frame["waiting"]] == [waiting]
    await tab.disconnect()


async def test_other_players_notices_are_neither_heard_nor_read() -> None:
    alice, bruno = await sync_to_async(player)("alice"), await sync_to_async(player)("bruno")
    notice = await sync_to_async(_turn)(bruno, 7)
    assert notice is not None
    tab = await me_socket(alice)

    await tab.send_json_to({"type": "read", "ids": [notice.pk]})

    assert await next_frame(tab, "unread") == {"type": "unread", "unread": 0}
    assert await tab.receive_nothing(timeout=0.3)
    refreshed = await sync_to_async(Notification.objects.get)(pk=notice.pk)
    assert refreshed.read_at is None
    await tab.disconnect()


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ({"type": "roll"}, 'Send {"type": "page", "url": ...} or {"type": "read", "ids": [...]}'),
        ({"type": "page"}, '"url" must be text'),
        ({"type": "read"}, '"ids" must be a list of at most 100 notice ids'),
        ({"type": "read", "ids": "all"}, '"ids" must be a list of at most 100 notice ids'),
        ({"type": "read", "ids": [1] * 101}, '"ids" must be a list of at most 100 notice ids'),
        ({"type": "read", "ids": [True]}, '"ids" must be a whole number'),
        ({"type": "page", "url": "/" * 201}, '"url" is at most 200 characters'),
    ],
)
async def test_a_frame_it_cannot_read_is_answered_with_an_error(
    frame: dict[str, object], message: str
) -> None:
    tab = await me_socket(await sync_to_async(player)("alice"))

    await tab.send_json_to(frame)

    answer = await next_frame(tab, "error")
    assert answer["message"].startswith(message)
    await tab.disconnect()
