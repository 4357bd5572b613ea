"""A change is rendered only for the viewers the match has: each seat with a connection,
and a watcher's view when someone watches. A socket that finds no frame of its own in a
change (it opened as the change was made) reads the match itself."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from matches.events import match_group
from matches.models import Match
from matches.selectors import BROADCAST_WATCHER, broadcast
from tests.factories import UserFactory
from tests.integration.matches.helpers import board_opened, start_match
from tests.integration.matches.sockets import next_frame, open_socket


@pytest.mark.django_db
def test_a_change_is_rendered_for_the_seats_at_the_board_and_for_watchers_only_when_watched() -> (
    None
):
    # given a match whose two players have the board open
    alice, bruno, carol = (UserFactory(username=name) for name in ("alice", "bruno", "carol"))
    match_id = start_match(alice, bruno, length=3)
    board_opened(match_id, alice)
    board_opened(match_id, bruno)
    since = Match.objects.get(pk=match_id).last_seq

    # when nobody watches, then when Carol does
    unwatched = broadcast(match_id, since=since)
    board_opened(match_id, carol)
    watched = broadcast(match_id, since=since)

    # then only the watched change carries a watcher's view
    assert unwatched is not None
    assert watched is not None
    assert set(unwatched["snapshots"]) == {"0", "1"}
    assert set(watched["snapshots"]) == {"0", "1", BROADCAST_WATCHER}
    assert watched["snapshots"][BROADCAST_WATCHER]["seat"] is None


@pytest.mark.django_db
def test_a_seat_without_a_connection_costs_no_snapshot() -> None:
    alice, bruno = UserFactory(username="alice"), UserFactory(username="bruno")
    match_id = start_match(alice, bruno, length=3)
    board_opened(match_id, bruno)

    change = broadcast(match_id, since=Match.objects.get(pk=match_id).last_seq)

    assert change is not None
    assert set(change["snapshots"]) == {"1"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_watcher_whose_change_has_no_watcher_frame_reads_the_match_itself() -> None:
    # given Carol watching Alice and Bruno's board
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    carol = await sync_to_async(UserFactory)(username="carol")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    socket = await open_socket(match_id, carol)
    opened = (await next_frame(socket, "state"))["state"]
    await next_frame(socket, "chat_history")

    # when a change reaches the board made before she was counted (frames for the seats)
    seat_frame = json.dumps({"type": "state", "state": {"last_seq": opened["last_seq"] + 1}})
    await get_channel_layer().group_send(
        match_group(match_id),
        {
            "type": "match.changed",
            "seq": opened["last_seq"] + 1,
            "frames": {"0": seat_frame, "1": seat_frame},
        },
    )

    # then her board is sent the match as it is, from a watcher's side
    state = (await next_frame(socket, "state"))["state"]
    assert state["seat"] is None
    assert state["last_seq"] == opened["last_seq"]
    assert state["players"] == opened["players"]
    await socket.disconnect()
