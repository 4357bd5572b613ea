"""Writes for notices: store one and send it live, mark them read.

A notice is stored before it is sent, so the bell and ``/notifications/`` show everything
the socket said, and a player who had no tab open finds it later. Each is sent once its
transaction commits (``lobby.events``), to every tab of the player.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from core import rows
from core.rows import among
from lobby import events
from lobby.models import Notification


def notify(
    *,
    user_id: int,
    kind: str,
    key: str,
    text: str,
    url: str = "",
    data: dict[str, Any] | None = None,
    again: bool = False,
) -> Notification | None:
    """Tell the player ``text`` (a link to ``url``), once per ``key``.

    The same key a second time (an event delivered twice) changes and sends nothing and
    answers None, unless ``again``: then the notice is brought back unread to the top with
    the new text, so a player has one "your turn" per match however many turns go by.
    """
    fields: dict[str, Any] = {"kind": kind, "text": text, "url": url, "data": data or {}}
    with transaction.atomic():
        if again:
            fields |= {"created_at": timezone.now(), "read_at": None}
            notice, _ = Notification.objects.update_or_create(
                user_id=user_id, key=key, defaults=fields
            )
        else:
            notice, created = Notification.objects.get_or_create(
                user_id=user_id, key=key, defaults=fields
            )
            if not created:
                return None
        events.publish_notice(notice)
    return notice


@dataclass(frozen=True)
class Notice:
    """A notice to store and send, as ``notify`` takes it."""

    user_id: int
    kind: str
    key: str
    text: str
    url: str = ""
    data: dict[str, Any] = field(default_factory=dict)


def notify_many(notices: Sequence[Notice]) -> int:
    """``notify`` for many players at once (a tournament's round, its whole field): the keys
    already used are read in one query and the new notices written in one statement, and
    sent together once committed. Returns how many were new."""
    if not notices:
        return 0
    used = set(
        Notification.objects.filter(
            user_id__in=among({notice.user_id for notice in notices}),
            key__in=among({notice.key for notice in notices}, "text"),
        ).values_list("user_id", "key")
    )
    fresh = {
        (notice.user_id, notice.key): Notification(
            user_id=notice.user_id,
            kind=notice.kind,
            key=notice.key,
            text=notice.text,
            url=notice.url,
            data=notice.data,
        )
        for notice in notices
        if (notice.user_id, notice.key) not in used
    }
    try:
        with transaction.atomic():
            created = list(fresh.values())
            rows.insert_many(created)
            events.publish_notices(created)
    except IntegrityError:  # the same notices were being written at the same time
        told = [notify(**asdict(notice)) for notice in notices]
        return sum(notice is not None for notice in told)
    return len(created)


def notices_read(
    *,
    user_id: int,
    ids: Sequence[int] | None = None,
    url: str | None = None,
    keys: Sequence[str] | None = None,
) -> int:
    """Mark the player's unread notices read: those among ``ids``, those pointing to
    ``url`` and those with one of ``keys``, or every one when none is given. Notices of
    other players are left alone. Returns how many were marked; the player's tabs are told
    the new unread count when it changed."""
    unread = Notification.objects.filter(user_id=user_id, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=ids)
    if url is not None:
        unread = unread.filter(url=url)
    if keys is not None:
        unread = unread.filter(key__in=keys)
    with transaction.atomic():
        marked = unread.update(read_at=timezone.now())
        if marked:
            events.publish_unread(user_id)
    return marked


def notices_read_by_key(*, key: str, user_ids: Collection[int]) -> int:
    """Mark read the unread notices under ``key`` of the players ``user_ids`` (one query
    when none is unread, as when a match ends whose players were at the board)."""
    unread = Notification.objects.filter(user_id__in=user_ids, key=key, read_at__isnull=True)
    told = set(unread.values_list("user_id", flat=True))
    if not told:
        return 0
    with transaction.atomic():
        marked = unread.update(read_at=timezone.now())
        for user_id in told:
            events.publish_unread(user_id)
    return marked
