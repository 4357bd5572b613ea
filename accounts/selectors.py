"""Reads for accounts."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts.models import Profile, RatingChange, User, WalletAdjustment


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


def rating_history(*, profile: Profile) -> list[tuple[str, float]]:
    """(label, rating) points for the chart: where the player started, then each match."""
    changes = list(
        RatingChange.objects.filter(user_id=profile.user_id).order_by("created_at", "pk")
    )
    if not changes:
        return [("Now", profile.rating)]
    points = [("Start", changes[0].rating_before)]
    points.extend(
        (f"{change.created_at.day} {change.created_at:%b}", change.rating_after)
        for change in changes
    )
    return points


def recent_results(*, profile: Profile, limit: int = 8) -> list[RatingChange]:
    """The player's latest rated matches, newest first, with the opponent's profile."""
    return list(
        RatingChange.objects.filter(user_id=profile.user_id)
        .select_related("opponent__profile")
        .order_by("-created_at", "-pk")[:limit]
    )


def wallet_adjustments(*, user: User, limit: int = 50) -> list[WalletAdjustment]:
    """Staff deposits and withdrawals on a player's wallet, newest first."""
    return list(
        WalletAdjustment.objects.filter(user=user)
        .select_related("staff__profile")
        .order_by("-created_at", "-pk")[:limit]
    )
