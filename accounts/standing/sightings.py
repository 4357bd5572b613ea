"""Where a player logs in from: the address and device, kept as digests (never the values
themselves) with the address's country, for fair play's multi-account checks and the
barred regions."""

from __future__ import annotations

import hashlib
import hmac
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from accounts.events import AccountSighted
from accounts.models import Sighting, SightingKind, User
from core import bus


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
    reader = geoip_reader(settings.CRAWFORD_GEOIP_DATABASE)
    if reader is None:
        return ""
    try:
        found = reader.get(address)
    except ValueError:
        return ""
    country = (found or {}).get("country") or {}
    return str(country.get("iso_code") or "")[:2]


@lru_cache(maxsize=2)
def geoip_reader(path: str) -> Any:
    if not path:
        return None
    import maxminddb

    return maxminddb.open_database(path)
