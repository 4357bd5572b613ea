"""Reads for accounts."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import Profile


def top_rated_players(*, limit: int = 10) -> QuerySet[Profile]:
    """Players by rating, best first, for the home page and the ratings list."""
    return (
        Profile.objects.filter(user__is_active=True, user__groups__name__in=["player", "organizer"])
        .select_related("user")
        .distinct()
        .order_by("-rating", "display_name")[:limit]
    )
