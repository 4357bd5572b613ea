"""What a player may do now: each check a service makes before play, a seek, a registration,
chat or a payout, refused with a message that says why and until when.

Real-money play is barred for a player whose declared country, or the country of the
address they last logged in from (when ``CRAWFORD_GEOIP_DATABASE`` names a GeoIP file), is
in ``CRAWFORD_BARRED_REGIONS``. Play money stays open to everyone.

A demo player the computer plays (``Profile.bot_strength``) never plays for real money:
anyone can log in as one, and the computer's wins are nobody's to cash. That refusal is a
plain ``DomainError``, not a ``Forbidden``: its reason is public (their profile says it), so
a refusal that hides another player's standing still names it."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from accounts.models import Block, BlockKind, Currency, Sighting, SightingKind, Standing, User
from core.errors import DomainError, Forbidden
from core.rows import among


def standing_of(user_id: int) -> Standing | None:
    return Standing.objects.filter(user_id=user_id).first()


def barred_from_play(user_ids: Collection[int]) -> set[int]:
    """Which of these players may not play now: their account is closed or suspended (what
    ``require_may_play`` refuses whatever the currency). One statement for any number."""
    return set(
        Standing.objects.filter(user_id__in=among(list(user_ids)))
        .filter(Q(closed_at__isnull=False) | Q(suspended_until__gt=timezone.now()))
        .values_list("user_id", flat=True)
    )


def _until(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "d M Y H:i")


def in_force(moment: datetime | None, now: datetime) -> bool:
    return moment is not None and moment > now


def _why(standing: Standing) -> str:
    return _(" (%(reason)s)") % {"reason": standing.reason} if standing.reason else ""


def require_may_play(user: User, *, currency: str = Currency.FUN) -> None:
    """Refuse a closed or suspended account, and real money where it is barred."""
    _require_may_play(user, standing_of(user.pk), currency)


def _require_may_play(user: User, standing: Standing | None, currency: str) -> None:
    now = timezone.now()
    if standing is not None:
        if standing.closed_at is not None:
            raise Forbidden(
                _("%(name)s's account is closed%(why)s.")
                % {"name": name_of(user), "why": _why(standing)}
            )
        if in_force(standing.suspended_until, now):
            raise Forbidden(
                _("%(name)s's account is suspended until %(until)s%(why)s.")
                % {
                    "name": name_of(user),
                    "until": _until(standing.suspended_until),  # type: ignore[arg-type]
                    "why": _why(standing),
                }
            )
    if currency == Currency.REAL:
        require_not_a_demo_player(user)
        if standing is not None and in_force(standing.self_excluded_until, now):
            raise Forbidden(
                _("%(name)s chose to stay away from real-money play until %(until)s.")
                % {
                    "name": name_of(user),
                    "until": _until(standing.self_excluded_until),  # type: ignore[arg-type]
                }
            )
        region = barred_region(user)
        if region is not None:
            raise Forbidden(
                _(
                    "Real-money play is not allowed in %(region)s by law, so %(name)s can "
                    "play for play money only."
                )
                % {"region": region, "name": name_of(user)}
            )


def require_not_a_demo_player(user: User) -> None:
    """Refuse real money to a demo player the computer plays, saying so."""
    profile = getattr(user, "profile", None)
    if profile is not None and profile.bot_strength:
        raise DomainError(
            _(
                "%(name)s is a demo player the computer plays: demo players play for play "
                "money (FUN) only, never for real money."
            )
            % {"name": name_of(user)}
        )


def require_may_seek(user: User, *, currency: str = Currency.FUN) -> None:
    """Play, plus no cool-down for abandoned matches."""
    standing = standing_of(user.pk)  # read once for both checks
    _require_may_play(user, standing, currency)
    _require_no_cooldown(user, standing, _("post or take seeks"))


def require_may_register(user: User, *, currency: str = Currency.FUN) -> None:
    """Play, plus no cool-down for abandoned matches."""
    require_standing_may_register(user, standing_of(user.pk), currency=currency)


def require_standing_may_register(
    user: User, standing: Standing | None, *, currency: str = Currency.FUN
) -> None:
    """``require_may_register`` with the player's standing (None: they have no row) read by
    the caller, in the statement that reads the rest of what a registration checks."""
    _require_may_play(user, standing, currency)
    _require_no_cooldown(user, standing, _("register for tournaments"))


def _require_no_cooldown(user: User, standing: Standing | None, doing: str) -> None:
    if standing is not None and in_force(standing.cooldown_until, timezone.now()):
        raise Forbidden(
            _(
                "%(name)s abandoned or timed out of too many matches lately and cannot "
                "%(doing)s until %(until)s."
            )
            % {
                "name": name_of(user),
                "doing": doing,
                "until": _until(standing.cooldown_until),  # type: ignore[arg-type]
            }
        )


def require_may_chat(user: User) -> None:
    standing = standing_of(user.pk)
    if standing is None:
        return
    now = timezone.now()
    if standing.closed_at is not None or in_force(standing.suspended_until, now):
        raise Forbidden(_("Your account may not chat while it is suspended or closed."))
    if in_force(standing.muted_until, now):
        raise Forbidden(
            _("You are muted until %(until)s%(why)s.")
            % {"until": _until(standing.muted_until), "why": _why(standing)}  # type: ignore[arg-type]
        )


def require_may_withdraw(user: User) -> None:
    """A suspended account's winnings stay in the wallet until staff have reviewed it."""
    standing = standing_of(user.pk)
    if standing is not None and in_force(standing.suspended_until, timezone.now()):
        raise Forbidden(
            _("%(name)s's account is suspended; nothing is paid out until the review is over.")
            % {"name": name_of(user)}
        )


def require_not_blocked(user: User, other: User, *, doing: str = "challenge") -> None:
    """Refuse when either of the two blocked the other."""
    if Block.objects.filter(
        Q(owner=other, other=user) | Q(owner=user, other=other), kind=BlockKind.BLOCK
    ).exists():
        raise Forbidden(f"You cannot {doing} {name_of(other)}: one of you has blocked the other.")


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


def name_of(user: User) -> str:
    profile = getattr(user, "profile", None)
    return profile.display_name if profile is not None else user.username
