"""Players of the fault suite: each plays its matches over the match socket, as a browser
does, reconnecting with a growing pause when the socket closes; pairs play one match after
another, and a Sit & Go is played through the API's matches.

A player moves within ``THINK`` of its turn coming up (a roll, the play that keeps the game
short, a take), so a match lost on time can only be the platform's fault. Every action
carries the player's ``seq``; one not seen applied is sent again with the same ``seq``,
and every acknowledgement the server sends is kept (``Ledger.acknowledged``) to be checked
against the match log afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

from tests.faults.world import Account, CallRefused, World

THINK = 0.3  # seconds before a player acts
RESEND_AFTER = 5.0  # seconds without seeing its action applied before sending it again
LONGEST_PAUSE = 5.0  # between reconnections
MATCH_LENGTH = 3
CLOCK = {"preset": "blitz"}  # 8 s a move free, 30 s a point


@dataclass
class Ledger:
    """What the players were told and saw."""

    acknowledged: list[tuple[int, int, int]] = field(default_factory=list)  # match, seat, seq
    last_applied_at: float = 0.0
    finished: list[int] = field(default_factory=list)
    connected: dict[tuple[int, int], bool] = field(default_factory=dict)  # match, seat
    errors: list[str] = field(default_factory=list)


@dataclass
class Player:
    account: Account
    world: World
    ledger: Ledger
    seq: dict[int, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.account.username

    async def play(self, match_id: int, stop: asyncio.Event) -> None:
        """Play ``match_id`` until it is over (or ``stop``), through every reconnection."""
        pause = 0.5
        while not stop.is_set():
            try:
                if await self._session(match_id, stop):
                    return
                pause = 0.5
            except (OSError, TimeoutError, websockets.WebSocketException):
                pass
            finally:
                for key in [key for key in self.ledger.connected if key[0] == match_id]:
                    self.ledger.connected[key] = False
            await asyncio.sleep(pause + random.random() * 0.3)
            pause = min(pause * 2, LONGEST_PAUSE)

    async def _session(self, match_id: int, stop: asyncio.Event) -> bool:
        """One connection; True when the match is over."""
        url = f"ws://127.0.0.1:{self.world.web.port}/ws/matches/{match_id}/"  # type: ignore[union-attr]
        async with websockets.connect(
            url,
            origin=websockets.Origin(self.world.base),
            additional_headers={"Cookie": self.account.cookie},
            open_timeout=10,
            close_timeout=2,
            ping_interval=None,
        ) as socket:
            seat: int | None = None
            sent: tuple[int, float, int] | None = None  # seq, when, last_seq seen then
            state: dict[str, Any] | None = None
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(socket.recv(), timeout=1.0)
                except TimeoutError:
                    text = None
                if text is not None:
                    frame = json.loads(text)
                    kind = frame.get("type")
                    if kind == "state":
                        state = frame["state"]
                        seat = _seat_of(state, self.name)
                        if seat is not None:
                            self.ledger.connected[(match_id, seat)] = True
                        if state["status"] != "playing":
                            self.ledger.finished.append(match_id)
                            return True
                    elif kind == "ack" and frame.get("applied") and seat is not None:
                        self.ledger.acknowledged.append((match_id, seat, int(frame["seq"])))
                        self.ledger.last_applied_at = time.monotonic()
                    elif kind == "error" and frame.get("status") not in (409, 503, None):
                        self.ledger.errors.append(f"{self.name} in {match_id}: {frame}")
                if state is None or seat is None:
                    continue
                if sent is not None and state["last_seq"] > sent[2]:
                    sent = None  # it was applied: the state moved on
                body = _action(state, self.name)
                if body is None:
                    continue
                if sent is None:
                    await asyncio.sleep(THINK)
                    self.seq[match_id] = self.seq.get(match_id, 0) + 1
                    sent = (self.seq[match_id], time.monotonic(), state["last_seq"])
                elif time.monotonic() - sent[1] < RESEND_AFTER:
                    continue
                else:
                    sent = (sent[0], time.monotonic(), sent[2])
                await socket.send(json.dumps({**body, "seq": sent[0]}))
        return False


def _seat_of(state: dict[str, Any], username: str) -> int | None:
    players = state.get("players") or []
    return players.index(username) if username in players else None


def _action(state: dict[str, Any], username: str) -> dict[str, Any] | None:
    game = state.get("game") or {}
    if game.get("turn") != username:
        return None
    phase = game.get("phase")
    if phase == "roll":
        return {"type": "roll"}
    if phase == "move" and game.get("legal_plays"):
        return {"type": "play", "play": _quick_play(game["legal_plays"])}
    if phase == "doubled":
        return {"type": "take"}
    if phase == "resignation":
        return {"type": "reject_resign"}
    return None


def _quick_play(plays: list[dict[str, Any]]) -> str:
    """No hits if possible, back checkers first: games stay short."""

    def preference(play: dict[str, Any]) -> tuple[bool, int]:
        return ("*" not in play["text"], sum(start for start, _ in play["moves"]))

    return str(max(plays, key=preference)["text"])


async def pair_plays(first: Player, second: Player, stop: asyncio.Event) -> None:
    """Two players play one staked match after another until ``stop``."""
    world = first.world
    while not stop.is_set():
        try:
            created = await world.call(
                first.account,
                "POST",
                "/api/matches/",
                {
                    "opponent": second.name,
                    "length": MATCH_LENGTH,
                    "stake_cents": 100,
                    "currency": "FUN",
                    "clock": CLOCK,
                },
            )
            await world.call(second.account, "POST", f"/api/matches/{created['id']}/accept/")
        except CallRefused as refusal:
            first.ledger.errors.append(str(refusal))
            await asyncio.sleep(2)
            continue
        await asyncio.gather(first.play(created["id"], stop), second.play(created["id"], stop))


async def sit_and_go(organizer: Account, entrants: list[Player], stop: asyncio.Event) -> int:
    """A four-seat Sit & Go for play money, played to its end; its id."""
    world = entrants[0].world
    made = await world.call(
        organizer,
        "POST",
        "/api/tournaments/",
        {
            "name": "Fault Night",
            "format": "sit_and_go",
            "seats": len(entrants),
            "buy_in_cents": 200,
            "fee_cents": 20,
            "currency": "FUN",
            "round_lengths": [MATCH_LENGTH],
            "clock": CLOCK,
        },
    )
    tournament_id = int(made["id"])
    await world.call(organizer, "POST", f"/api/tournaments/{tournament_id}/open/")
    for player in entrants:
        await world.call(player.account, "POST", f"/api/tournaments/{tournament_id}/register/")
    await asyncio.gather(*(_tournament_player(player, tournament_id, stop) for player in entrants))
    return tournament_id


async def _tournament_player(player: Player, tournament_id: int, stop: asyncio.Event) -> None:
    played: set[int] = set()
    while not stop.is_set():
        tournament = await player.world.call(
            player.account, "GET", f"/api/tournaments/{tournament_id}/"
        )
        if tournament["state"] in ("finished", "cancelled"):
            return
        mine = await player.world.call(player.account, "GET", "/api/matches/?status=playing")
        waiting = [
            row["id"]
            for row in mine
            if row.get("tournament") == tournament_id and row["id"] not in played
        ]
        for match_id in waiting:
            played.add(match_id)
            await player.play(match_id, stop)
        if not waiting:
            await asyncio.sleep(1.0)


async def cancelled(tasks: list[asyncio.Task[Any]]) -> None:
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
