"""Restrictions set on a player: by fair play and staff (``standing_restrict``), or by the
player themselves (``self_exclude``). A suspension or a closure ends the player's sessions
everywhere at once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Standing, User
from accounts.sessions import sessions_end
from accounts.standing.checks import in_force
from accounts.tokens import tokens_revoke_all
from core import locks
from core.errors import DomainError
from core.locks import Lock

SELF_EXCLUSION_DAYS = (1, 7, 30, 90, 180, 365, 1825)


@transaction.atomic
def standing_restrict(*, user: User, reason: str = "", **fields: Any) -> Standing:
    """Set restrictions (``muted_until``, ``suspended_until``, ``closed_at``,
    ``cooldown_until``); ``None`` lifts one. Only fair play and staff call this."""
    allowed = {"muted_until", "suspended_until", "closed_at", "cooldown_until"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"not a restriction: {sorted(unknown)}")
    standing, _created = locks.select(Lock.STANDING, Standing.objects.all(), user.pk).get_or_create(
        user=user
    )
    for name, value in fields.items():
        setattr(standing, name, value)
    if reason:
        standing.reason = reason[:500]
    standing.save()
    suspended = in_force(fields.get("suspended_until"), timezone.now())
    if fields.get("closed_at") is not None or suspended:
        # Suspended or closed: logged out everywhere at once, open sockets and API tokens
        # too. The player may log in again to read the decision and appeal it.
        sessions_end(user_id=user.pk)
        tokens_revoke_all(user=user)
    return standing


@transaction.atomic
def self_exclude(*, user: User, days: int) -> Standing:
    """The player bars their own real-money play for ``days``; it cannot be shortened."""
    if days not in SELF_EXCLUSION_DAYS:
        choices = ", ".join(str(d) for d in SELF_EXCLUSION_DAYS)
        raise DomainError(_("Choose a self-exclusion of %(choices)s days.") % {"choices": choices})
    standing, _created = locks.select(Lock.STANDING, Standing.objects.all(), user.pk).get_or_create(
        user=user
    )
    until = timezone.now() + timedelta(days=days)
    if standing.self_excluded_until is None or standing.self_excluded_until < until:
        standing.self_excluded_until = until
        standing.save(update_fields=["self_excluded_until", "updated_at"])
    return standing
