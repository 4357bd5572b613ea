"""Notices that also come by e-mail, and the one notice made for it: a tournament about to start.

A notice of one of ``lobby.notifications.MAILED_KINDS`` is mailed once (its ``mailed_at``
is taken by compare-and-set before the message goes), to a verified address of a player who
wants that kind by e-mail (``accounts.mail.notice_mail_send``), unless it was read first.
A challenge is mailed only to a player who is *away*: no page of the site opened for
``AWAY_AFTER`` and no board open (``MatchConnection``), so a player in the lobby hears it
from the bell alone.

``tell_tournaments_soon`` (beat, every minute) tells the entrants of each tournament that
starts within ``SOON``, once per tournament and player (the notice's key).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext

from accounts.mail import AWAY_AFTER, MailKind, notice_mail_send
from accounts.models import Profile
from lobby.models import NoticeKind, Notification
from lobby.notifications import MAILED_KINDS, Notice, notify_many
from matches.models import MatchConnection
from tournaments.models import Entry, EntryStatus, Tournament, TournamentState

SOON = timedelta(minutes=10)


def player_away(*, user_id: int, now: datetime) -> bool:
    """Has the player opened no page for ``AWAY_AFTER`` and no board is open?"""
    here = Profile.objects.filter(user_id=user_id, seen_at__gt=now - AWAY_AFTER).exists()
    return not here and not MatchConnection.objects.filter(user_id=user_id).exists()


def notices_mail(*, notice_ids: Sequence[int], now: datetime | None = None) -> int:
    """Mail each of these notices to its player if they want it; how many were mailed.
    A notice is taken once: run twice, the second run mails nothing."""
    moment = now or timezone.now()
    mailed = 0
    for notice_id in notice_ids:
        taken = Notification.objects.filter(pk=notice_id, mailed_at__isnull=True)
        if not taken.update(mailed_at=moment):
            continue
        notice = Notification.objects.get(pk=notice_id)
        kind = MAILED_KINDS.get(NoticeKind(notice.kind))
        if kind is None or notice.read_at is not None:
            continue
        if kind is MailKind.CHALLENGE and not player_away(user_id=notice.user_id, now=moment):
            continue
        try:
            sent = notice_mail_send(
                user_id=notice.user_id, kind=kind, text=notice.text, url=notice.url
            )
        except Exception:
            # Given back, so the task run again (or retried by hand) mails it.
            Notification.objects.filter(pk=notice_id).update(mailed_at=None)
            raise
        mailed += sent
    return mailed


def tell_tournaments_soon(*, now: datetime | None = None) -> int:
    """Tell the entrants of every tournament starting within ``SOON`` when it starts; how
    many notices were new."""
    moment = now or timezone.now()
    starting = Tournament.objects.filter(
        state=TournamentState.REGISTRATION,
        starts_at__gt=moment,
        starts_at__lte=moment + SOON,
    )
    entries = Entry.objects.filter(
        tournament__in=starting, status=EntryStatus.REGISTERED
    ).select_related("tournament")
    notices = []
    for entry in entries:
        tournament = entry.tournament
        assert tournament.starts_at is not None
        minutes = max(1, math.ceil((tournament.starts_at - moment).total_seconds() / 60))
        notices.append(
            Notice(
                user_id=entry.user_id,
                kind=NoticeKind.TOURNAMENT_SOON,
                key=f"tournament-soon:{tournament.pk}",
                text=partial(_soon_text, tournament.name, minutes, tournament.starts_at),
                url=reverse("tournament", kwargs={"tournament_id": tournament.pk}),
                data={
                    "tournament_id": tournament.pk,
                    "starts_at": tournament.starts_at.isoformat(),
                },
            )
        )
    return notify_many(notices)


def _soon_text(tournament: str, minutes: int, starts_at: datetime) -> str:
    return ngettext(
        "%(tournament)s starts in %(minutes)s minute, at %(time)s UTC.",
        "%(tournament)s starts in %(minutes)s minutes, at %(time)s UTC.",
        minutes,
    ) % {"tournament": tournament, "minutes": minutes, "time": f"{starts_at:%H:%M}"}
