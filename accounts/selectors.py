"""Reads for accounts."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.conf import settings
from django.db.models import Case, Count, Exists, OuterRef, Q, QuerySet, Sum, When
from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.models import (
    AdjustmentApproval,
    ApprovalState,
    Block,
    BlockKind,
    PerformanceRecord,
    Profile,
    RatingChange,
    User,
    WalletAdjustment,
)
from accounts.names import name_skeleton
from core.rows import among

ROLLING = 20
"""Analysed matches the profile's PR is taken over."""
LEADERBOARD_MIN_DECISIONS = 200
"""Decisions a player needs before the PR leaderboard lists them (about five matches to 5)."""


def pr_of(error: float, decisions: int) -> float | None:
    """PR of ``error`` EMG given up over ``decisions`` (``analysis.match_analysis``)."""
    return 500 * error / decisions if decisions else None


def top_rated_players(*, limit: int = 10) -> QuerySet[Profile]:
    """Players by rating, best first, for the home page and the ratings list."""
    return ranked_players()[:limit]


def ranked_players() -> QuerySet[Profile]:
    """Everyone who plays, best rated first."""
    return (
        Profile.objects.filter(user__is_active=True, user__groups__name__in=["player", "organizer"])
        .select_related("user")
        .distinct()
        .order_by("-rating", "display_name")
    )


def ratings_search(*, query: str = "") -> QuerySet[Profile]:
    """The ratings list, narrowed to display names or usernames containing ``query``."""
    players = ranked_players()
    if query:
        players = players.filter(
            Q(display_name__icontains=query) | Q(user__username__icontains=query)
        )
    return players


OPPONENTS_LISTED = 10
"""Players an opponent search answers at most: a few to pick from as one types."""


def opponents_named(*, typed: str, seeker: User, limit: int = OPPONENTS_LISTED) -> list[Profile]:
    """Players whose username or display name starts with ``typed`` (in any case), whom
    ``seeker`` may challenge: active, playing, not ``seeker``, and neither blocking the
    other. Those whose username is ``typed`` come first, then by display name."""
    typed = typed.strip()
    if not typed:
        return []
    blocked = Block.objects.filter(kind=BlockKind.BLOCK).filter(
        Q(owner_id=seeker.pk, other_id=OuterRef("user_id"))
        | Q(owner_id=OuterRef("user_id"), other_id=seeker.pk)
    )
    players = (
        Profile.objects.filter(
            Q(user__username__istartswith=typed) | Q(display_name__istartswith=typed),
            user__is_active=True,
            user__in=User.objects.filter(groups__name__in=["player", "organizer"]),
        )
        .exclude(user_id=seeker.pk)
        .exclude(Exists(blocked))
        .select_related("user")
        .annotate(named=Case(When(user__username__iexact=typed, then=0), default=1))
        .order_by("named", "display_name", "user__username")
    )
    return list(players[:limit])


def rating_history(*, profile: Profile) -> list[tuple[str, float]]:
    """(label, rating) points for the chart: where the player started, then each match.

    A voided change (fair play undid a manipulated series) is left out, and every later
    point loses what it gave, as the rating itself did.
    """
    changes = list(
        RatingChange.objects.filter(user_id=profile.user_id).order_by("created_at", "pk")
    )
    if not changes:
        return [(gettext("Now"), profile.rating)]
    points = [(gettext("Start"), changes[0].rating_before)]
    voided = [change for change in changes if change.voided_at is not None]
    for change in changes:
        if change.voided_at is not None:
            continue
        # What a void took back had been counted in this change only if the void came
        # after it: a later change already started from the corrected rating.
        counted = sum(
            void.delta
            for void in voided
            if void.created_at <= change.created_at < (void.voided_at or change.created_at)
        )
        label = _day_label(change.created_at)
        points.append((label, change.rating_after - counted))
    return points


def recent_results(*, profile: Profile, limit: int = 8) -> list[RatingChange]:
    """The player's latest rated matches (voided ones left out), newest first, with the
    opponent's profile."""
    return list(
        RatingChange.objects.filter(user_id=profile.user_id, voided_at__isnull=True)
        .select_related("opponent__profile")
        .order_by("-created_at", "-pk")[:limit]
    )


def wallet_adjustments(*, user: User, limit: int = 50) -> list[WalletAdjustment]:
    """Staff deposits and withdrawals on a player's wallet, newest first."""
    return list(
        WalletAdjustment.objects.filter(user=user)
        .select_related("staff__profile", "approved_by__profile")
        .order_by("-created_at", "-pk")[:limit]
    )


def pending_approvals(*, user: User | None = None, limit: int = 200) -> list[AdjustmentApproval]:
    """Adjustments waiting for a second staff member, oldest first: of ``user``'s wallet,
    or of every wallet."""
    pending = AdjustmentApproval.objects.filter(state=ApprovalState.PENDING)
    if user is not None:
        pending = pending.filter(user=user)
    return list(
        pending.select_related("user__profile", "requested_by__profile").order_by(
            "created_at", "pk"
        )[:limit]
    )


def _day_label(moment: datetime) -> str:
    """A chart's label for a day, in the page's language: "3 Nov", "3 nov"."""
    return date_format(moment, "j M")


def performance(*, user_id: int, last: int = ROLLING) -> dict[str, object]:
    """The rolling PR over the player's last ``last`` analysed matches, with its history:
    ``history`` holds (label, rolling PR after that match) oldest first, for the chart."""
    records = list(
        PerformanceRecord.objects.filter(user_id=user_id).order_by("-played_at", "-pk")[:last]
    )
    records.reverse()
    history: list[tuple[str, float]] = []
    error, decisions = 0.0, 0
    for record in records:
        error, decisions = error + record.error, decisions + record.decisions
        rolling = pr_of(error, decisions)
        if rolling is not None:
            history.append((_day_label(record.played_at), round(rolling, 2)))
    return {
        "pr": pr_of(error, decisions),
        "matches": len(records),
        "decisions": decisions,
        "history": history,
        "recent": list(reversed(records))[:8],
    }


def pr_leaderboard(
    *, min_decisions: int = LEADERBOARD_MIN_DECISIONS, limit: int = 100
) -> list[dict[str, object]]:
    """Players by PR over all their analysed matches (lowest first), with enough decisions."""
    rows = (
        PerformanceRecord.objects.values("user_id", "user__username", "user__profile__display_name")
        .annotate(error=Sum("error"), decisions=Sum("decisions"), matches=Count("id"))
        .filter(decisions__gte=min_decisions)
    )
    board = [
        {
            "username": row["user__username"],
            "name": row["user__profile__display_name"] or row["user__username"],
            "pr": pr_of(row["error"], row["decisions"]),
            "decisions": row["decisions"],
            "matches": row["matches"],
        }
        for row in rows
    ]
    board.sort(key=lambda row: (row["pr"], row["username"]))
    return board[:limit]


def names_taken(*, names: Iterable[str], user_id: int | None) -> set[str]:
    """Those of ``names`` that pass for another player's username or display name (their
    skeletons are equal), in one query on the two indexed skeleton columns. ``user_id``'s
    own names are not another player's."""
    by_skeleton = {name_skeleton(name): name for name in names}
    usernames = User.objects.filter(username_skeleton__in=by_skeleton)
    display_names = Profile.objects.filter(display_name_skeleton__in=by_skeleton)
    if user_id is not None:
        usernames = usernames.exclude(pk=user_id)
        display_names = display_names.exclude(user_id=user_id)
    clashes = usernames.values_list("username_skeleton", flat=True).union(
        display_names.values_list("display_name_skeleton", flat=True)
    )
    return {by_skeleton[skeleton] for skeleton in clashes}


def languages_of(*, user_ids: Iterable[int]) -> dict[int, str]:
    """The language each player reads what the site writes to them in (``Profile.language``);
    the site's own for a user without a profile."""
    wanted = set(user_ids)
    known = dict(
        Profile.objects.filter(user_id__in=among(wanted)).values_list("user_id", "language")
    )
    return {user_id: known.get(user_id, settings.LANGUAGE_CODE) for user_id in wanted}


def language_of(*, user_id: int) -> str:
    """``languages_of`` for one player."""
    return languages_of(user_ids=[user_id])[user_id]
