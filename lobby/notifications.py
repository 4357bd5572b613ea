"""Writes for notices: store one and send it live, mark them read.

A notice is stored before it is sent, so the bell and ``/notifications/`` show everything
the socket said, and a player who had no tab open finds it later. Each is sent once its
transaction commits (``lobby.events``), to every tab of the player. A new notice of a kind
players may also take by e-mail (``MAILED_KINDS``) is handed to ``lobby.mail_notices``,
which mails it to those who want it (``lobby.mail``).

A notice is written in its reader's language (``Profile.language``, the one they chose with
the switcher or signed up in): callers pass its sentence as a function (``Text``) that
``notify`` calls under that language when it stores the notice. The text is stored as
written: the bell, the page, the socket, the API and the e-mail read one column, and the
notices stored before the player chose another language read as they were written.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from accounts.mail import MailKind
from accounts.selectors import language_of, languages_of
from core.bulk import insert_values
from core.rows import among
from core.tasks import enqueue_on_commit
from lobby import events
from lobby.models import NoticeKind, Notification
from lobby.selectors import notice_fields

MAIL_TASK = "lobby.mail_notices"
MAIL_BATCH = 100
"""Notices mailed by one task: a tournament's whole field is mailed by several at once."""
MAILED_KINDS = {
    NoticeKind.TOURNAMENT_SOON: MailKind.TOURNAMENT_SOON,
    NoticeKind.CHALLENGE: MailKind.CHALLENGE,
    NoticeKind.DISPUTE_DECIDED: MailKind.DISPUTE_DECIDED,
}
"""The notices a player may also take by e-mail, and the e-mail kind each is."""

Text = str | Callable[[], str]
"""A notice's sentence: a function that writes it (``gettext`` with named blanks), called in
the reader's language; or a text written already, stored as it is."""


def written(text: Text, language: str) -> str:
    """The sentence ``text`` in ``language``."""
    if isinstance(text, str):
        return text
    with translation.override(language):
        return text()


def written_each(notices: Sequence[Notice], languages: Mapping[int, str]) -> list[str]:
    """Each notice's sentence in its reader's language (``languages``: by reader). Written a
    language at a time: a tournament's field reads a few languages, and switching the
    language for each of its thousands of notices cost more than writing them."""
    texts = [notice.text if isinstance(notice.text, str) else "" for notice in notices]
    by_language: dict[str, list[tuple[int, Callable[[], str]]]] = {}
    for index, notice in enumerate(notices):
        if not isinstance(notice.text, str):
            by_language.setdefault(languages[notice.user_id], []).append((index, notice.text))
    for language, unwritten in by_language.items():
        with translation.override(language):
            for index, text in unwritten:
                texts[index] = text()
    return texts


def notify(
    *,
    user_id: int,
    kind: str,
    key: str,
    text: Text,
    url: str = "",
    data: dict[str, Any] | None = None,
    again: bool = False,
) -> Notification | None:
    """Tell the player ``text`` (a link to ``url``), once per ``key``, in their language.

    The same key a second time (an event delivered twice) changes and sends nothing and
    answers None, unless ``again``: then the notice is brought back unread to the top with
    the new text, so a player has one "your turn" per match however many turns go by.
    """
    if not isinstance(text, str):
        text = written(text, language_of(user_id=user_id))
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
        if notice.kind in MAILED_KINDS and not again:
            enqueue_on_commit(MAIL_TASK, [notice.pk])
    return notice


@dataclass(frozen=True)
class Notice:
    """A notice to store and send, as ``notify`` takes it. A ``text`` that is a function
    must not read a loop's variable when called (``functools.partial`` binds it)."""

    user_id: int
    kind: str
    key: str
    text: Text
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
    fresh = list(
        {
            (notice.user_id, notice.key): notice
            for notice in notices
            if (notice.user_id, notice.key) not in used
        }.values()
    )
    languages = languages_of(
        user_ids={notice.user_id for notice in fresh if not isinstance(notice.text, str)}
    )
    # Written from their values: a round's thousands of notices are never made instances.
    created = [
        (notice, text, timezone.now())
        for notice, text in zip(fresh, written_each(fresh, languages), strict=True)
    ]
    try:
        with transaction.atomic():
            keys = insert_values(
                Notification,
                ("user_id", "kind", "key", "text", "url", "data", "created_at"),
                [(n.user_id, n.kind, n.key, text, n.url, n.data, at) for n, text, at in created],
            )
            events.publish_notices(
                [
                    (
                        notice.user_id,
                        notice_fields(
                            key, notice.kind, text, notice.url, notice.data, at, read=False
                        ),
                    )
                    for key, (notice, text, at) in zip(keys, created, strict=True)
                ]
            )
            mailed = [
                key
                for key, (notice, _, _) in zip(keys, created, strict=True)
                if notice.kind in MAILED_KINDS
            ]
            for start in range(0, len(mailed), MAIL_BATCH):
                enqueue_on_commit(MAIL_TASK, mailed[start : start + MAIL_BATCH])
    except IntegrityError:  # the same notices were being written at the same time
        told = [
            notify(
                user_id=notice.user_id,
                kind=notice.kind,
                key=notice.key,
                text=text,
                url=notice.url,
                data=notice.data,
            )
            for notice, text, _ in created
        ]
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
