"""Every frame the match and tournament sockets send, in every state that changes its shape,
is one the served AsyncAPI document describes; so is every frame a board sends."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from config.asgi import application
from config.asyncapi import document
from matches.consumers import ACTION_NAMES
from matches.creation import pass_and_play_create
from matches.models import Match
from tests.factories import UserFactory
from tests.integration.matches.helpers import TEST_SEED, api_for, quick_play
from tests.integration.matches.sockets import ORIGIN, open_socket
from tests.integration.served_asyncapi import drain, served_messages, undocumented, until
from tests.integration.tournaments.helpers import open_tournament, organizer, players
from tournaments.services import entry_register

pytestmark = [pytest.mark.django_db(transaction=True)]

Frame = dict[str, Any]


def _challenge(challenger: User, opponent: User, **body: Any) -> int:
    """A challenge not yet answered, its dice fixed: Alice opens with 5-4."""
    response = api_for(challenger).post(
        "/api/matches/", {"opponent": opponent.username, **body}, format="json"
    )
    assert response.status_code == 201, response.json()
    match_id: int = response.json()["id"]
    Match.objects.filter(pk=match_id).update(dice_seed=TEST_SEED)
    return match_id


def _accept(match_id: int, user: User) -> None:
    accepted = api_for(user).post(f"/api/matches/{match_id}/accept/", format="json")
    assert accepted.status_code == 200, accepted.json()


def _state(match_id: int, user: User) -> dict[str, Any]:
    state: dict[str, Any] = api_for(user).get(f"/api/matches/{match_id}/").json()
    return state


class Table:
    """The players' boards and the onlookers' sockets of one match, and every frame they
    were sent; players act over their own sockets, as the board does."""

    def __init__(self, match_id: int, users: dict[str, User]) -> None:
        self.match_id = match_id
        self.users = users
        self.sockets: dict[str, WebsocketCommunicator] = {}
        self.frames: list[Frame] = []
        self.sent: list[Frame] = []
        self.seqs = dict.fromkeys(users, 0)

    async def open(self, name: str, user: User | None, address: str = "127.0.0.1") -> None:
        self.sockets[name] = await open_socket(self.match_id, user, address=address)
        await self.settle()

    async def close(self, name: str) -> None:
        await self.sockets.pop(name).disconnect()
        await self.settle()

    async def settle(self) -> None:
        await asyncio.gather(*(drain(socket, self.frames) for socket in self.sockets.values()))

    async def send(
        self, name: str, frame: Frame, *, answer: str = "ack", bad: bool = False
    ) -> None:
        """``name`` sends ``frame`` (``bad``: one the socket is not meant to take) and is
        answered (an ack, an error, a chat line); then everyone hears what it changed."""
        if not bad:
            self.sent.append(frame)
        await self.sockets[name].send_json_to(frame)
        await until(self.sockets[name], answer, self.frames)
        await self.settle()

    async def act(self, name: str, kind: str, **fields: Any) -> None:
        self.seqs[name] += 1
        await self.send(name, {"type": kind, "seq": self.seqs[name], **fields})

    async def state(self, name: str) -> dict[str, Any]:
        return await sync_to_async(_state)(self.match_id, self.users[name])

    async def play(self, name: str) -> None:
        """Roll if need be, then make the quick play (a roll may leave nothing to play)."""
        if (await self.state(name))["game"]["phase"] == "roll":
            await self.act(name, "roll")
        game = (await self.state(name))["game"]
        if game["phase"] == "move" and game["turn"] == name:
            await self.act(name, "play", play=quick_play(game["legal_plays"]))

    async def to_roll(self, name: str) -> None:
        """Play on until ``name`` is to roll."""
        for _ in range(4):
            game = (await self.state(name))["game"]
            if game["turn"] == name and game["phase"] == "roll":
                return
            await self.play(game["turn"])
        raise AssertionError(f"{name} never came to roll")


@pytest.mark.asyncio
async def test_every_frame_of_a_match_played_to_its_end_is_documented() -> None:
    # given a 3-point challenge, its players' boards and two onlookers' open before it is
    # answered
    users = {name: await sync_to_async(UserFactory)(username=name) for name in ("alice", "bruno")}
    carl = await sync_to_async(UserFactory)(username="carl")
    match_id = await sync_to_async(_challenge)(users["alice"], users["bruno"], length=3)
    table = Table(match_id, users)
    for name, user in users.items():
        await table.open(name, user)
    await table.open("carl", carl)
    await table.open("anonymous", None)

    # when Bruno accepts, Alice checks her opening play and makes it (twice the same seq),
    # rolls out of turn, and checks a play that is not hers to make
    await sync_to_async(_accept)(match_id, users["bruno"])
    await table.settle()
    opening = (await table.state("alice"))["game"]
    assert opening["turn"] == "alice"
    play = quick_play(opening["legal_plays"])
    await table.send("alice", {"type": "play", "seq": 1, "play": play, "check": True})
    await table.act("alice", "play", play=play)
    await table.send("alice", {"type": "play", "seq": 1, "play": play})
    await table.send("alice", {"type": "roll", "seq": 2}, answer="error")
    await table.send(
        "bruno", {"type": "play", "seq": 1, "play": "8/3 6/3", "check": True}, answer="error"
    )

    # and people chat, a visitor tries to, bad frames arrive, a passer-by comes and goes
    await table.send("alice", {"type": "chat", "text": "good luck"}, answer="chat")
    await table.send("carl", {"type": "chat", "text": "go alice"}, answer="chat")
    await table.send("anonymous", {"type": "chat", "text": "hi"}, answer="error")
    await table.sockets["bruno"].send_to(text_data="not json")
    await until(table.sockets["bruno"], "error", table.frames)
    await table.send("bruno", {"type": "take", "seq": "first"}, answer="error", bad=True)
    await table.send("bruno", {"type": 5}, answer="error", bad=True)
    await table.open("passer-by", None, address="192.0.2.1")
    await table.close("passer-by")
    await until(table.sockets["carl"], "presence", table.frames)

    # and Bruno doubles, Alice takes; Alice offers a gammon, Bruno rejects it; Alice
    # redoubles and Bruno drops: game 1 is Alice's, game 2 (the Crawford game) opens
    await table.to_roll("bruno")
    await table.act("bruno", "double")
    await table.act("alice", "take")
    await table.play("bruno")
    await table.to_roll("alice")
    await table.act("alice", "resign", resign="gammon")
    await table.act("bruno", "reject_resign")
    await table.act("alice", "double")
    await table.act("bruno", "drop")

    # and Bruno leaves the board and comes back
    await table.close("bruno")
    await table.open("bruno", users["bruno"])

    # and in the Crawford game Bruno resigns, and Alice accepts: the match is hers
    await table.act("bruno", "resign", resign="single")
    await table.act("alice", "accept_resign")
    await table.settle()

    # then the frames are of every kind, in every shape asked for here
    frames = table.frames
    kinds = {frame["type"] for frame in frames}
    assert kinds == {"state", "ack", "error", "chat", "chat_history", "presence"}
    states = [frame["state"] for frame in frames if frame["type"] == "state"]
    assert {state["status"] for state in states} == {"invited", "playing", "finished"}
    phases = {state["game"]["phase"] for state in states if state["game"]}
    assert phases == {"roll", "move", "doubled", "resignation", "over"}
    assert {state["seat"] for state in states} == {0, 1, None}
    assert any(state["game"] and state["game"]["legal_plays"] for state in states)
    assert any(state["presence"]["grace_ends"][1] for state in states)
    assert any(state["crawford"] for state in states)
    finished = next(state for state in states if state["status"] == "finished")
    assert finished["rating_changes"]
    assert finished["dice_check"]["seed"] == TEST_SEED
    rows = {
        row["seq"]: row for frame in frames if "moves" in frame for row in frame["moves"]["rows"]
    }
    results = [row["result"] for _, row in sorted(rows.items()) if row["kind"] == "game_over"]
    assert results == [{"points": 2, "level": "single"}, {"points": 1, "level": "single"}]
    assert {line["message"]["room"] for line in frames if line["type"] == "chat"} == {
        "players",
        "spectators",
    }
    errors = [frame for frame in frames if frame["type"] == "error"]
    assert any("seq" in error and "status" in error for error in errors)
    assert any(error.get("seq", 0) is None for error in errors)
    assert any(frame.get("legal") for frame in frames if frame["type"] == "ack")

    # and the document describes every one of them, and every frame the boards sent
    sent = await sync_to_async(served_messages)("match", "receive")
    assert undocumented(frames, sent) == []
    taken = await sync_to_async(served_messages)("match", "send")
    by_type = {"chat": taken["chat"], **dict.fromkeys(ACTION_NAMES, taken["action"])}
    assert undocumented(table.sent, by_type) == []
    for socket in table.sockets.values():
        await socket.disconnect()


@pytest.mark.asyncio
async def test_every_frame_of_a_money_session_and_of_pass_and_play_is_documented() -> None:
    # given a money session with beavers and raccoons, Alice to open, Bruno's board open
    users = {name: await sync_to_async(UserFactory)(username=name) for name in ("alice", "bruno")}
    terms = {"money": True, "stake_cents": 100, "beavers": True, "raccoons": True}
    match_id = await sync_to_async(_challenge)(users["alice"], users["bruno"], rated=False, **terms)
    await sync_to_async(_accept)(match_id, users["bruno"])
    table = Table(match_id, users)
    for name, user in users.items():
        await table.open(name, user)

    # when Bruno doubles, Alice beavers, Bruno raccoons, then resigns and Alice accepts
    await table.play("alice")
    await table.act("bruno", "double")
    await table.act("alice", "beaver")
    await table.act("bruno", "raccoon")
    await table.act("bruno", "resign", resign="single")
    await table.act("alice", "accept_resign")

    # and someone plays a move alone at a pass-and-play board
    lone = await sync_to_async(UserFactory)(username="lone")
    alone = await sync_to_async(pass_and_play_create)(user=lone, length=1)
    solo = Table(alone.pk, {"lone": lone})
    await solo.open("lone", lone)
    await solo.play((await solo.state("lone"))["game"]["turn"])

    # then the cube's offers and the session's games are in the frames, all described
    frames = table.frames + solo.frames
    states = [frame["state"] for frame in frames if frame["type"] == "state"]
    assert {state["kind"] for state in states} == {"money", "match"}
    offers = {state["game"]["cube"]["offer"] for state in states if state["game"]}
    assert offers == {None, "double", "beaver"}
    assert any(state["game"]["number"] == 2 for state in states if state["kind"] == "money")
    assert any(state["pass_and_play"] for state in states)
    sent = await sync_to_async(served_messages)("match", "receive")
    assert undocumented(frames, sent) == []
    taken = await sync_to_async(served_messages)("match", "send")
    by_type = dict.fromkeys(ACTION_NAMES, taken["action"])
    assert undocumented(table.sent + solo.sent, by_type) == []
    for socket in [*table.sockets.values(), *solo.sockets.values()]:
        await socket.disconnect()


@pytest.mark.asyncio
async def test_every_frame_of_the_tournament_socket_is_documented() -> None:
    # given a tournament open for entries, its page open
    owner = await sync_to_async(organizer)()
    tournament = await sync_to_async(open_tournament)(owner)
    [entrant] = await sync_to_async(players)(1)
    socket = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament.pk}/", headers=[ORIGIN]
    )
    assert (await socket.connect())[0]

    # when a player enters, and the page sends something
    await sync_to_async(entry_register)(tournament_id=tournament.pk, user=entrant)
    await socket.send_json_to({"type": "hello"})
    frames: list[Frame] = []
    await drain(socket, frames)

    # then both frames are described
    assert sorted(frame["type"] for frame in frames) == ["changed", "error"]
    sent = await sync_to_async(served_messages)("tournament", "receive")
    assert undocumented(frames, sent) == []
    await socket.disconnect()


def test_the_asyncapi_document_is_served_and_names_every_channel(client: Client) -> None:
    served = client.get("/api/asyncapi.json").json()

    assert served == document()
    assert served["asyncapi"] == "3.0.0"
    assert set(served["channels"]) >= {"match", "tournament"}
