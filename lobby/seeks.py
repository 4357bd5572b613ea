"""Writes for seeks: post one, cancel it, take someone's, or "Play now".

A seek taken becomes an ordinary challenge, accepted at once: ``matches.creation``'s
``match_challenge`` (the seek's creator in seat 0) and ``match_accept`` (the taker), so the
rules of challenges, the clocks and the stakes' escrow are the ones every match follows.
A demo player's seek (one the computer plays, ``matches.creation.computer_strength``) is
taken as a challenge to them instead, the taker in seat 0: the computer plays seat 1.
Posting, taking and "Play now" first ask ``accounts.standing`` whether the player may seek
in the seek's currency (no suspension or cool-down; no real money where it is barred).

Locks: ``seek_accept`` locks the seek row, then the new match (``match_accept``): a seek
comes before its match in the lock order. Every change of state is a compare-and-set on
the seek being open, so two takers, or a taker and a cancellation, never both win. The
lobby's page is told of every change once it is committed (``lobby.events``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.db.models.functions import Abs
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import ledger
from accounts.models import Currency, User
from accounts.money import money_text
from accounts.standing import require_may_seek, require_not_blocked
from accounts.templatetags.money import page_separators
from core import locks
from core.errors import Conflict, DomainError, Forbidden, InternalError, NotFound
from core.locks import Lock
from core.rows import among
from lobby import events
from lobby.models import Seek
from lobby.selectors import blocked_either_way, creator_blocked_either_way
from lobby.terms import (
    SEEK_MAX_CUBE,
    clock_of,
    cover_cents,
    offer_text,
    refusal,
    with_article,
)
from matches import creation
from matches.clock import check_clock
from matches.engine import engine_status
from matches.models import DEFAULT_CLOCK, ClockSettings, Match, MatchKind

MAX_RATING = 5000
# "Play now" looks at this many of the closest seeks before posting one: a seek taken by
# someone else in the meantime is passed over for the next.
PLAY_NOW_TRIES = 3
# "Play now" takes a person's seek posted this recently, or whose creator opened a page
# of the site this recently (``Profile.seen_at``): they are about to play it.
PRESENT_FOR = timedelta(minutes=15)


@dataclass(frozen=True)
class SeekTerms:
    """What a seek offers; the defaults are what "Play now" posts when nobody is waiting."""

    kind: str = MatchKind.MATCH
    length: int = 5
    stake_cents: int = 0
    currency: str = Currency.FUN
    clock: ClockSettings = DEFAULT_CLOCK
    rated: bool = True
    min_rating: int | None = None
    max_rating: int | None = None


QUICK_TERMS = SeekTerms()


def _open() -> Q:
    return Q(taken_by__isnull=True, cancelled_at__isnull=True)


@transaction.atomic
def seek_post(*, user: User, terms: SeekTerms) -> Seek:
    """Offer ``terms`` to anyone eligible; the player must be able to cover them."""
    _check_terms(terms)
    require_may_seek(user, currency=terms.currency)
    what = offer_text(
        kind=terms.kind,
        length=terms.length,
        stake_cents=terms.stake_cents,
        currency=terms.currency,
    )
    needed = cover_cents(kind=terms.kind, stake_cents=terms.stake_cents)
    have = ledger.balance(user=user, currency=terms.currency)
    if have < needed:
        raise DomainError(
            _("You have %(have)s %(currency)s; %(offer)s needs %(needed)s %(currency)s.")
            % {
                "have": money_text(have, page_separators()),
                "currency": terms.currency,
                "offer": with_article(what),
                "needed": money_text(needed, page_separators()),
            }
        )
    if Seek.objects.filter(_open(), creator=user).exists():
        raise Conflict(_("You already have an open seek: cancel it to post another."))
    money_play = terms.kind == MatchKind.MONEY
    try:
        with transaction.atomic():
            seek = Seek.objects.create(
                creator=user,
                kind=terms.kind,
                length=0 if money_play else terms.length,
                stake_cents=terms.stake_cents,
                currency=terms.currency,
                clock=asdict(terms.clock),
                rated=terms.rated and not money_play,
                min_rating=terms.min_rating,
                max_rating=terms.max_rating,
            )
    except IntegrityError:  # the same player posting twice at once
        raise Conflict(_("You already have an open seek: cancel it to post another.")) from None
    events.publish_seek(seek.pk, "posted")
    return seek


def _check_terms(terms: SeekTerms) -> None:
    if terms.kind not in MatchKind.values:
        raise DomainError(
            _("A seek is for one of %(kinds)s") % {"kinds": ", ".join(MatchKind.values)}
        )
    if terms.currency not in Currency.values:
        raise DomainError(
            _("Currency must be one of %(currencies)s") % {"currencies": ", ".join(Currency.values)}
        )
    if terms.kind == MatchKind.MATCH:
        creation.checked_length(terms.length)
    if terms.kind == MatchKind.MONEY and terms.stake_cents <= 0:
        raise DomainError(_("A money session needs a stake per point of at least 0.01"))
    if terms.stake_cents < 0:
        raise DomainError(_("The stake cannot be negative"))
    check_clock(terms.clock)
    for bound in (terms.min_rating, terms.max_rating):
        if bound is not None and not 0 <= bound <= MAX_RATING:
            raise DomainError(_("A rating bound is 0 to %(most)s") % {"most": MAX_RATING})
    low, high = terms.min_rating, terms.max_rating
    if low is not None and high is not None and low > high:
        raise DomainError(_("The lowest rating must not be above the highest"))


@transaction.atomic
def seek_cancel(*, seek_id: int, user: User) -> Seek:
    """The creator withdraws their open seek."""
    seek = _locked(seek_id)
    if seek.creator_id != user.pk:
        raise Forbidden(_("This seek is not yours to cancel"))
    _require_open(seek)
    _cancel(seek)
    return seek


def seek_accept(*, seek_id: int, user: User) -> Match:
    """Take the seek: its match starts at once, its creator in seat 0.

    A creator who can no longer cover their own seek, or may no longer seek (a suspension
    or cool-down since it was posted), has it withdrawn, and the taker is told so (409);
    the refusal says nothing of the creator's balance or standing.
    """
    with transaction.atomic():
        seek = _locked(seek_id)
        _require_open(seek)
        require_may_seek(user, currency=seek.currency)
        require_not_blocked(user, seek.creator, doing="take the seek of")
        why_not = refusal(
            seek,
            user_id=user.pk,
            rating=user.profile.rating,
            balance_cents=ledger.balance(user=user, currency=seek.currency),
        )
        if why_not is not None:
            raise DomainError(why_not)
        withdrawn = _creator_cannot_play(seek)
        if withdrawn is None:
            match = _start(seek, taker=user)
        else:
            _cancel(seek)
    if withdrawn is not None:
        raise withdrawn
    return match


def _creator_cannot_play(seek: Seek) -> DomainError | None:
    """Why the seek must be withdrawn before anyone plays it, told to the taker; or None.

    A demo player's real-money seek (posted before they were kept to play money) is refused
    with the public reason; a standing or a balance fallen short since stays the creator's.
    """
    creator = seek.creator.profile.display_name
    try:
        require_may_seek(seek.creator, currency=seek.currency)
    except Forbidden:
        return Conflict(
            _("%(name)s can no longer play this seek, so it is withdrawn.") % {"name": creator}
        )
    except DomainError as refusal:
        return DomainError(_("%(refusal)s The seek is withdrawn.") % {"refusal": refusal})
    needed = cover_cents(kind=seek.kind, stake_cents=seek.stake_cents)
    if ledger.balance(user=seek.creator, currency=seek.currency) < needed:
        return Conflict(
            _("%(name)s can no longer cover this seek, so it is withdrawn.") % {"name": creator}
        )
    return None


def _start(seek: Seek, *, taker: User) -> Match:
    money_play = seek.kind == MatchKind.MONEY
    # A demo player's seek is answered as a challenge to them: the computer plays seat 1.
    computer = bool(creation.computer_strength(seek.creator))
    invited = creation.match_challenge(
        challenger=taker if computer else seek.creator,
        opponent=seek.creator if computer else taker,
        length=None if money_play else seek.length,
        money_play=money_play,
        max_cube=SEEK_MAX_CUBE if money_play else None,
        stake_cents=seek.stake_cents,
        currency=seek.currency,
        rated=seek.rated,
        clock_settings=clock_of(seek),
    )
    match = invited if computer else creation.match_accept(match_id=invited.pk, user=taker)
    taken = Seek.objects.filter(_open(), pk=seek.pk).update(
        taken_by=taker, match=match, taken_at=timezone.now()
    )
    if taken != 1:
        raise InternalError(f"seek {seek.pk} changed under its lock")
    events.publish_seek(seek.pk, "taken")
    return match


def play_now(*, user: User) -> Match | Seek:
    """Start a match to ``QUICK_TERMS.length`` points at once, in play money or without a
    stake: never a money session, and never real money, without asking.

    In order: the open match seek whose creator's rating is closest to the player's among
    those they may take, from a person still about (who posted it or opened a page within
    ``PRESENT_FOR``) or from a demo player the computer plays; else, where the computer has
    an engine, a challenge to the demo player closest in rating, who accepts at once; else
    the player's own seek of ``QUICK_TERMS``, kept or posted, for the next person. Returns
    the match started, or the player's seek.
    """
    require_may_seek(user, currency=QUICK_TERMS.currency)
    for seek_id in _closest_takeable(user):
        try:
            return seek_accept(seek_id=seek_id, user=user)
        except Conflict:  # taken or withdrawn since it was read: try the next
            continue
    if not creation.computer_strength(user) and engine_status().available:
        for computer in _closest_demo_players(user):
            try:
                return _challenge_demo_player(user, computer)
            except Forbidden:  # barred from playing meanwhile: the next one
                continue
    mine = Seek.objects.filter(_open(), creator=user).first()
    return mine if mine is not None else seek_post(user=user, terms=QUICK_TERMS)


def _closest_takeable(user: User) -> list[int]:
    rating = user.profile.rating
    fun = ledger.balance(user=user, currency=Currency.FUN)
    recently = timezone.now() - PRESENT_FOR
    present = (
        Q(created_at__gte=recently)
        | Q(creator__profile__seen_at__gte=recently)
        | ~Q(creator__profile__bot_strength="")
    )
    seeks = (
        Seek.objects.filter(_open(), present, currency=Currency.FUN, kind=MatchKind.MATCH)
        .exclude(creator=user)
        .filter(~creator_blocked_either_way(user_id=user.pk))
        .filter(Q(min_rating__isnull=True) | Q(min_rating__lte=rating))
        .filter(Q(max_rating__isnull=True) | Q(max_rating__gte=rating))
        .filter(stake_cents__lte=fun)
        .annotate(distance=Abs(F("creator__profile__rating") - rating))
        .order_by("distance", "created_at")
    )
    return list(seeks.values_list("pk", flat=True)[:PLAY_NOW_TRIES])


def _closest_demo_players(user: User) -> list[User]:
    rating = user.profile.rating
    return list(
        User.objects.filter(is_active=True)
        .exclude(profile__bot_strength="")
        .exclude(pk=user.pk)
        .filter(~blocked_either_way(user_id=user.pk))
        .select_related("profile")
        .annotate(distance=Abs(F("profile__rating") - rating))
        .order_by("distance", "pk")[:PLAY_NOW_TRIES]
    )


def _challenge_demo_player(user: User, computer: User) -> Match:
    return creation.match_challenge(
        challenger=user,
        opponent=computer,
        length=QUICK_TERMS.length,
        stake_cents=QUICK_TERMS.stake_cents,
        currency=QUICK_TERMS.currency,
        rated=QUICK_TERMS.rated,
        clock_settings=QUICK_TERMS.clock,
    )


def seeks_withdraw(*, user_ids: Iterable[int]) -> int:
    """Cancel the open seeks of players whose match just started; returns how many."""
    with transaction.atomic():
        ids = list(
            locks.select(Lock.SEEK, Seek.objects.all())
            .filter(_open(), creator_id__in=among(list(user_ids)))
            .values_list("pk", flat=True)
        )
        Seek.objects.filter(_open(), pk__in=ids).update(cancelled_at=timezone.now())
        for seek_id in ids:
            events.publish_seek(seek_id, "cancelled")
    return len(ids)


def _locked(seek_id: int) -> Seek:
    # Only the seek's row is locked, not the creator's rows joined to it.
    seek = (
        locks.select(Lock.SEEK, Seek.objects.all(), seek_id, of=("self",))
        .select_related("creator__profile")
        .filter(pk=seek_id)
        .first()
    )
    if seek is None:
        raise NotFound(_("There is no such seek"))
    return seek


def _require_open(seek: Seek) -> None:
    if seek.taken_by_id is not None:
        raise Conflict(_("Someone took this seek already"))
    if seek.cancelled_at is not None:
        raise Conflict(_("This seek is cancelled"))


def _cancel(seek: Seek) -> None:
    """Expects the seek row locked and open."""
    cancelled = Seek.objects.filter(_open(), pk=seek.pk).update(cancelled_at=timezone.now())
    if cancelled != 1:
        raise InternalError(f"seek {seek.pk} changed under its lock")
    events.publish_seek(seek.pk, "cancelled")
