"""The browsers of ``bench_live_matches.py``: a few lines of asyncio that play like players.

Every match has both players' board sockets (``/ws/matches/<id>/``); every player has the
``/ws/me/`` socket each page opens beside the board (it says which page it is on, as the
pages do); spectators, logged in, watch a board each. Actions are offered at a rate
(Poisson arrivals), each to the next match in turn whose previous action has settled: the
player to act rolls, or sends the play ``quick_play`` prefers among the legal plays of the
latest state they received.

*Latency* is the time from sending an action to the opponent's socket receiving the state
frame whose ``last_seq`` shows it; a spectator's is the same to its socket. A frame that
never comes is *lost*; one later than ``ACTION_TIMEOUT`` is *late*.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

HOST = "127.0.0.1"
ACTION_TIMEOUT = 10.0  # seconds before an action whose update never came counts as late


def quick_play(plays: list[dict[str, Any]]) -> str:
    """As ``tests/integration/matches/helpers.quick_play``: no hits if possible, back
    checkers first, so games stay short."""

    def preference(play: dict[str, Any]) -> tuple[bool, int]:
        return ("*" not in play["text"], sum(start for start, _ in play["moves"]))

    return max(plays, key=preference)["text"]


@dataclass
class Stats:
    """One step of the ramp."""

    latencies: list[float] = field(default_factory=list)
    watched: list[float] = field(default_factory=list)  # spectators' latencies
    sent: int = 0
    errors: int = 0
    late: int = 0
    unseen: int = 0
    not_applied: int = 0
    busy: int = 0
    first_error: str = ""


@dataclass
class Sent:
    before_seq: int
    at: float
    recorded: bool


@dataclass
class Pending:
    actor: Seat
    sent: Sent
    opponent_saw: bool = False
    actor_saw: bool = False
    late: bool = False


@dataclass
class Seat:
    """A board socket: a player's or a spectator's."""

    live: LiveMatch
    username: str
    cookie: str
    port: int
    spectator: bool = False
    state: dict[str, Any] | None = None
    seq: int = 0
    socket: WebSocket | None = None
    reader: asyncio.Task[None] | None = None
    first_state: asyncio.Event = field(default_factory=asyncio.Event)
    open: bool = False
    watched_upto: int = 0  # the spectator has seen ``live.sent[:watched_upto]``

    @property
    def last_seq(self) -> int:
        return -1 if self.state is None else int(self.state["last_seq"])


@dataclass
class MeSocket:
    """A player's ``/ws/me/``: opened with the board's page, answered once, then quiet."""

    username: str
    cookie: str
    port: int
    match_id: int
    socket: WebSocket | None = None
    reader: asyncio.Task[None] | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    frames: int = 0
    open: bool = False


@dataclass
class LiveMatch:
    id: int
    seats: list[Seat] = field(default_factory=list)
    spectators: list[Seat] = field(default_factory=list)
    pending: Pending | None = None
    sent: list[Sent] = field(default_factory=list)
    over: bool = False

    def ready(self) -> bool:
        return not self.over and self.pending is None and all(s.open for s in self.seats)


class Load:
    """Every socket of the evening, and the actions sent on the players' ones."""

    def __init__(self, matches: list[LiveMatch]) -> None:
        self.matches = matches
        self.stats = Stats()
        self.recording = False
        self.last_frame = time.perf_counter()
        self.next_match = 0

    # -- frames in

    def received(self, seat: Seat, frame: dict[str, Any], now: float) -> None:
        self.last_frame = now
        kind = frame.get("type")
        live = seat.live
        if kind == "state":
            seat.state = frame["state"]
            seat.first_state.set()
            if seat.spectator:
                self._watched(seat, now)
                return
            if seat.state["status"] != "playing":
                live.over = True
            self._settle(live, now)
        elif kind == "error":
            self._fail(live, f"{seat.username}: {frame.get('message')}")
        elif kind == "ack" and not frame.get("applied", True):
            self.stats.not_applied += self.recording

    def closed(self, seat: Seat) -> None:
        seat.open = False
        if seat.live.pending is not None and not seat.spectator:
            self._fail(seat.live, f"{seat.username}: socket closed")

    def _watched(self, seat: Seat, now: float) -> None:
        sent = seat.live.sent
        while seat.watched_upto < len(sent) and sent[seat.watched_upto].before_seq < seat.last_seq:
            action = sent[seat.watched_upto]
            if action.recorded:
                self.stats.watched.append(now - action.at)
            seat.watched_upto += 1

    def _settle(self, live: LiveMatch, now: float) -> None:
        pending = live.pending
        if pending is None:
            return
        opponent = live.seats[1 - live.seats.index(pending.actor)]
        if not pending.opponent_saw and opponent.last_seq > pending.sent.before_seq:
            pending.opponent_saw = True
            if pending.sent.recorded:
                self.stats.latencies.append(now - pending.sent.at)
        pending.actor_saw = pending.actor_saw or pending.actor.last_seq > pending.sent.before_seq
        if pending.opponent_saw and pending.actor_saw:
            live.pending = None

    def _fail(self, live: LiveMatch, message: str) -> None:
        self.stats.errors += 1
        self.stats.first_error = self.stats.first_error or message
        live.pending = None

    # -- actions out

    def act_on_next_ready(self) -> None:
        for _ in range(len(self.matches)):
            live = self.matches[self.next_match]
            self.next_match = (self.next_match + 1) % len(self.matches)
            if live.ready() and self._act(live):
                return
        self.stats.busy += self.recording

    def _act(self, live: LiveMatch) -> bool:
        states = [seat.state for seat in live.seats]
        if states[0] is None or states[1] is None or states[0]["last_seq"] != states[1]["last_seq"]:
            return False  # a state frame is still on its way
        game = states[0]["game"]
        actor = next((seat for seat in live.seats if seat.username == game["turn"]), None)
        if actor is None or actor.state is None or actor.socket is None:
            return False
        phase = actor.state["game"]["phase"]
        if phase == "roll":
            body: dict[str, Any] = {"type": "roll"}
        elif phase == "move" and actor.state["game"]["legal_plays"]:
            body = {"type": "play", "play": quick_play(actor.state["game"]["legal_plays"])}
        elif phase == "doubled":
            body = {"type": "take"}
        else:
            return False
        actor.seq += 1
        body["seq"] = actor.seq
        sent = Sent(actor.last_seq, time.perf_counter(), self.recording)
        live.sent.append(sent)
        live.pending = Pending(actor, sent)
        actor.socket.send(json.dumps(body))
        self.stats.sent += self.recording
        return True

    def expire(self, now: float) -> None:
        """Count actions the opponent has not seen within ``ACTION_TIMEOUT``; their match
        waits on, since acting again before the update arrives would be out of turn."""
        for live in self.matches:
            pending = live.pending
            if pending and not pending.late and now - pending.sent.at > ACTION_TIMEOUT:
                pending.late = True
                self.stats.late += pending.sent.recorded

    def finish(self, now: float) -> None:
        """Actions still unseen at the end count with their age so far (a lower bound), and
        as unseen; so do spectators' frames that never came."""
        for live in self.matches:
            pending = live.pending
            if pending and not pending.opponent_saw and pending.sent.recorded:
                self.stats.latencies.append(now - pending.sent.at)
                self.stats.unseen += 1
            live.pending = None
            for seat in live.spectators:
                for action in live.sent[seat.watched_upto :]:
                    if action.recorded:
                        self.stats.watched.append(now - action.at)
                        self.stats.unseen += 1
                seat.watched_upto = len(live.sent)
        self.stats.late += sum(1 for w in self.stats.watched if w > ACTION_TIMEOUT)


class WebSocket:
    """The client side of RFC 6455 as far as the bench needs it: masked text frames out,
    text frames in (fragments joined), pings answered, close."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.close_code: int | None = None  # the server's, when it closed the socket

    @classmethod
    async def open(cls, port: int, path: str, headers: dict[str, str]) -> WebSocket:
        reader, writer = await asyncio.open_connection(HOST, port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {HOST}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        response = await reader.readuntil(b"\r\n\r\n")
        if not response.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(response.split(b"\r\n", 1)[0].decode(errors="replace"))
        return cls(reader, writer)

    def send(self, text: str) -> None:
        self._frame(0x1, text.encode())

    def close(self) -> None:
        if not self.writer.is_closing():
            self._frame(0x8, (1000).to_bytes(2, "big"))
            self.writer.close()

    async def messages(self) -> AsyncIterator[bytes]:
        """Each message as it completes; ends when the server closes."""
        parts: list[bytes] = []
        try:
            while True:
                head = await self.reader.readexactly(2)
                opcode, size = head[0] & 0x0F, head[1] & 0x7F
                if size == 126:
                    size = int.from_bytes(await self.reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await self.reader.readexactly(8), "big")
                payload = await self.reader.readexactly(size)
                if opcode == 0x8:
                    self.close_code = int.from_bytes(payload[:2], "big") if payload else 1005
                    return
                if opcode == 0x9:
                    self._frame(0xA, payload)
                elif opcode in (0x0, 0x1, 0x2):
                    parts.append(payload)
                    if head[0] & 0x80:
                        yield b"".join(parts)
                        parts = []
        except (asyncio.IncompleteReadError, ConnectionError):
            self.close_code = self.close_code or 1006
            return

    def _frame(self, opcode: int, payload: bytes) -> None:
        size = len(payload)
        if size < 126:
            head = bytes([0x80 | opcode, 0x80 | size])
        elif size < 1 << 16:
            head = bytes([0x80 | opcode, 0x80 | 126]) + size.to_bytes(2, "big")
        else:
            head = bytes([0x80 | opcode, 0x80 | 127]) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        repeated = (mask * (size // 4 + 1))[:size]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(
            size, "big"
        )
        self.writer.write(head + mask + masked)


def _headers(port: int, cookie: str) -> dict[str, str]:
    # The page's own origin: scheme, host and port (core.sockets checks all three).
    return {"Origin": f"http://{HOST}:{port}", "Cookie": cookie}


async def open_board(seat: Seat) -> bool:
    """Open ``seat``'s board socket (three tries); its frames are read once ``relay`` runs."""
    for _ in range(3):
        try:
            seat.socket = await asyncio.wait_for(
                WebSocket.open(
                    seat.port, f"/ws/matches/{seat.live.id}/", _headers(seat.port, seat.cookie)
                ),
                30,
            )
        except (TimeoutError, OSError):
            continue
        seat.open = True
        return True
    return False


async def watch_board(seat: Seat, load: Load) -> bool:
    """Relay an open board socket's frames to ``load``; true once its first state came (so
    connecting never outruns the server's work for the sockets before)."""
    if not seat.open:
        return False
    start_relay(seat, load)
    try:
        await asyncio.wait_for(seat.first_state.wait(), 60)
    except TimeoutError:
        return False
    return True


def start_relay(seat: Seat, load: Load) -> None:
    """Read ``seat``'s frames from now on (and answer the server's pings), once."""
    if seat.reader is None:
        seat.reader = asyncio.create_task(_relay(seat, load))


async def _relay(seat: Seat, load: Load) -> None:
    assert seat.socket is not None
    async for message in seat.socket.messages():
        load.received(seat, json.loads(message), time.perf_counter())
    load.closed(seat)


async def open_me(me: MeSocket) -> bool:
    """Open a player's ``/ws/me/``, say the board's page is open, as the page does, and
    wait for the answer."""
    for _ in range(3):
        try:
            me.socket = await asyncio.wait_for(
                WebSocket.open(me.port, "/ws/me/", _headers(me.port, me.cookie)), 30
            )
        except (TimeoutError, OSError):
            continue
        me.open = True
        me.reader = asyncio.create_task(_relay_me(me))
        me.socket.send(json.dumps({"type": "page", "url": f"/matches/{me.match_id}/"}))
        try:
            await asyncio.wait_for(me.answered.wait(), 60)
        except TimeoutError:
            return False
        return True
    return False


async def _relay_me(me: MeSocket) -> None:
    assert me.socket is not None
    async for message in me.socket.messages():
        me.frames += 1
        if json.loads(message).get("type") == "page":
            me.answered.set()
    me.open = False


async def until_quiet(load: Load, *, quiet: float, limit: float) -> None:
    """Wait until no frame has come for ``quiet`` seconds (at most ``limit``)."""
    deadline = time.perf_counter() + limit
    while time.perf_counter() < deadline and time.perf_counter() - load.last_frame < quiet:
        await asyncio.sleep(0.1)


async def drive(load: Load, *, rate: float, seconds: float, rng: random.Random) -> None:
    """Offer actions with Poisson arrivals at ``rate`` for ``seconds``."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    due = start
    next_sweep = start + 1
    while True:
        due += rng.expovariate(rate)
        if due >= start + seconds:
            return
        wait = due - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        load.act_on_next_ready()
        if loop.time() >= next_sweep:
            load.expire(time.perf_counter())
            next_sweep += 1


async def drain(load: Load) -> None:
    """Wait for the actions in flight (at most ``ACTION_TIMEOUT``), then count what never
    came."""
    until = time.perf_counter() + ACTION_TIMEOUT
    while any(live.pending for live in load.matches) and time.perf_counter() < until:
        await asyncio.sleep(0.05)
    await until_quiet(load, quiet=0.5, limit=ACTION_TIMEOUT)
    load.expire(time.perf_counter())
    load.finish(time.perf_counter())
