"""Conduct: players muting or blocking one another, and chat lines reported to staff.

A *mute* hides someone's chat from the player who muted them; a *block* also stops
challenges, seeks and chat between the two either way (``accounts.standing``). A
*report* is one player's word that a chat line broke the rules. Every report about one
author gathers in their undecided conduct case (key ``conduct:<author id>``), whose
evidence holds each reported line with the conversation around it (``CONTEXT_LINES``
before and after it, in its room, with times and authors), who reported it and why, and
the match.

A line may be reported by whoever could read it: a player of the match for the players'
room, anyone else who may watch the match for the spectators'; never by its author, and
once by each reader.

Locks: ``chat_report`` locks the author's user row, so the reports about one player are
added to their case one at a time and none is lost from the evidence.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block, User
from accounts.standing import block_remove, block_set
from core import locks
from core.errors import Conflict, DomainError, NotFound
from core.locks import Lock
from fairplay.cases import case_report
from fairplay.models import Case, CaseKind, CaseState, ChatReport
from matches.models import ChatMessage, ChatRoom
from matches.selectors import visible_matches

CONTEXT_LINES = 20
NOTE_LIMIT = 500


def player_named(username: str) -> User:
    player = User.objects.select_related("profile").filter(username=username, is_active=True)
    found = player.first()
    if found is None:
        raise NotFound(_("There is no player called %(name)s.") % {"name": username[:150]})
    return found


def block(*, owner: User, username: str, kind: str) -> tuple[Block, bool]:
    """``owner`` mutes or blocks the player called ``username``; says whether the
    block is new (rather than a mute made a block, or the other way)."""
    other = player_named(username)
    new = not Block.objects.filter(owner=owner, other=other).exists()
    return block_set(owner=owner, other=other, kind=kind), new


def unblock(*, owner: User, username: str) -> User:
    """``owner`` lifts their mute or block of ``username``; refused when there is none."""
    other = player_named(username)
    if not block_remove(owner=owner, other=other):
        raise NotFound(
            _("You have not muted or blocked %(name)s.") % {"name": other.profile.display_name}
        )
    return other


def blocks_of(*, owner: User) -> list[Block]:
    """Whom ``owner`` muted or blocked, the latest first."""
    return list(
        Block.objects.filter(owner=owner)
        .select_related("other__profile")
        .order_by("-created_at", "-pk")
    )


@transaction.atomic
def chat_report(*, message_id: int, reporter: User, note: str = "") -> ChatReport:
    """``reporter`` reports the chat line ``message_id`` to staff, with an optional note."""
    note = " ".join(note.split())
    if len(note) > NOTE_LIMIT:
        raise DomainError(_("Keep the note under %(limit)s characters.") % {"limit": NOTE_LIMIT})
    message = _readable(message_id, reporter)
    if message.author_id == reporter.pk:
        raise DomainError(_("You cannot report your own message."))
    author = User.objects.filter(pk=message.author_id)
    list(locks.select(Lock.REPORTED_PLAYER, author, message.author_id).values_list("pk"))
    if ChatReport.objects.filter(message=message, reporter=reporter).exists():
        raise Conflict(_("You reported this message already; staff have it."))
    key = f"conduct:{message.author_id}"
    undecided = (
        Case.objects.filter(key=key, state__in=[CaseState.OPEN, CaseState.IN_REVIEW])
        .values_list("evidence", flat=True)
        .first()
    )
    evidence = _with_report(undecided or {}, message, reporter=reporter, note=note)
    reports = evidence["reports"]
    lines = len(reports)
    readers = len({name["username"] for report in reports for name in report["reporters"]})
    case = case_report(
        kind=CaseKind.CONDUCT,
        subject=message.author,
        key=key,
        summary=(
            f"{message.author.profile.display_name}'s chat: {lines} "
            f"line{'s' if lines != 1 else ''} reported by {readers} "
            f"player{'s' if readers != 1 else ''}"
        ),
        evidence=evidence,
        others=[reporter],
    )
    try:
        with transaction.atomic():
            return ChatReport.objects.create(
                message=message, reporter=reporter, case=case, note=note
            )
    except IntegrityError:  # the same reader's second click, sent before the first came back
        raise Conflict(_("You reported this message already; staff have it.")) from None


def _readable(message_id: int, reporter: User) -> ChatMessage:
    """The line, if ``reporter`` could have read it (else 404, saying nothing of it)."""
    message = (
        ChatMessage.objects.select_related("author__profile", "match").filter(pk=message_id).first()
    )
    if message is not None:
        seat = message.match.seat_of(reporter)
        if message.room == ChatRoom.PLAYERS and seat is not None:
            return message
        if (
            message.room == ChatRoom.SPECTATORS
            and seat is None
            and visible_matches(user=reporter).filter(pk=message.match_id).exists()
        ):
            return message
    raise NotFound(_("There is no such chat message, or you could not read it."))


def _with_report(
    evidence: dict[str, Any], message: ChatMessage, *, reporter: User, note: str
) -> dict[str, Any]:
    """The case's evidence with this report: the line's reporters grow, and its
    conversation is read again (it may have gone on since an earlier report)."""
    reports = [dict(report) for report in evidence.get("reports", [])]
    same = next((report for report in reports if report["message"] == message.pk), None)
    if same is None:
        same = {
            "message": message.pk,
            "match": message.match_id,
            "room": message.room,
            "author": message.author.username,
            "text": message.text,
            "at": message.created_at.isoformat(),
            "reporters": [],
        }
        reports.append(same)
    same["reporters"] = [
        *same["reporters"],
        {"username": reporter.username, "note": note, "at": timezone.now().isoformat()},
    ]
    same["conversation"] = _conversation(message)
    return {
        **evidence,
        "author": message.author.username,
        "reports": reports,
        "matches": sorted({report["match"] for report in reports}),
    }


def _conversation(message: ChatMessage) -> list[dict[str, Any]]:
    """The ``CONTEXT_LINES`` lines before ``message`` in its room, it, and those after."""
    room = ChatMessage.objects.filter(match_id=message.match_id, room=message.room)
    room = room.select_related("author__profile")
    at, pk = message.created_at, message.pk
    before = room.filter(Q(created_at__lt=at) | Q(created_at=at, pk__lt=pk)).order_by(
        "-created_at", "-pk"
    )[:CONTEXT_LINES]
    after = room.filter(Q(created_at__gt=at) | Q(created_at=at, pk__gt=pk)).order_by(
        "created_at", "pk"
    )[:CONTEXT_LINES]
    return [
        {
            "id": line.pk,
            "at": line.created_at.isoformat(),
            "author": line.author.username,
            "name": line.author.profile.display_name,
            "text": line.text,
            "reported": line.pk == pk,
        }
        for line in [*reversed(list(before)), message, *after]
    ]
