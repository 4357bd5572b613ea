"""Reads for the home page, the play lobby and the bell: what is on now, what just
finished, the open seeks and a player's notices; and what a wallet's lines were for.

Everything here reads (the lobby's rows and the apps below) and writes nothing.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.ledger.reads import balances
from accounts.models import Block, BlockKind, Profile, User
from accounts.money import money_text
from accounts.selectors import top_rated_players
from accounts.templatetags.money import page_separators
from core.rows import among
from disputes.models import Dispute
from lobby.models import NoticeKind, Notification, Seek
from lobby.terms import LOG_IN_TO_TAKE, clock_of, range_text, rating_words, refusal, terms_text
from matches.clock import clock_words
from matches.models import Match, MatchConnection, MatchKind, MatchStatus
from matches.selectors import LIVE_WITHIN
from reviews.models import Analysis
from tournaments.models import Entry, EntryStatus, Tournament
from tournaments.selectors import lobby as tournament_lobby


def open_challenges(*, user: User) -> QuerySet[Match]:
    """Invitations ``user`` sent or received that nobody has answered yet, newest first."""
    return (
        Match.objects.filter(status=MatchStatus.INVITED)
        .filter(Q(player_0=user) | Q(player_1=user))
        .select_related("player_0__profile", "player_1__profile")
        .order_by("-created_at")
    )


def live_matches(*, limit: int = 20) -> QuerySet[Match]:
    """Public matches being played now, the latest move first, with ``watching`` counted.

    Live means both players came to the board and someone moved in the last
    ``LIVE_WITHIN`` (a suspended match counts while staff look at it): a tournament match
    nobody has come to is not shown as live.
    """
    recent = timezone.now() - LIVE_WITHIN
    return (
        Match.objects.filter(private=False)
        .filter(
            Q(status=MatchStatus.SUSPENDED)
            | Q(status=MatchStatus.PLAYING, seen_0=True, seen_1=True, turn_started_at__gte=recent)
        )
        .select_related("player_0__profile", "player_1__profile")
        .annotate(watching=Count("connections", filter=Q(connections__seat__isnull=True)))
        .order_by("-turn_started_at")[:limit]
    )


def recent_results(*, limit: int = 10) -> QuerySet[Match]:
    """Public matches that finished, newest first."""
    return (
        Match.objects.filter(status=MatchStatus.FINISHED, private=False)
        .select_related("player_0__profile", "player_1__profile")
        .order_by("-finished_at")[:limit]
    )


@dataclass(frozen=True)
class HomePage:
    top_players: list[Profile]
    live_matches: QuerySet[Match]
    recent_results: QuerySet[Match]
    filling_tournaments: QuerySet[Tournament]
    running_tournaments: QuerySet[Tournament]


def home_page(*, viewer: User | None) -> HomePage:
    """What the home page shows a visitor, logged in or not."""
    return HomePage(
        top_players=list(top_rated_players(limit=8)),
        live_matches=live_matches(limit=6),
        recent_results=recent_results(limit=6),
        filling_tournaments=tournament_lobby(viewer=viewer, show="open", limit=6),
        running_tournaments=tournament_lobby(viewer=viewer, show="running", limit=6),
    )


# ---------------------------------------------------------------- notices


def notice_data(notice: Notification) -> dict[str, Any]:
    """A notice as the bell, the socket and the API show it."""
    return notice_fields(
        notice.pk,
        notice.kind,
        notice.text,
        notice.url,
        notice.data,
        notice.created_at,
        read=notice.read_at is not None,
    )


def notice_fields(
    notice_id: int,
    kind: str,
    text: str,
    url: str,
    data: dict[str, Any],
    created_at: datetime,
    *,
    read: bool,
) -> dict[str, Any]:
    """``notice_data`` of a notice known by its values (one written without an instance)."""
    return {
        "id": notice_id,
        "kind": kind,
        "text": text,
        "url": url,
        "data": data,
        "created_at": created_at.isoformat(),
        "read": read,
    }


def notices_of(
    *, user_id: int, unread_only: bool = False, before: int | None = None, limit: int = 50
) -> list[Notification]:
    """The player's notices, newest first; ``before`` the last notice of the page before
    (the next page starts after it in that order)."""
    notices = Notification.objects.filter(user_id=user_id)
    if unread_only:
        notices = notices.filter(read_at__isnull=True)
    if before is not None:
        last = Notification.objects.filter(user_id=user_id, pk=before).values("created_at").first()
        if last is None:
            return []
        moment = last["created_at"]
        notices = notices.filter(Q(created_at__lt=moment) | Q(created_at=moment, pk__lt=before))
    return list(notices.order_by("-created_at", "-pk")[:limit])


def unread_count(*, user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def unread_counts(*, user_ids: Collection[int]) -> dict[int, int]:
    """``unread_count`` of each of ``user_ids`` in one query (missing: none unread)."""
    return dict(
        Notification.objects.filter(user_id__in=among(user_ids), read_at__isnull=True)
        .values("user_id")
        .annotate(unread=Count("pk"))
        .values_list("user_id", "unread")
    )


# ---------------------------------------------------------------- seeks


SEEKS_SHOWN = 50


@dataclass(frozen=True)
class SeekRow:
    """An open seek as one viewer sees it: the terms in words and whether they may take it."""

    seek: Seek
    terms: str
    clock: str
    rating_range: str
    own: bool
    refusal: str | None

    @property
    def may_take(self) -> bool:
        return self.refusal is None


@dataclass(frozen=True)
class SeekList:
    """The play lobby's seeks for one viewer, and what its page needs to add a seek posted
    later by itself: ``viewer`` (``seek_viewer``) and whether ``rows`` are every open seek
    the viewer may see (``complete``), or the newest ``SEEKS_SHOWN`` of more."""

    rows: list[SeekRow]
    complete: bool
    viewer: dict[str, Any]
    shown: int = SEEKS_SHOWN


def open_seeks(
    *, viewer: User | None, limit: int = SEEKS_SHOWN, wallet: dict[str, int] | None = None
) -> list[SeekRow]:
    """Seeks waiting for an opponent, newest first, each saying whether ``viewer`` may take it;
    the seeks of players who blocked ``viewer``, or whom they blocked, are left out.
    ``wallet``: the viewer's balances, when already read."""
    seeks = Seek.objects.filter(taken_by__isnull=True, cancelled_at__isnull=True)
    if viewer is not None:
        seeks = seeks.filter(~creator_blocked_either_way(user_id=viewer.pk))
    seeks = seeks.select_related("creator__profile").order_by("-created_at")[:limit]
    if wallet is None:
        wallet = balances(user=viewer) if viewer is not None else {}
    return [seek_row(seek, viewer=viewer, wallet=wallet) for seek in seeks]


def seek_list(*, viewer: User | None) -> SeekList:
    """The play lobby's list for ``viewer``: one seek more is read than is shown, to know
    whether the page has them all."""
    wallet = balances(user=viewer) if viewer is not None else {}
    rows = open_seeks(viewer=viewer, limit=SEEKS_SHOWN + 1, wallet=wallet)
    return SeekList(
        rows=rows[:SEEKS_SHOWN],
        complete=len(rows) <= SEEKS_SHOWN,
        viewer=seek_viewer(viewer, wallet=wallet),
    )


def seek_viewer(viewer: User | None, *, wallet: dict[str, int]) -> dict[str, Any]:
    """What the page decides a new seek's row from (``lobby.terms``' take rules): the
    viewer's id, rating and balances, with the words a refusal shows them in, and the
    players blocked either way; an anonymous visitor is refused every seek, in ``refusal``."""
    if viewer is None:
        return {"id": None, "refusal": LOG_IN_TO_TAKE}
    blocks = Block.objects.filter(kind=BlockKind.BLOCK).filter(
        Q(owner_id=viewer.pk) | Q(other_id=viewer.pk)
    )
    rating = viewer.profile.rating
    return {
        "id": viewer.pk,
        "rating": rating,
        "rating_words": rating_words(rating),
        "balances": wallet,
        "balance_words": {
            currency: money_text(cents, page_separators()) for currency, cents in wallet.items()
        },
        "blocked": sorted(
            {other for pair in blocks.values_list("owner_id", "other_id") for other in pair}
            - {viewer.pk}
        ),
    }


def creator_blocked_either_way(*, user_id: int) -> Exists:
    """For seeks: their creator blocked ``user_id``, or ``user_id`` blocked them."""
    return Exists(
        Block.objects.filter(kind=BlockKind.BLOCK).filter(
            Q(owner_id=user_id, other_id=OuterRef("creator_id"))
            | Q(owner_id=OuterRef("creator_id"), other_id=user_id)
        )
    )


def blocked_either_way(*, user_id: int) -> Exists:
    """For users: they blocked ``user_id``, or ``user_id`` blocked them."""
    return Exists(
        Block.objects.filter(kind=BlockKind.BLOCK).filter(
            Q(owner_id=user_id, other_id=OuterRef("pk"))
            | Q(owner_id=OuterRef("pk"), other_id=user_id)
        )
    )


def seek_row(seek: Seek, *, viewer: User | None, wallet: dict[str, int] | None = None) -> SeekRow:
    """One seek as ``viewer`` sees it; ``wallet`` their balances, when already read."""
    if viewer is None:
        why_not: str | None = str(LOG_IN_TO_TAKE)
    else:
        balance = (wallet if wallet is not None else balances(user=viewer)).get(seek.currency, 0)
        why_not = refusal(
            seek, user_id=viewer.pk, rating=viewer.profile.rating, balance_cents=balance
        )
    return SeekRow(
        seek=seek,
        terms=terms_text(seek),
        clock=clock_words(clock_of(seek), money=seek.kind == MatchKind.MONEY),
        rating_range=range_text(seek),
        own=viewer is not None and seek.creator_id == viewer.pk,
        refusal=why_not,
    )


def open_seek(*, seek_id: int) -> Seek | None:
    """The seek with its creator's profile, while it is open."""
    return (
        Seek.objects.filter(pk=seek_id, taken_by__isnull=True, cancelled_at__isnull=True)
        .select_related("creator__profile")
        .first()
    )


def seek_of_match(*, match_id: int) -> Seek | None:
    """The seek a match was made from, if it was."""
    return Seek.objects.filter(match_id=match_id).select_related("taken_by__profile").first()


# ---------------------------------------------------------------- what notices speak of


def match_with_players(*, match_id: int) -> Match | None:
    return (
        Match.objects.select_related("player_0__profile", "player_1__profile")
        .filter(pk=match_id)
        .first()
    )


def match_player_ids(*, match_id: int) -> tuple[int, int] | None:
    return Match.objects.filter(pk=match_id).values_list("player_0_id", "player_1_id").first()


def board_open(*, match_id: int, user_id: int) -> bool:
    """Whether the player has the match's board open in some tab (a socket to it).

    Asked after every turn of every match, so written as the plain statement it is.
    """
    table = MatchConnection._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT EXISTS (SELECT 1 FROM {table} WHERE match_id = %s AND user_id = %s)",  # noqa: S608
            [match_id, user_id],
        )
        (found,) = cursor.fetchone()
    return bool(found)


def tournament_named(*, tournament_id: int) -> Tournament | None:
    return Tournament.objects.select_related("target").filter(pk=tournament_id).first()


def match_terms(*, match_ids: Collection[int]) -> dict[int, dict[str, Any]]:
    """What each match is played for, as ``lobby.terms.offer_text`` and ``lobby.wording``'s
    offers take it."""
    return {
        match_id: {"kind": kind, "length": length, "stake_cents": stake, "currency": currency}
        for match_id, kind, length, stake, currency in Match.objects.filter(
            pk__in=among(match_ids)
        ).values_list("pk", "kind", "length", "stake_cents", "currency")
    }


def display_names(*, user_ids: Collection[int]) -> dict[int, str]:
    return dict(
        Profile.objects.filter(user_id__in=among(user_ids)).values_list("user_id", "display_name")
    )


def entrant_ids(*, tournament_id: int) -> list[int]:
    """The players registered in the tournament."""
    return list(
        Entry.objects.filter(tournament_id=tournament_id, status=EntryStatus.REGISTERED)
        .order_by("pk")
        .values_list("user_id", flat=True)
    )


def stopped_by_cancellation(*, tournament: Tournament) -> dict[int, tuple[int, int]]:
    """The players of each match the tournament's cancellation ended, by match id: those
    it cancelled at the moment the tournament was (``matches.lifecycle.match_stop``)."""
    if tournament.finished_at is None:
        return {}
    return {
        match_id: (player_0, player_1)
        for match_id, player_0, player_1 in Match.objects.filter(
            tournament_id=tournament.pk,
            status=MatchStatus.CANCELLED,
            finished_at=tournament.finished_at,
        ).values_list("pk", "player_0_id", "player_1_id")
    }


def tournaments_named(*, tournament_ids: Collection[int]) -> dict[int, Tournament]:
    return Tournament.objects.in_bulk(tournament_ids)


def entrants(*, tournament_id: int) -> list[Entry]:
    """The tournament's registered entries, with where each finished once it is over."""
    return list(
        Entry.objects.filter(tournament_id=tournament_id, status=EntryStatus.REGISTERED).order_by(
            "pk"
        )
    )


def dispute_with_match(*, dispute_id: int) -> Dispute | None:
    return (
        Dispute.objects.select_related(
            "filed_by__profile", "match__player_0__profile", "match__player_1__profile"
        )
        .filter(pk=dispute_id)
        .first()
    )


# Notices whose match waits for the player to come to the board (data.show_up_by).
READY_KINDS = (NoticeKind.MATCH_READY, NoticeKind.CHALLENGE_ACCEPTED, NoticeKind.SEEK_TAKEN)


def waiting_notices(*, user_id: int, now: datetime, limit: int = 3) -> list[Notification]:
    """Unread notices of a match still waiting for the player to come, newest first: a page
    shows them again, as a player who misses one forfeits the match. A match the player has
    come to since, or that ended, waits for nobody."""
    recent = Notification.objects.filter(
        user_id=user_id, read_at__isnull=True, kind__in=READY_KINDS
    ).order_by("-created_at", "-pk")[:10]
    timely = [
        notice
        for notice in recent
        if notice.data.get("show_up_by") and datetime.fromisoformat(notice.data["show_up_by"]) > now
    ]
    if not timely:
        return []
    still_waiting = set(
        Match.objects.filter(
            pk__in={notice.data.get("match_id") for notice in timely},
            status=MatchStatus.PLAYING,
            show_up_by__isnull=False,
        )
        .filter(Q(player_0_id=user_id, seen_0=False) | Q(player_1_id=user_id, seen_1=False))
        .values_list("pk", flat=True)
    )
    return [notice for notice in timely if notice.data.get("match_id") in still_waiting][:limit]


def analysis_ready_text(analysis_id: int, user_id: int) -> str:
    """ "The analysis of your match against Bruno is ready: your PR is 6.21 (Advanced).", in
    the active language."""
    analysis = Analysis.objects.select_related("match__player_0", "match__player_1").get(
        pk=analysis_id
    )
    players = (analysis.result or {}).get("players", [])
    match = analysis.match
    if match is None:
        return _("The analysis of %(players)s (%(file)s) is ready.") % {
            "players": " v ".join(analysis.players),
            "file": analysis.filename or _("your upload"),
        }
    seat = match.seat_of(User(pk=user_id))
    if seat is None or len(players) != 2:
        return _("The analysis of match %(number)s is ready.") % {"number": match.pk}
    mine = players[seat]
    blanks = {"name": match.player(1 - seat).profile.display_name}
    if mine.get("pr") is None:
        return (
            _(
                "The analysis of your match against %(name)s is ready: your PR is not rated"
                " (no decision)."
            )
            % blanks
        )
    blanks["pr"] = number_format(Decimal(f"{mine['pr']:.2f}"), 2)
    if not mine.get("rating"):
        return (
            _("The analysis of your match against %(name)s is ready: your PR is %(pr)s.") % blanks
        )
    # GNU Backgammon's word for the error rate (``analysis.match_analysis.ERROR_RATINGS``).
    blanks["rating"] = _(mine["rating"])
    return (
        _("The analysis of your match against %(name)s is ready: your PR is %(pr)s (%(rating)s).")
        % blanks
    )


# GNU Backgammon's words for an error rate, read in any language (``analysis_ready_text``).
PR_RATINGS = (
    gettext_noop("Awful!"),
    gettext_noop("Beginner"),
    gettext_noop("Casual player"),
    gettext_noop("Intermediate"),
    gettext_noop("Advanced"),
    gettext_noop("Expert"),
    gettext_noop("World class"),
    gettext_noop("Supernatural"),
)
