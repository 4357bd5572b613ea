"""What matches tell the world, always after the transaction commits.

Live events (channel layer): each match has a group ``match.<id>``. When a match changes,
the publisher reads it once and puts the snapshot of each seat and of a watcher into the
event, with the move-list rows the change added; each consumer forwards only its own
viewer's snapshot, so nothing private (the mover's legal plays) reaches anyone else, and a
change costs one read, not one per connection. Watchers coming and going send only the
presence counts (``match.presence``), at most once a second per match and server process
however many come and go (``presence_soon``), and no action waits for them.

Domain events (``core.bus``), for the apps above (tournaments move their bracket on, the
lobby tells people): a challenge issued and answered, a match ready to play, a player
waited for, a match finished, a match stopped without a result. Matches never import those apps.
"""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from datetime import datetime

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from core import bus, live
from matches.log import appended_since
from matches.models import Game, Match
from matches.selectors import broadcast, presence_of
from matches.state import locked_presence

PRESENCE_EVERY = 1.0
# Matches whose presence counts are about to be sent, per event loop (a server process has one).
_pending_presence: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, set[int]] = (
    weakref.WeakKeyDictionary()
)


@dataclass(frozen=True)
class MatchFinished:
    """A match ended (played out, resigned, on time, by forfeit or adjudication).

    ``winner_seat`` is None when nobody won it (a money session that ended).
    """

    match_id: int
    tournament_id: int | None
    winner_seat: int | None


@dataclass(frozen=True)
class MatchStopped:
    """A match ended without a result: ``how`` is "aborted" (nobody started it in time;
    ``absent`` the seats that never came), "voided" (by staff) or "cancelled" (a bracket
    correction took its slot away). What was staked went back."""

    match_id: int
    tournament_id: int | None
    how: str
    absent: tuple[int, ...] = ()


@dataclass(frozen=True)
class PracticeVoided:
    """The computer could not play its seat (practice, or a demo player's), and the match
    was voided: ``why`` in words; ``player_id`` is the person in seat 0."""

    match_id: int
    player_id: int
    why: str


@dataclass(frozen=True)
class ChallengeIssued:
    match_id: int
    challenger_id: int
    opponent_id: int


@dataclass(frozen=True)
class ChallengeAnswered:
    """``answer``: "accepted", "declined" (by the opponent) or "withdrawn" (by the challenger)."""

    match_id: int
    challenger_id: int
    opponent_id: int
    answer: str


@dataclass(frozen=True)
class MatchReady:
    """A match between two people started: both should come to the board by ``show_up_by``."""

    match_id: int
    player_ids: tuple[int, int]
    show_up_by: datetime | None
    tournament_id: int | None


@dataclass(frozen=True)
class MatchesReady:
    """Matches between people started together (one, or a tournament's round)."""

    matches: tuple[MatchReady, ...]


@dataclass(frozen=True)
class PlayerAwaited:
    """The match waits for ``user_id`` to act (a turn, an answer to a double or resignation)."""

    match_id: int
    user_id: int
    board_open: bool = False
    """True when the player was seen at the board as the change was made (their connection
    counted under the match's lock); False when not known to be."""


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def publish_match(match: Match, *, since: int, game: Game | None = None) -> None:
    """Tell everyone watching ``match`` that it changed, once the change is committed.

    ``since`` is the ``last_seq`` the match had before the change: the event carries the
    move-list rows logged after it. A caller that has just saved ``match`` (read with its
    players) and its current ``game`` passes both, and the snapshots are made from them
    rather than read again; they must not change before the commit.
    """
    match_id = match.pk
    saved = (match, game) if game is not None else None
    counted = locked_presence(match)
    transaction.on_commit(lambda: _send_changed(match_id, since, saved, counted))


def publish_finished(match: Match) -> None:
    bus.publish_on_commit(MatchFinished(match.pk, match.tournament_id, match.winner_seat))


def publish_stopped(match: Match, how: str, *, absent: tuple[int, ...] = ()) -> None:
    bus.publish_on_commit(MatchStopped(match.pk, match.tournament_id, how, absent))


def publish_practice_voided(match: Match, why: str) -> None:
    bus.publish_on_commit(PracticeVoided(match.pk, match.player_0_id, why))


def publish_challenge(match: Match) -> None:
    bus.publish_on_commit(ChallengeIssued(match.pk, match.player_0_id, match.player_1_id))


def publish_answer(match: Match, answer: str) -> None:
    bus.publish_on_commit(ChallengeAnswered(match.pk, match.player_0_id, match.player_1_id, answer))


def publish_ready(matches: list[Match]) -> None:
    bus.publish_on_commit(
        MatchesReady(
            tuple(
                MatchReady(
                    match.pk,
                    (match.player_0_id, match.player_1_id),
                    match.show_up_by,
                    match.tournament_id,
                )
                for match in matches
            )
        )
    )


def publish_awaited(match: Match, seat: int | None) -> None:
    """After a change, say whom the match waits for now (nobody when it is over)."""
    computer = bool(match.engine_strength) and seat == 1  # practice: seat 1 is the engine
    if seat is not None and not match.pass_and_play and not computer:
        counted = locked_presence(match)
        seen = counted is not None and counted[seat] > 0
        bus.publish_on_commit(PlayerAwaited(match.pk, match.player_id(seat), board_open=seen))


async def presence_soon(match_id: int) -> None:
    """Send the match's presence counts within ``PRESENCE_EVERY``, once for every coming and
    going of watchers until then (called from a consumer, after its change committed)."""
    loop = asyncio.get_running_loop()
    pending = _pending_presence.setdefault(loop, set())
    if match_id in pending:
        return
    pending.add(match_id)
    loop.call_later(PRESENCE_EVERY, lambda: loop.create_task(_presence_now(match_id, pending)))


async def _presence_now(match_id: int, pending: set[int]) -> None:
    pending.discard(match_id)
    presence = await database_sync_to_async(presence_of)(match_id)
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(
            match_group(match_id), {"type": "match.presence", "presence": presence}
        )


def publish_presence(match_id: int) -> None:
    """Tell watchers how many people are at the board (players connected, spectators)."""
    transaction.on_commit(
        lambda: live.group_send(
            match_group(match_id), {"type": "match.presence", "presence": presence_of(match_id)}
        )
    )


def publish_chat(match_id: int, message: dict[str, object], *, author_id: int) -> None:
    """A chat line to the board's sockets; each drops it for a reader who does not hear
    ``author_id`` (``matches.chat``)."""
    event = {"type": "match.chat", "message": message, "author_id": author_id}
    transaction.on_commit(lambda: live.group_send(match_group(match_id), event))


def _send_changed(
    match_id: int,
    since: int,
    saved: tuple[Match, Game] | None,
    counted: tuple[int, int, int] | None,
) -> None:
    if get_channel_layer() is None:
        return
    match, game = saved if saved is not None else (None, None)
    appended = appended_since(match, since) if match is not None else None
    event = broadcast(
        match_id, since=since, match=match, game=game, appended=appended, counted=counted
    )
    if event is None:
        return
    moves = event["moves"]
    # Each kind of viewer's frame is encoded here, once; sockets forward the text as it is.
    frames = {
        viewer: live.frame_text({"type": "state", "state": snapshot, "moves": moves})
        for viewer, snapshot in event["snapshots"].items()
    }
    live.group_send(
        match_group(match_id), {"type": "match.changed", "seq": event["seq"], "frames": frames}
    )
