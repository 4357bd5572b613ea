"""WebSocket /ws/matches/<id>/: snapshots and events out, actions and chat in.

Access is checked in ``connect``, which also records the connection (``matches.presence``)
and learns the viewer's seat once; after that the consumer only relays: actions go to
``matches.play.action_submit``, changes come back as group events carrying every viewer's
snapshot and the new move-list rows, and this connection forwards its own viewer's.

Frames out: ``state`` (``{"state": snapshot, "moves": {"since", "rows"}}``), ``ack``
(``{"seq", "applied"}``), ``error`` (``{"message", "seq"?, "status"?}``), ``chat``,
``chat_history`` and ``presence``. Frames in: ``{"type": <PlayerAction>, "seq", "play"?,
"position_id"?, "resign"?, "check"?}`` (a play with ``"check": true`` is only checked)
and ``{"type": "chat", "text"}``. Every action carries the
client's ``seq``; a repeated one is answered, not applied twice. A frame that is not one
of these is answered with an error frame and the socket stays open (``core.sockets``).

While open, the socket is kept alive in the database by this process's ``Heartbeat``.

A chat line reaches every socket of the board; each drops the lines of authors its viewer
does not hear (``accounts.standing.unheard_by``: muted, blocked, or blocking them), a set
the socket keeps. A mute or block made or lifted while the board is open is told to both
players' sockets at once (``core.sockets.player_news``): each reads the set again and
sends its ``chat_history`` again, so the lines its viewer no longer hears leave the board
before anyone writes another. Should that news be lost (Redis away), the set is read again
at the first line after ``UNHEARD_FOR`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from typing import Any

from accounts.standing import UNHEARD_CHANGED, unheard_by
from backgammon.game import ResultKind
from core import live, rows
from core.errors import DomainError
from core.metrics import action_timed
from core.sockets import TOO_MANY, FrameError, JsonSocket, text, whole_number
from matches import chat, events, presence
from matches.actions import RESIGN_LEVELS, PlayerAction
from matches.events import match_group
from matches.play import action_submit, play_check
from matches.selectors import BROADCAST_WATCHER, match_snapshot, visible_matches

logger = logging.getLogger(__name__)

NOT_FOUND = 4404
ACTION_NAMES = frozenset(action.value for action in PlayerAction)
MAX_PLAY_CHARS = 120
UNHEARD_FOR = 30.0  # seconds a socket trusts its set of unheard authors without news


class Heartbeat:
    """This server process's open match sockets, said to be alive together: every
    ``presence.HEARTBEAT`` one statement marks all their connection rows seen, so rows
    outlive their sockets only when their server died (``presence.sweep_stale``).

    The same statement reads each socket's match's newest state, and a socket that is
    behind (a frame was lost) is sent the match again. Frames are lost when Redis is away
    (``core.live.on_frames_lost``): then the beat comes every ``CATCH_UP`` seconds until
    ``CATCH_UP_FOR`` seconds pass without a loss, so play goes on over the sockets already
    open, each board at most a second or two behind, until Redis is back.
    """

    CATCH_UP = 1.0
    CATCH_UP_FOR = 30.0

    def __init__(self) -> None:
        self.sockets: dict[str, MatchConsumer] = {}  # by channel name
        self.task: asyncio.Task[None] | None = None
        self.lost_at: float | None = None  # ``time.monotonic()`` of the last frames lost
        self.woken = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        live.on_frames_lost(self.frames_lost)

    def join(self, socket: MatchConsumer) -> None:
        self.sockets[socket.channel_name] = socket
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._beat())

    def leave(self, channel: str) -> None:
        self.sockets.pop(channel, None)

    def frames_lost(self) -> None:
        """Frames were lost (any thread): catch up from the database for a while."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._lost)

    def _lost(self) -> None:
        self.lost_at = time.monotonic()
        self.woken.set()

    def _pause(self) -> float:
        catching_up = self.lost_at is not None and (
            time.monotonic() - self.lost_at < self.CATCH_UP_FOR
        )
        return self.CATCH_UP if catching_up else presence.HEARTBEAT.total_seconds()

    async def _beat(self) -> None:
        while self.sockets:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), self._pause())
            self.woken.clear()
            if not self.sockets:
                return
            try:
                newest = await live.run(presence.connections_seen, channels=list(self.sockets))
                for channel, last_seq in newest.items():
                    socket = self.sockets.get(channel)
                    if socket is not None and socket.shown_seq < last_seq:
                        await socket.catch_up()
            except Exception:  # the database is away: the next beat tries again
                logger.exception("the match sockets' heartbeat failed")


_heartbeats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat] = (
    weakref.WeakKeyDictionary()
)


def heartbeat() -> Heartbeat:
    """The heartbeat of the running event loop (one per server process), made at its first
    socket: one listener of lost frames, however many sockets come and go."""
    loop = asyncio.get_running_loop()
    beat = _heartbeats.get(loop)
    if beat is None:
        beat = _heartbeats[loop] = Heartbeat()
    return beat


class MatchConsumer(JsonSocket):
    match_id: int
    group: str
    seat: int | None = None
    shown_seq = 0  # the newest match state this socket was sent (its ``last_seq``)
    unheard: frozenset[int] = frozenset()
    unheard_read_at: float | None = None  # ``time.monotonic()`` of the last read

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        user = self.scope.get("user")
        self.viewer = user if user is not None and user.is_authenticated else None
        if not await self._can_watch():
            await self.refuse(NOT_FOUND)
            return
        try:
            self.seat = await live.run(
                presence.connection_open,
                match_id=self.match_id,
                user=self.viewer,
                channel=self.channel_name,
                address=_address(self.scope),
            )
        except DomainError:
            await self.refuse(TOO_MANY)
            return
        self.holds = True  # the connection row: ``disconnect`` closes it whatever happens
        self.group = match_group(self.match_id)
        await self.join_group(self.group)
        await self.accept()
        heartbeat().join(self)
        if self.seat is None:
            await events.presence_soon(self.match_id)
        await self._send_state()
        await self.send_json(
            {"type": "chat_history", "messages": await live.run(self._chat_history)}
        )

    async def disconnect(self, code: int) -> None:
        if not hasattr(self, "group"):
            return
        heartbeat().leave(self.channel_name)
        watched = await live.run(presence.connection_close, channel=self.channel_name)
        if watched is not None:
            await events.presence_soon(watched)

    def checks_own_session(self, content: Any) -> bool:
        # An action checks the session within its own database work (``_act``).
        return isinstance(content, dict) and content.get("type") in ACTION_NAMES

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            raise FrameError("Send a JSON object")
        kind = content.get("type")
        if kind == "chat":
            await self._chat(content)
        elif isinstance(kind, str) and kind in ACTION_NAMES:
            await self._act(PlayerAction(kind), content)
        else:
            shown = kind if isinstance(kind, str | int | float | None) else type(kind).__name__
            raise FrameError(f"Unknown message type {str(shown)[:40]!r}")

    async def match_changed(self, event: dict[str, Any]) -> None:
        # Two changes committed close together may reach the group in the other order:
        # the sender of the first (this process's event loop, after its database thread)
        # can be overtaken by the second's (a worker answering for the computer). A frame
        # older than the one the socket already has is dropped; the newer one carries the
        # whole state, and its move rows tell the board to fetch those it skipped.
        if event["seq"] < self.shown_seq:
            return
        key = str(self.seat) if self.seat is not None else BROADCAST_WATCHER
        frame = event["frames"].get(key)
        if frame is None:  # counted as not yet here when the change was made
            await self._send_state()
            return
        self.shown_seq = event["seq"]
        await self.send(text_data=frame)

    async def match_presence(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "presence", "presence": event["presence"]})

    async def match_chat(self, event: dict[str, Any]) -> None:
        message = event["message"]
        if (message["room"] == "players") != (self.seat is not None):
            return
        if event.get("author_id") in await self._unheard():
            return
        await self.send_json({"type": "chat", "message": message})

    async def player_changed(self, event: dict[str, Any]) -> None:
        if event.get("what") != UNHEARD_CHANGED or self.viewer is None:
            return
        await self._read_unheard()
        await self.send_json(
            {"type": "chat_history", "messages": await live.run(self._chat_history)}
        )

    async def _unheard(self) -> frozenset[int]:
        """Whose lines this viewer does not see (read again when told of a change, or
        when the set is older than ``UNHEARD_FOR``)."""
        if self.viewer is None:
            return frozenset()
        read_at = self.unheard_read_at
        if read_at is None or time.monotonic() - read_at >= UNHEARD_FOR:
            await self._read_unheard()
        return self.unheard

    async def _read_unheard(self) -> None:
        assert self.viewer is not None
        self.unheard_read_at = time.monotonic()
        self.unheard = frozenset(await live.run(unheard_by, user_id=self.viewer.pk))

    async def _act(self, action: PlayerAction, content: dict[str, Any]) -> None:
        raw_seq = content.get("seq")
        if self.viewer is None:
            await self.send_error("Log in to play", seq=_echo(raw_seq))
            return
        try:
            seq = whole_number(raw_seq, "seq")
            play = text(
                content.get("position_id") or content.get("play"),
                "play",
                limit=MAX_PLAY_CHARS,
                required=False,
            )
            resign = _resignation(content.get("resign"))
        except FrameError as refusal:
            await self.require_session()
            await self.send_error(str(refusal), seq=_echo(raw_seq), status=400)
            return
        if action is PlayerAction.PLAY and content.get("check") is True and play:
            await self._check(seq, play)
            return
        try:
            with action_timed(action.value):
                result = await live.run(
                    self.session_checked(action_submit),
                    match_id=self.match_id,
                    user=self.viewer,
                    action=action,
                    seq=seq,
                    play=play,
                    resign=resign,
                )
        except DomainError as error:
            await self.send_error(str(error), seq=seq, status=error.status_code)
            return
        await self.send_json({"type": "ack", "seq": seq, "applied": result.applied})
        if not result.applied:
            await self._send_state()

    async def _check(self, seq: int, play: str) -> None:
        """A play sent only to be checked: an error frame with the rule, or an ack that it
        is legal; nothing is applied either way."""
        assert self.viewer is not None
        try:
            await live.run(
                self.session_checked(play_check),
                match_id=self.match_id,
                user=self.viewer,
                play=play,
            )
        except DomainError as error:
            await self.send_error(str(error), seq=seq, status=error.status_code)
            return
        await self.send_json({"type": "ack", "seq": seq, "applied": False, "legal": True})

    async def _chat(self, content: dict[str, Any]) -> None:
        if self.viewer is None:
            raise FrameError("Log in to chat")
        line = text(content.get("text", ""), "text", limit=chat.MAX_LENGTH * 2)
        try:
            await live.run(self._chat_send, line=line or "")
        except DomainError as error:
            await self.send_error(str(error), status=error.status_code)

    async def catch_up(self) -> None:
        """Send the match as it is now: a frame telling of a change was lost."""
        with contextlib.suppress(Exception):  # gone meanwhile: the next beat forgets it
            await self._send_state()

    async def _send_state(self) -> None:
        state = await live.run(self._snapshot)
        self.shown_seq = max(self.shown_seq, state["last_seq"])
        await self.send_json({"type": "state", "state": state})

    # ---- synchronous helpers run on a database thread (``core.live.run``)

    async def _can_watch(self) -> bool:
        return await live.run(self._watchable)

    def _watchable(self) -> bool:
        return visible_matches(user=self.viewer).filter(pk=self.match_id).exists()

    def _snapshot(self) -> dict[str, Any]:
        with rows.one_snapshot():
            match = visible_matches(user=self.viewer).get(pk=self.match_id)
            return match_snapshot(match, viewer=self.viewer)

    def _chat_send(self, line: str) -> None:
        assert self.viewer is not None
        chat.chat_send(match_id=self.match_id, author=self.viewer, seat=self.seat, text=line)

    def _chat_history(self) -> list[dict[str, object]]:
        return chat.chat_recent(
            match_id=self.match_id,
            players_room=self.seat is not None,
            viewer_id=self.viewer.pk if self.viewer is not None else None,
        )


def _resignation(value: Any) -> ResultKind | None:
    if value is None:
        return None
    if not isinstance(value, str) or value not in RESIGN_LEVELS:
        words = '", "'.join(RESIGN_LEVELS)
        raise FrameError(f'"resign" is one of "{words}"')
    return RESIGN_LEVELS[value]


def _echo(value: Any) -> Any:
    """The client's seq as it sent it, when it is a plain number; otherwise nothing."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _address(scope: dict[str, Any]) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None
