"""A player's standing as they read it: the restrictions in force and each check the
services make (``accounts.standing``), answered. Their profile and ``GET /api/me/standing/``
show it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Currency, User
from accounts.standing.checks import (
    barred_region,
    require_may_chat,
    require_may_play,
    require_may_register,
    require_may_seek,
    require_may_withdraw,
    standing_of,
)
from core.errors import DomainError


@dataclass(frozen=True)
class Restriction:
    kind: str
    until: datetime | None
    reason: str
    refuses: str


@dataclass(frozen=True)
class Permission:
    action: str
    currency: str | None
    allowed: bool
    why: str


@dataclass(frozen=True)
class StandingNow:
    """What a player may do now and what keeps them from the rest."""

    restrictions: list[Restriction]
    permissions: list[Permission]
    barred_region: str | None
    self_excluded_until: datetime | None


def standing_now(user: User) -> StandingNow:
    """The player's restrictions in force, and each check the services make, answered
    (``accounts.standing``): what their own profile and ``GET /api/me/standing/`` show."""
    standing, now = standing_of(user.pk), timezone.now()
    restrictions = []
    if standing is not None:
        suspended = _("No play, no tournament registration and no withdrawal of winnings.")
        rows = [
            ("closed", standing.closed_at, _("No play, registration or payouts.")),
            ("suspended", standing.suspended_until, suspended),
            ("cooldown", standing.cooldown_until, _("No seeks and no tournament registration.")),
            ("muted", standing.muted_until, _("No chat.")),
        ]
        restrictions = [
            Restriction(kind, None if kind == "closed" else moment, standing.reason, refuses)
            for kind, moment, refuses in rows
            if moment is not None and (kind == "closed" or moment > now)
        ]
    excluded = standing.self_excluded_until if standing is not None else None
    if excluded is not None and excluded <= now:
        excluded = None
    if excluded is not None:
        restrictions.append(Restriction("self_excluded", excluded, "", _("No real-money play.")))
    checks: list[tuple[str, str | None, Callable[[], None]]] = []
    for currency in Currency.values:
        checks += [
            ("play", currency, partial(require_may_play, user, currency=currency)),
            ("seek", currency, partial(require_may_seek, user, currency=currency)),
            ("register", currency, partial(require_may_register, user, currency=currency)),
        ]
    checks += [
        ("withdraw", None, partial(require_may_withdraw, user)),
        ("chat", None, partial(require_may_chat, user)),
    ]
    return StandingNow(
        restrictions=restrictions,
        permissions=[_answered(action, currency, check) for action, currency, check in checks],
        barred_region=barred_region(user),
        self_excluded_until=excluded,
    )


def _answered(action: str, currency: str | None, check: Callable[[], None]) -> Permission:
    try:
        check()
    except DomainError as refusal:
        return Permission(action, currency, allowed=False, why=str(refusal))
    return Permission(action, currency, allowed=True, why="")
