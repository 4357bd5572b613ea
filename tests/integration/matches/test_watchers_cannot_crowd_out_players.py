"""Anonymous watchers coming and going in a storm are held to a few boards per address,
leave no phantom spectators, and cost the players nothing they would notice: every
handshake of theirs succeeds, every action is answered and applied, the money at stake
stays in escrow, and they hear one coalesced presence frame now and then, not one per
watcher."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.models import User
from matches.models import Match, MatchConnection
from matches.presence import WATCHERS_PER_ADDRESS
from tests.factories import UserFactory
from tests.integration.matches.helpers import quick_play, start_match
from tests.integration.matches.sockets import (
    at_stake,
    money,
    next_frame,
    open_socket,
    staked_match,
    try_socket,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

STORM_WATCHERS = 50
STORM_ADDRESSES = 10  # five watchers an address: within WATCHERS_PER_ADDRESS
STORM_PAUSE = 0.05  # seconds a watcher stays on the board, between opening and closing it
LEAST_VISITS = 3  # each watcher comes at least this often, however quick the players are
ACTIONS = 6  # rolls and plays: three turns of the first game, which goes on
RELOAD_EVERY = 3  # actions between the players' reloads of the page
# In-process sockets wait on the same event loop as the storm: give each step time enough
# that a busy loop never cuts a handshake or a close short (the test measures no speed).
PATIENCE = 10
# A state push that has not come in this long is not coming (a few times what the storm
# ever made one take): the board is reloaded and the push counted as lost.
PUSH_PATIENCE = 5


async def test_an_address_holds_only_so_many_anonymous_boards_but_players_still_connect() -> None:
    alice = await sync_to_async(UserFactory.create)(username="alice")
    bruno = await sync_to_async(UserFactory.create)(username="bruno")
    match_id = await sync_to_async(start_match)(alice, bruno, length=1)
    watchers = [await open_socket(match_id, None) for _ in range(WATCHERS_PER_ADDRESS)]

    one_more = await try_socket(match_id, None)
    opened, _ = await one_more.connect()
    closed = await one_more.receive_output(timeout=PATIENCE)
    player = await open_socket(match_id, alice)
    from_elsewhere = await open_socket(match_id, None, address="192.0.2.7")

    assert opened  # and then closed, so that a browser can read why
    assert (closed["type"], closed["code"]) == ("websocket.close", 4429)
    assert (await next_frame(player, "state"))["state"]["seat"] == 0
    for socket in (*watchers, player, from_elsewhere):
        await socket.disconnect()


class Board:
    """A player's match page: its socket (opened again on a reload), the latest state it
    was pushed, and every frame it was sent, kept for counting."""

    def __init__(self, match_id: int, user: User) -> None:
        self.match_id = match_id
        self.user = user
        self.handshakes: list[bool] = []
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {}
        self.socket: WebsocketCommunicator | None = None

    async def open(self) -> None:
        self.socket = await try_socket(self.match_id, self.user)
        connected, _ = await self.socket.connect(timeout=PATIENCE)
        self.handshakes.append(connected)
        assert connected, f"{self.user.username} was refused"
        await self.next("state")

    async def reload(self) -> None:
        await self.close()
        await self.open()

    async def close(self) -> None:
        assert self.socket is not None
        await self.socket.disconnect(timeout=PATIENCE)

    async def send(self, action: dict[str, Any]) -> dict[str, Any]:
        """Send an action; its ack."""
        assert self.socket is not None
        await self.socket.send_json_to(action)
        return await self.next("ack")

    async def next(self, kind: str) -> dict[str, Any]:
        """The next frame of ``kind``; the frames before it are kept, and a state read."""
        assert self.socket is not None
        while True:
            frame = await self.socket.receive_json_from(timeout=PATIENCE)
            self.frames.append(frame)
            if frame["type"] == "state":
                self.state = frame["state"]
            if frame["type"] == kind:
                return frame

    async def state_since(self, last_seq: int) -> bool:
        """Wait for a pushed state as new as ``last_seq``; False if none came, and the page
        is reloaded, as a player whose board froze would."""
        try:
            async with asyncio.timeout(PUSH_PATIENCE):
                while self.state["last_seq"] < last_seq:
                    await self.next("state")
        except TimeoutError:
            await self.reload()
            return False
        return True

    def presence(self) -> list[dict[str, Any]]:
        return [frame["presence"] for frame in self.frames if frame["type"] == "presence"]


async def watch_and_leave(
    match_id: int, address: str, players_done: asyncio.Event, handshakes: Counter[str]
) -> None:
    """One anonymous watcher of the storm: opens the board, stays a moment, closes it, and
    again, until the players are done."""
    visits = 0
    while visits < LEAST_VISITS or not players_done.is_set():
        socket = await try_socket(match_id, None, address=address)
        connected, _ = await socket.connect(timeout=PATIENCE)
        handshakes["accepted" if connected else "refused"] += 1
        await asyncio.sleep(STORM_PAUSE)
        if connected:
            await socket.disconnect(timeout=PATIENCE)
        visits += 1


async def play(boards: dict[str, Board], match_id: int) -> tuple[list[Any], list[str]]:
    """The players connect and play ``ACTIONS`` rolls and plays, reloading their pages now
    and then. Returns each action's ack with the mover's last applied seq after it, and the
    state pushes a board never got (``player@seq``)."""
    for board in boards.values():
        await board.open()
    answered, missed = [], []
    for seq in range(1, ACTIONS + 1):
        if seq % RELOAD_EVERY == 0:
            for board in boards.values():
                await board.reload()
        mover = boards["alice"].state["game"]["turn"]
        game = boards[mover].state["game"]
        if game["phase"] == "roll":
            action: dict[str, Any] = {"type": "roll", "seq": seq}
        else:
            action = {"type": "play", "seq": seq, "play": quick_play(game["legal_plays"])}
        ack = await boards[mover].send(action)
        last_seq = await sync_to_async(last_seq_of)(match_id)
        for name, board in boards.items():
            if not await board.state_since(last_seq):
                missed.append(f"{name}@{seq}")
        answered.append((ack, boards[mover].state["your_last_seq"]))
    return answered, missed


def last_seq_of(match_id: int) -> int:
    return int(Match.objects.values_list("last_seq", flat=True).get(pk=match_id))


def spectators_of(match_id: int) -> int:
    return MatchConnection.objects.filter(match_id=match_id, seat__isnull=True).count()


async def last_count_heard(board: Board) -> bool:
    """Wait for the presence count that follows the storm (no spectators); False if it
    never came."""
    try:
        async with asyncio.timeout(PUSH_PATIENCE):
            while (await board.next("presence"))["presence"]["spectators"]:
                pass
    except TimeoutError:
        return False
    return True


async def test_players_play_through_a_reconnect_storm_of_watchers() -> None:
    # given a staked match, and fifty anonymous watchers coming and going from ten addresses
    match_id, alice, bruno = await staked_match(length=3)
    boards = {"alice": Board(match_id, alice), "bruno": Board(match_id, bruno)}
    players_done = asyncio.Event()
    watcher_handshakes: Counter[str] = Counter()
    storm = [
        asyncio.create_task(
            watch_and_leave(
                match_id, f"198.51.100.{n % STORM_ADDRESSES}", players_done, watcher_handshakes
            )
        )
        for n in range(STORM_WATCHERS)
    ]

    # when the players connect and play all through it
    try:
        answered, missed = await play(boards, match_id)
    finally:
        players_done.set()
        await asyncio.gather(*storm)
    if not await last_count_heard(boards["alice"]):
        missed.append("alice@presence")

    # then every handshake of theirs succeeded and every action was answered and applied
    handshakes = [shake for board in boards.values() for shake in board.handshakes]
    assert all(handshakes)
    assert len(handshakes) >= 2 + 2 * (ACTIONS // RELOAD_EVERY)
    assert [ack for ack, _ in answered] == [
        {"type": "ack", "seq": seq, "applied": True} for seq in range(1, ACTIONS + 1)
    ]
    assert [applied for _, applied in answered] == list(range(1, ACTIONS + 1))
    # and both boards show the match as it is, with the money still at stake
    final = {name: board.state for name, board in boards.items()}
    assert final["alice"]["game"]["position_id"] == final["bruno"]["game"]["position_id"]
    assert final["alice"]["last_seq"] == await sync_to_async(last_seq_of)(match_id)
    assert final["alice"]["status"] == "playing"
    assert await money(match_id, alice, bruno) == at_stake(alice, bruno)
    # and every watcher got in, none was left behind, and the players heard few counts
    assert watcher_handshakes["refused"] == 0
    assert watcher_handshakes["accepted"] >= STORM_WATCHERS * LEAST_VISITS
    assert await sync_to_async(spectators_of)(match_id) == 0
    presence = [count for board in boards.values() for count in board.presence()]
    assert len(presence) * 10 < watcher_handshakes["accepted"], "one count per ten watchers"
    for board in boards.values():
        await board.close()
    assert await sync_to_async(MatchConnection.objects.filter(match_id=match_id).count)() == 0
    # and no board missed a change: every push reached both players (the list-based
    # channels-redis layer lost some whenever a closing watcher's socket was the one
    # reading for the process; hence the pub/sub layer, see config/settings/base.py)
    assert missed == []
