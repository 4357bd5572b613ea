"""A whole match over WebSocket on channels-redis: both players see every change."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from tests.factories import UserFactory
from tests.integration.matches.helpers import quick_play, start_match
from tests.integration.matches.sockets import latest_state, next_frame, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_two_players_play_a_match_to_the_end_over_websocket() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    sockets = {
        "alice": await open_socket(match_id, alice),
        "bruno": await open_socket(match_id, bruno),
    }
    states = {
        name: (await next_frame(socket, "state"))["state"] for name, socket in sockets.items()
    }
    for socket in sockets.values():
        assert (await next_frame(socket, "chat_history"))["messages"] == []
    for seq in range(1, 600):
        state = states["alice"]
        if state["status"] != "playing":
            break
        player = state["game"]["turn"]
        mine = states[player]
        game = mine["game"]
        if game["phase"] == "roll":
            action: dict[str, Any] = {"type": "roll", "seq": seq}
        else:
            action = {"type": "play", "seq": seq, "play": quick_play(game["legal_plays"])}
        await sockets[player].send_json_to(action)
        ack = await next_frame(sockets[player], "ack")
        assert ack == {"type": "ack", "seq": seq, "applied": True}
        last = state["last_seq"] + 1
        states = {name: await latest_state(socket, last) for name, socket in sockets.items()}
        assert states["alice"]["game"]["position_id"] == states["bruno"]["game"]["position_id"]
    final = states["bruno"]
    assert final["status"] == "finished"
    assert final["winner"] in {"alice", "bruno"}
    assert final["dice_check"]["seed"]
    for socket in sockets.values():
        await socket.disconnect()


async def test_a_repeated_seq_is_acknowledged_without_applying_it_again() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    sockets = {
        "alice": await open_socket(match_id, alice),
        "bruno": await open_socket(match_id, bruno),
    }
    state = (await next_frame(sockets["alice"], "state"))["state"]
    mover = state["game"]["turn"]
    mine = (await next_frame(sockets[mover], "state"))["state"] if mover == "bruno" else state
    play = {"type": "play", "seq": 7, "play": quick_play(mine["game"]["legal_plays"])}

    await sockets[mover].send_json_to(play)
    first = await next_frame(sockets[mover], "ack")
    await sockets[mover].send_json_to(play)
    second = await next_frame(sockets[mover], "ack")

    assert first["applied"] is True
    assert second["applied"] is False
    for socket in sockets.values():
        await socket.disconnect()


async def test_errors_come_back_as_frames_with_the_rule() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    socket = await open_socket(match_id, alice)
    state = (await next_frame(socket, "state"))["state"]

    await socket.send_json_to({"type": "play", "seq": 1, "play": "24/23"})
    error = await next_frame(socket, "error")
    await socket.send_json_to({"type": "fly"})
    unknown = await next_frame(socket, "error")

    if state["game"]["turn"] == "alice":
        assert error["status"] == 400
    else:
        assert error == {"type": "error", "seq": 1, "message": "It is not your turn", "status": 409}
    assert unknown["message"] == "Unknown message type 'fly'"
    await socket.disconnect()


async def test_spectators_watch_without_controls_and_are_counted() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    player = await open_socket(match_id, alice)
    await next_frame(player, "state")

    spectator = await open_socket(match_id, None)
    seen = (await next_frame(spectator, "state"))["state"]
    counted = (await next_frame(player, "presence"))["presence"]
    await spectator.send_json_to({"type": "roll", "seq": 1})
    refused = await next_frame(spectator, "error")

    assert counted == {"connected": [True, False], "spectators": 1}
    assert seen["presence"]["spectators"] == 1
    assert seen["seat"] is None
    assert not any(value for key, value in seen.items() if key.startswith("may_"))
    assert seen["game"]["legal_plays"] == []
    assert refused["message"] == "Log in to play"
    await spectator.disconnect()
    await player.disconnect()


async def test_chat_reaches_the_other_player_but_not_spectators() -> None:
    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    a, b = await open_socket(match_id, alice), await open_socket(match_id, bruno)
    watcher = await open_socket(match_id, None)

    await a.send_json_to({"type": "chat", "text": "good luck"})
    heard = await next_frame(b, "chat")

    assert heard["message"]["text"] == "good luck"
    assert heard["message"]["author"] == "alice"
    frames = []
    while not await watcher.receive_nothing(timeout=0.3):
        frames.append(await watcher.receive_json_from())
    assert all(frame["type"] != "chat" for frame in frames)
    for socket in (a, b, watcher):
        await socket.disconnect()


async def test_each_connection_is_pushed_its_own_viewers_snapshot() -> None:
    from matches.models import Match
    from matches.selectors import match_snapshot

    alice = await sync_to_async(UserFactory)(username="alice")
    bruno = await sync_to_async(UserFactory)(username="bruno")
    wendy = await sync_to_async(UserFactory)(username="wendy")
    viewers = {"alice": alice, "bruno": bruno, "wendy": wendy, "anonymous": None}
    match_id = await sync_to_async(start_match)(alice, bruno, length=3)
    sockets = {who: await open_socket(match_id, user) for who, user in viewers.items()}
    first = {who: (await next_frame(socket, "state"))["state"] for who, socket in sockets.items()}
    mover = first["alice"]["game"]["turn"]
    play = quick_play(first[mover]["game"]["legal_plays"])
    await sockets[mover].send_json_to({"type": "play", "seq": 1, "play": play})
    assert (await next_frame(sockets[mover], "ack"))["applied"]
    roller = "bruno" if mover == "alice" else "alice"
    await sockets[roller].send_json_to({"type": "roll", "seq": 1})
    assert (await next_frame(sockets[roller], "ack"))["applied"]

    def own_snapshot(user: Any) -> dict[str, Any]:
        match = Match.objects.select_related("player_0__profile", "player_1__profile")
        return match_snapshot(match.get(pk=match_id), viewer=user)

    own = {who: await sync_to_async(own_snapshot)(user) for who, user in viewers.items()}
    pushed = {who: await latest_state(sockets[who], own[who]["last_seq"]) for who in viewers}
    for socket in sockets.values():
        await socket.disconnect()
    for who in viewers:
        for snapshot in (own[who], pushed[who]):
            # read at different moments: the running clock's time left moved on between them
            for moving in ("server_now", "move_left_ms", "reserve_left_ms"):
                snapshot["clock"].pop(moving)
        assert pushed[who] == own[who], who
    assert pushed[roller]["game"]["legal_plays"]
    assert pushed[roller]["your_last_seq"] == 1
    for who in (mover, "wendy", "anonymous"):
        assert pushed[who]["game"]["legal_plays"] == [], who
    assert pushed["wendy"]["your_last_seq"] is None
