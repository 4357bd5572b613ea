"""A player's standing: what sanctions, cool-downs, self-exclusion and the law let them do.

Every service that starts play, posts a seek, registers for a tournament, sends chat or
pays money out asks here first, and is refused with a message that says why and until
when. The rows are written by fair play's sanctions and detectors (through
``standing_restrict``), by the player (``self_exclude``, ``block_set``) and at log-in
(``sighting_record``).

Real-money play is barred for a player whose declared country, or the country of the
address they last logged in from (when ``CRAWFORD_GEOIP_DATABASE`` names a GeoIP file), is
in ``CRAWFORD_BARRED_REGIONS``. Play money stays open to everyone.
"""

from __future__ import annotations

import hashlib
import hmac
import time
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from accounts.events import AccountSighted
from accounts.models import Block, BlockKind, Currency, Sighting, SightingKind, Standing, User
from accounts.sessions import sessions_end
from accounts.tokens import tokens_revoke_all
from config import bus
from config.errors import DomainError, Forbidden
from core import locks
from core.locks import Lock

SELF_EXCLUSION_DAYS = (1, 7, 30, 90, 180, 365, 1825)


# Checks ---------------------------------------------------------------------------------


def standing_of(user_id: int) -> Standing | None:
    return Standing.objects.filter(user_id=user_id).first()


def _until(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%d %b %Y %H:%M")


def _active(moment: datetime | None, now: datetime) -> bool:
    return moment is not None and moment > now


def _why(standing: Standing) -> str:
    return f" ({standing.reason})" if standing.reason else ""


def require_may_play(user: User, *, currency: str = Currency.FUN) -> None:
    """Refuse a closed or suspended account, and real money where it is barred."""
    _require_may_play(user, standing_of(user.pk), currency)


def _require_may_play(user: User, standing: Standing | None, currency: str) -> None:
    now = timezone.now()
    if standing is not None:
        if standing.closed_at is not None:
            raise Forbidden(f"{_name(user)}'s account is closed{_why(standing)}.")
        if _active(standing.suspended_until, now):
            raise Forbidden(
                f"{_name(user)}'s account is suspended until "
                f"{_until(standing.suspended_until)}{_why(standing)}."  # type: ignore[arg-type]
            )
    if currency == Currency.REAL:
        if standing is not None and _active(standing.self_excluded_until, now):
            raise Forbidden(
                f"{_name(user)} chose to stay away from real-money play until "
                f"{_until(standing.self_excluded_until)}."  # type: ignore[arg-type]
            )
        region = barred_region(user)
        if region is not None:
            raise Forbidden(
                f"Real-money play is not allowed in {region} by law, so {_name(user)} can "
                "play for play money only."
            )


def require_may_seek(user: User, *, currency: str = Currency.FUN) -> None:
    """Play, plus no cool-down for abandoned matches."""
    standing = standing_of(user.pk)  # read once for both checks
    _require_may_play(user, standing, currency)
    _require_no_cooldown(user, standing, "post or take seeks")


def require_may_register(user: User, *, currency: str = Currency.FUN) -> None:
    """Play, plus no cool-down for abandoned matches."""
    require_standing_may_register(user, standing_of(user.pk), currency=currency)


def require_standing_may_register(
    user: User, standing: Standing | None, *, currency: str = Currency.FUN
) -> None:
    """``require_may_register`` with the player's standing (None: they have no row) read by
    the caller, in the statement that reads the rest of what a registration checks."""
    _require_may_play(user, standing, currency)
    _require_no_cooldown(user, standing, "register for tournaments")


def _require_no_cooldown(user: User, standing: Standing | None, doing: str) -> None:
    if standing is not None and _active(standing.cooldown_until, timezone.now()):
        raise Forbidden(
            f"{_name(user)} abandoned or timed out of too many matches lately and cannot "
            f"{doing} until {_until(standing.cooldown_until)}."  # type: ignore[arg-type]
        )


def require_may_chat(user: User) -> None:
    standing = standing_of(user.pk)
    if standing is None:
        return
    now = timezone.now()
    if standing.closed_at is not None or _active(standing.suspended_until, now):
        raise Forbidden("Your account may not chat while it is suspended or closed.")
    if _active(standing.muted_until, now):
        raise Forbidden(
            f"You are muted until {_until(standing.muted_until)}{_why(standing)}."  # type: ignore[arg-type]
        )


def require_may_withdraw(user: User) -> None:
    """A suspended account's winnings stay in the wallet until staff have reviewed it."""
    standing = standing_of(user.pk)
    if standing is not None and _active(standing.suspended_until, timezone.now()):
        raise Forbidden(
            f"{_name(user)}'s account is suspended; nothing is paid out until the review is over."
        )


def require_not_blocked(user: User, other: User, *, doing: str = "challenge") -> None:
    """Refuse when either of the two blocked the other."""
    if Block.objects.filter(
        Q(owner=other, other=user) | Q(owner=user, other=other), kind=BlockKind.BLOCK
    ).exists():
        raise Forbidden(f"You cannot {doing} {_name(other)}: one of you has blocked the other.")


def unheard_by(user_id: int) -> set[int]:
    """Whose chat ``user_id`` must not see: the people they muted or blocked, and the
    people who blocked them. ``unheard_version`` says when this last changed."""
    mine = Block.objects.filter(owner_id=user_id).values_list("other_id", flat=True)
    theirs = Block.objects.filter(other_id=user_id, kind=BlockKind.BLOCK).values_list(
        "owner_id", flat=True
    )
    return set(mine) | set(theirs)


def barred_region(user: User) -> str | None:
    """The barred country the player declared or last logged in from, by its name."""
    barred = set(settings.CRAWFORD_BARRED_REGIONS)
    if not barred:
        return None
    profile = getattr(user, "profile", None)
    declared = str(profile.country) if profile is not None and profile.country else ""
    codes = [declared] if declared else []
    seen = (
        Sighting.objects.filter(user=user, kind=SightingKind.ADDRESS)
        .exclude(country="")
        .order_by("-last_seen")
        .values_list("country", flat=True)
        .first()
    )
    if seen:
        codes.append(seen)
    for code in codes:
        if code.upper() in barred:
            from django_countries import countries

            return str(countries.name(code.upper())) or code.upper()
    return None


# Writes ---------------------------------------------------------------------------------


@transaction.atomic
def standing_restrict(*, user: User, reason: str = "", **fields: Any) -> Standing:
    """Set restrictions (``muted_until``, ``suspended_until``, ``closed_at``,
    ``cooldown_until``); ``None`` lifts one. Only fair play and staff call this."""
    allowed = {"muted_until", "suspended_until", "closed_at", "cooldown_until"}
    unknown = set(fields) - allowed
    if unknown:
        raise ValueError(f"not a restriction: {sorted(unknown)}")
    standing, _ = locks.select(Lock.STANDING, Standing.objects.all(), user.pk).get_or_create(
        user=user
    )
    for name, value in fields.items():
        setattr(standing, name, value)
    if reason:
        standing.reason = reason[:500]
    standing.save()
    suspended = _active(fields.get("suspended_until"), timezone.now())
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
        raise DomainError(f"Choose a self-exclusion of {choices} days.")
    standing, _ = locks.select(Lock.STANDING, Standing.objects.all(), user.pk).get_or_create(
        user=user
    )
    until = timezone.now() + timedelta(days=days)
    if standing.self_excluded_until is None or standing.self_excluded_until < until:
        standing.self_excluded_until = until
        standing.save(update_fields=["self_excluded_until", "updated_at"])
    return standing


def unheard_version(user_id: int) -> int | None:
    """A mark that changes whenever ``unheard_by(user_id)`` does (kept in the cache, which
    every web process shares), so an open board can tell when to read it again."""
    value = cache.get(_UNHEARD_VERSION.format(user_id))
    return int(value) if value is not None else None


_UNHEARD_VERSION = "crawford:unheard:{}"


def _unheard_changed(*users: User) -> None:
    def mark() -> None:
        now = time.time_ns()
        cache.set_many({_UNHEARD_VERSION.format(user.pk): now for user in users}, timeout=None)

    transaction.on_commit(mark)


def block_set(*, owner: User, other: User, kind: str) -> Block:
    """``owner`` mutes or blocks ``other`` (a block replaces a mute, and the other way)."""
    if kind not in BlockKind.values:
        raise DomainError('Choose "mute" or "block".')
    if owner.pk == other.pk:
        raise DomainError("You cannot mute or block yourself.")
    block, _ = Block.objects.update_or_create(owner=owner, other=other, defaults={"kind": kind})
    _unheard_changed(owner, other)
    return block


def block_remove(*, owner: User, other: User) -> bool:
    removed = Block.objects.filter(owner=owner, other=other).delete()[0] > 0
    _unheard_changed(owner, other)
    return removed


def digest_of(value: str) -> str:
    """A salted one-way digest: the same value always gives the same digest on this site."""
    key = (settings.SECRET_KEY + ":sighting").encode()
    return hmac.new(key, value.encode(), hashlib.sha256).hexdigest()


def sighting_record(*, user: User, address: str, device: str) -> list[Sighting]:
    """Keep that ``user`` was seen at ``address`` with ``device`` (both as digests), and
    publish ``AccountSighted``."""
    now = timezone.now()
    seen = []
    for kind, value in ((SightingKind.ADDRESS, address), (SightingKind.DEVICE, device)):
        if not value:
            continue
        country = country_of_address(value) if kind == SightingKind.ADDRESS else ""
        digest = digest_of(value)
        updated = Sighting.objects.filter(user=user, kind=kind, digest=digest).update(
            last_seen=now, times=F("times") + 1, **({"country": country} if country else {})
        )
        if not updated:
            Sighting.objects.get_or_create(
                user=user, kind=kind, digest=digest, defaults={"country": country}
            )
        seen.append(Sighting.objects.get(user=user, kind=kind, digest=digest))
    if seen:  # fair play looks for other accounts seen at these
        bus.publish_on_commit(AccountSighted(user.pk, tuple(row.pk for row in seen)))
    return seen


def sightings_prune() -> int:
    """Forget sightings unseen for ``CRAWFORD_SIGHTING_DAYS`` days."""
    cutoff = timezone.now() - timedelta(days=settings.CRAWFORD_SIGHTING_DAYS)
    return Sighting.objects.filter(last_seen__lt=cutoff).delete()[0]


def country_of_address(address: str) -> str:
    """The ISO country of ``address`` from the configured GeoIP file, or ""."""
    reader = _geoip_reader(settings.CRAWFORD_GEOIP_DATABASE)
    if reader is None:
        return ""
    try:
        found = reader.get(address)
    except ValueError:
        return ""
    country = (found or {}).get("country") or {}
    return str(country.get("iso_code") or "")[:2]


@lru_cache(maxsize=2)
def _geoip_reader(path: str) -> Any:
    if not path:
        return None
    import maxminddb

    return maxminddb.open_database(path)


def _name(user: User) -> str:
    profile = getattr(user, "profile", None)
    return profile.display_name if profile is not None else user.username
