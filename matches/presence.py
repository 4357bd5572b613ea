"""Who is at the board: players' connections, their reconnection grace, and spectators.

Every open socket to a match page is a ``MatchConnection`` row, a player's (with their
seat) or a watcher's. A seat is *connected* while it has a row. When a player's last
connection closes during play, a *reconnection grace* starts (``reconnect_grace_seconds``,
three minutes by default); coming back within it resumes the match exactly where it was,
and a suspended match whose players are both back plays on. When the grace ends first,
``matches.deadlines.grace_expire`` applies the match's abandon policy.

A watcher's row is written without taking the match lock: spectators queue behind no more
than the action in progress (the row's insert waits for it, as a key to the locked match
row), and their coming and going only sends the presence counts (at most once a
second per match, ``matches.events.presence_soon``). An address may hold at most
``WATCHERS_PER_ADDRESS`` anonymous sockets at once.

Rows cannot outlive their sockets: the server holding a socket marks its row seen every
``HEARTBEAT`` (``connections_seen``); a row not seen for ``CONNECTION_TTL`` belongs to a
server that was killed or restarted, and ``sweep_stale`` closes it as if the socket had
closed, so a player's grace starts within a bounded time whatever ended the connection.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from core import rows
from core.errors import Conflict
from matches import clock, events
from matches.log import append_action, player_has_acted
from matches.models import ActionKind, Match, MatchConnection, MatchStatus
from matches.state import lock_match, waiting_state

HEARTBEAT = timedelta(seconds=20)
CONNECTION_TTL = timedelta(seconds=75)
WATCHERS_PER_ADDRESS = 8
STALE_BATCH = 200


@transaction.atomic
def connection_open(
    *, match_id: int, user: User | None, channel: str, address: str | None = None
) -> int | None:
    """A socket to the match opened; returns the seat it plays for (None: a watcher).

    A player returning within their grace resumes the match. The caller tells watchers
    (``matches.events.presence_soon``); a player's return is published here.
    """
    players = Match.objects.filter(pk=match_id).values_list("player_0_id", "player_1_id").get()
    seat = _seat(players, user)
    if seat is None:
        if user is None and address and _watchers_from(address) >= WATCHERS_PER_ADDRESS:
            raise Conflict(
                _("%(count)s boards are open from your address already; log in or close one")
                % {"count": WATCHERS_PER_ADDRESS}
            )
        MatchConnection.objects.create(
            match_id=match_id, user=user, channel=channel, address=address
        )
        return None
    match = lock_match(match_id)
    since = match.last_seq
    away = not _connected(match, seat) and match.grace_ends(seat) is not None
    MatchConnection.objects.create(
        match=match, user=user, seat=seat, channel=channel, address=address
    )
    match.mark_seen(seat)
    if match.show_up_by is not None and clock.end_show_up(
        match, moved=match.tournament_id is not None or player_has_acted(match)
    ):
        clock.restart(match, timezone.now(), waiting_state(match))
    if away:
        match.set_grace_ends(seat, None)
        append_action(match, kind=ActionKind.RECONNECT, seat=seat, actor=user)
        if match.status == MatchStatus.SUSPENDED and match.grace_ends(1 - seat) is None:
            match.status = MatchStatus.PLAYING
        clock.refresh_deadline(match, waiting_state(match))
    match.save()
    events.publish_match(match, since=since)
    return seat


@transaction.atomic
def connection_close(*, channel: str, now: datetime | None = None) -> int | None:
    """A socket closed; a player's last one starts their reconnection grace.

    Returns the match id of a watcher's socket (the caller tells the others), else None.
    """
    row = MatchConnection.objects.filter(channel=channel).values_list("match_id", "seat").first()
    if row is None:
        return None
    match_id, seat = row
    if seat is None:
        MatchConnection.objects.filter(channel=channel).delete()
        return int(match_id)
    match = lock_match(match_id)
    MatchConnection.objects.filter(channel=channel).delete()
    since = match.last_seq
    if _connected(match, seat):
        return None  # another tab of the player's is still open: nothing changed
    if (
        match.status == MatchStatus.PLAYING
        and not match.pass_and_play
        and not clock.is_correspondence(match)
    ):
        moment = now or timezone.now()
        match.set_grace_ends(seat, moment + timedelta(seconds=match.reconnect_grace_seconds))
        append_action(match, kind=ActionKind.DISCONNECT, seat=seat, actor=match.player(seat))
        clock.refresh_deadline(match, waiting_state(match))
        match.save()
    events.publish_match(match, since=since)
    return None


def connections_seen(*, channels: list[str]) -> dict[str, int]:
    """The server holding these sockets says they are still open; the newest state
    (``last_seq``) of the match each watches, by channel, so a socket that missed a frame
    can be sent the match again."""
    MatchConnection.objects.filter(channel__in=channels).update(seen_at=timezone.now())
    return dict(
        MatchConnection.objects.filter(channel__in=channels).values_list(
            "channel", "match__last_seq"
        )
    )


def sweep_stale(*, now: datetime | None = None) -> int:
    """Close the rows whose server stopped saying they are open; returns how many."""
    moment = now or timezone.now()
    stale = _stale(moment - CONNECTION_TTL)
    for channel, match_id, seat in stale:
        with transaction.atomic():
            connection_close(channel=channel, now=moment)
            if seat is None:
                events.publish_presence(match_id)
    return len(stale)


def _stale(seen_before: datetime) -> list[tuple[str, int, int | None]]:
    """Channel, match and seat of up to ``STALE_BATCH`` rows not seen since ``seen_before``,
    the oldest first. Every pass of the deadline sweep runs it (nearly always finding
    none), after the deadlines due: a statement kept prepared, as building it through
    the ORM cost more CPU than running it."""
    seen = rows.column(MatchConnection, "seen_at")
    with rows.prepared_cursor() as cursor:
        cursor.execute(
            f"SELECT {rows.column(MatchConnection, 'channel')},"  # noqa: S608
            f" {rows.column(MatchConnection, 'match')}, {rows.column(MatchConnection, 'seat')}"
            f" FROM {rows.table(MatchConnection)} WHERE {seen} < %s ORDER BY {seen} LIMIT %s",
            [connection.ops.adapt_datetimefield_value(seen_before), STALE_BATCH],
        )
        return [tuple(row) for row in cursor.fetchall()]


def _watchers_from(address: str) -> int:
    return MatchConnection.objects.filter(address=address, user__isnull=True).count()


def _seat(players: tuple[int, int], user: User | None) -> int | None:
    if user is None:
        return None
    if user.pk == players[0]:
        return 0
    if user.pk == players[1]:
        return 1
    return None


def _connected(match: Match, seat: int) -> bool:
    return MatchConnection.objects.filter(match=match, seat=seat).exists()
